#include "whatif/extrap/synthgraph.h"

#include <algorithm>
#include <cstdlib>

namespace rankscope::extrap::synth {

std::vector<Edge> communicationEdges(const Trace& trace)
{
    std::vector<Edge> edges;
    edges.reserve(trace.messages().size());
    for (const Message& m : trace.messages()) {
        const uint32_t a = trace.messageSender(m).value, b = trace.messageReceiver(m).value;
        if (a != b && a < trace.rankCount() && b < trace.rankCount()) edges.emplace_back(a, b);
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    return edges;
}

double explainedShare(const Placement& placement, uint32_t n, const std::vector<Edge>& edges,
                      uint32_t* wraps)
{
    if (wraps) *wraps = 0;
    if (edges.empty()) return 1.0;
    const ProcessGrid grid(placement.dims(n));
    size_t explained = 0;
    for (const auto& [a, b] : edges) {
        const ProcessGrid::Coords x = grid.coords(a), y = grid.coords(b);
        bool ok = true;
        uint32_t wrapped = 0;
        for (size_t d = 0; d < grid.dims().size() && ok; ++d) {
            const int64_t diff = std::abs(y[d] - x[d]), size = grid.dims()[d];
            if (diff <= 1) continue;
            if (size > 2 && diff == size - 1)
                wrapped |= 1u << d;
            else
                ok = false;
        }
        if (!ok) continue;
        ++explained;
        if (wraps) *wraps |= wrapped;
    }
    return double(explained) / double(edges.size());
}

std::vector<Placement> gridPlacements(const std::vector<std::vector<Edge>>& edges,
                                      const std::vector<uint32_t>& scales, size_t limit)
{
    struct Scored
    {
        Placement placement;
        double share;
    };
    std::vector<Scored> scored;
    const std::vector<std::array<uint8_t, 3>> orders2 = {{0, 1, 2}, {1, 0, 2}};
    const std::vector<std::array<uint8_t, 3>> orders3 = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                                         {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const PlacementKind kind : {PlacementKind::Grid2, PlacementKind::Grid3}) {
        for (const auto& order : kind == PlacementKind::Grid2 ? orders2 : orders3) {
            const Placement plain(kind, order);
            double worst = 1.0;
            uint32_t periodic = 0;
            bool any = false;
            for (size_t k = 0; k < scales.size(); ++k) {
                uint32_t wraps = 0;
                worst = std::min(worst, explainedShare(plain, scales[k], edges[k], &wraps));
                periodic |= wraps;
                any = any || !edges[k].empty();
            }
            if (!any || worst <= 0) continue;
            // The same grid at a scale gives the same share; keep the first order only.
            bool same = false;
            for (const Scored& s : scored) {
                bool equal = s.placement.kind() == kind;
                for (size_t k = 0; k < scales.size() && equal; ++k)
                    equal = s.placement.dims(scales[k]) == plain.dims(scales[k]);
                same = same || equal;
            }
            if (!same) scored.push_back({Placement(kind, order, periodic), worst});
        }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const Scored& a, const Scored& b) { return a.share > b.share; });
    std::vector<Placement> out;
    for (const Scored& s : scored)
        if (out.size() < limit) out.push_back(s.placement);
    // Without point-to-point edges (collectives only) the graph says nothing: MPI_Cart_create's
    // own order is the guess. Otherwise only grids the graph supports are tried.
    if (out.empty())
        for (const PlacementKind kind : {PlacementKind::Grid2, PlacementKind::Grid3})
            out.push_back(Placement(kind));
    return out;
}

} // namespace rankscope::extrap::synth
