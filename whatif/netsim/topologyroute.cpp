// Topology: routing (crossbar, dimension order, breadth-first shortest path).

#include "model/trace/traceerror.h"
#include "whatif/netsim/topology.h"

#include <algorithm>
#include <limits>

namespace rankscope::netsim {

namespace {
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
}

void Topology::route(uint32_t src, uint32_t dst, std::vector<uint32_t>& route) const
{
    if (src == dst) return;
    if (kind_ == TopologyKind::Crossbar) {
        route.push_back(2 * src);
        route.push_back(2 * dst + 1);
        return;
    }
    if (dimensionOrder_) {
        dimensionOrderRoute(src, dst, route);
        return;
    }
    const std::vector<uint32_t>& parent = parentLinks(src);
    const size_t begin = route.size();
    for (uint32_t v = dst; v != src;) {
        const uint32_t l = parent[v];
        if (l == kNone)
            throw TraceError("network: no route from node " + std::to_string(src) + " to node " +
                             std::to_string(dst) + " (the links do not connect them)");
        route.push_back(l);
        v = links_[l].from;
    }
    std::reverse(route.begin() + long(begin), route.end());
}

void Topology::dimensionOrderRoute(uint32_t src, uint32_t dst, std::vector<uint32_t>& route) const
{
    // Correct dimension 0 first, then 1, then 2, each the shorter way round (ties: upwards).
    const uint32_t nd = uint32_t(dims_.size());
    uint32_t v = src;
    uint32_t stride = 1;
    for (uint32_t d = 0; d < nd; stride *= dims_[d], ++d) {
        const uint32_t size = dims_[d];
        const uint32_t from = (v / stride) % size;
        const uint32_t to = (dst / stride) % size;
        const uint32_t up = (to + size - from) % size;
        const bool forward = up <= size - up;
        for (uint32_t s = 0; s < (forward ? up : size - up); ++s) {
            const uint32_t l = torusLinks_[(size_t(v) * nd + d) * 2 + (forward ? 0 : 1)];
            route.push_back(l);
            v = links_[l].to;
        }
    }
}

const std::vector<uint32_t>& Topology::parentLinks(uint32_t src) const
{
    std::vector<uint32_t>& parent = parents_[src];
    if (!parent.empty()) return parent;
    // Not cached for huge graphs: forget the previous source's tree instead of keeping all.
    if (uint64_t(nodes_) * vertices_ > (uint64_t(1) << 26))
        for (auto& p : parents_)
            if (&p != &parent) std::vector<uint32_t>().swap(p);
    parent.assign(vertices_, kNone);
    std::vector<uint32_t> queue{src};
    std::vector<bool> seen(vertices_, false);
    seen[src] = true;
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint32_t v = queue[head];
        // Only switches forward: a route never passes through another node (but on direct
        // networks nodes are the routers, so there they do).
        if (v != src && v < nodes_ && kind_ != TopologyKind::Torus && kind_ != TopologyKind::Ring &&
            kind_ != TopologyKind::DoubleRing && kind_ != TopologyKind::Explicit)
            continue;
        for (uint32_t l : out_[v]) {
            const uint32_t to = links_[l].to;
            if (seen[to]) continue;
            seen[to] = true;
            parent[to] = l;
            queue.push_back(to);
        }
    }
    return parent;
}

PathInfo Topology::routedPath(uint32_t src, uint32_t dst) const
{
    PathInfo p;
    thread_local std::vector<uint32_t> r;
    r.clear();
    route(src, dst, r);
    p.bytesPerNs = std::numeric_limits<double>::infinity();
    for (uint32_t l : r) {
        p.latencyNs += links_[l].latencyNs;
        p.bytesPerNs = std::min(p.bytesPerNs, links_[l].bytesPerNs);
    }
    p.hops = uint32_t(r.size());
    return p;
}

} // namespace rankscope::netsim
