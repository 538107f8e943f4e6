#include "whatif/extrap/synthtile.h"

#include "model/deltas/intervals.h"
#include "model/generator/processgrid.h"
#include "model/trace/callrecords.h"
#include "model/trace/tracebuilder.h"
#include "whatif/extrap/synthcompose.h"
#include "whatif/extrap/synthgraph.h"
#include "whatif/extrap/synthtiming.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace rankscope::extrap {

namespace {

using synth::Placement;

/// Share of the tiled run's distinct point-to-point edges its grid must explain: a grid code's
/// halo, with room for other partners, which keep their offsets (NPB MG: 8 of 72 edges at 16
/// ranks and 16 of 240 at 32 join ranks two apart, those still holding points on the coarsest
/// level); a random pairing of ranks stays far below it.
constexpr double kExplained = 0.8;

std::string dimsText(const std::vector<uint32_t>& dims)
{
    std::string s;
    for (const uint32_t d : dims)
        s += (s.empty() ? "" : " x ") + std::to_string(d);
    return s;
}

/// MPI_COMM_WORLD or a communicator holding every rank in world order (a duplicate of it).
bool worldLike(const Trace& t, CommId comm)
{
    if (!comm.valid()) return false;
    if (comm == t.worldCommunicator()) return true;
    const auto& members = t.communicator(comm).members;
    if (members.size() != t.rankCount()) return false;
    for (uint32_t i = 0; i < members.size(); ++i)
        if (members[i].value != i) return false;
    return true;
}

/// Call site of the send of each message (by message id), "" where none.
std::vector<std::string> sendSites(const Trace& t)
{
    std::vector<std::string> out(t.messages().size());
    CallSiteTable sites;
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        const RankCallRecords rec = mpiCallRecords(t, RankId(r), sites);
        for (const CallRecord& c : rec.calls)
            for (const CallPayload& p : rec.payloadOf(c))
                if (p.kind == EventKind::MpiSend || p.kind == EventKind::MpiIsend)
                    out[p.message().value] = std::string(sites.name(c.callSite));
    }
    return out;
}

/// The grid offset of each message of `t` on grid `g` (see the header for +1 / -1 in a
/// dimension of 2 ranks); `ambiguousIn` marks dimensions whose target size exceeds 2.
std::vector<ProcessGrid::Coords> messageOffsets(const Trace& t, const ProcessGrid& g,
                                                const std::vector<uint32_t>& targetDims)
{
    const auto& msgs = t.messages();
    // Distinct tags per (sender, receiver), ascending.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<int32_t>> tags;
    for (const Message& m : msgs)
        tags[{t.messageSender(m).value, t.messageReceiver(m).value}].push_back(m.tag);
    for (auto& [pair, v] : tags) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    std::vector<ProcessGrid::Coords> out(msgs.size());
    for (size_t i = 0; i < msgs.size(); ++i) {
        const uint32_t s = t.messageSender(msgs[i]).value, q = t.messageReceiver(msgs[i]).value;
        const ProcessGrid::Coords a = g.coords(s), b = g.coords(q);
        const std::vector<int32_t>& pairTags = tags[{s, q}];
        for (size_t d = 0; d < g.dims().size(); ++d) {
            const int64_t size = g.dims()[d];
            int64_t diff = b[d] - a[d];
            if (diff > size / 2) diff -= size;
            if (diff <= -(size + 1) / 2) diff += size;
            const bool halfway = size % 2 == 0 && diff != 0 && std::abs(diff) * 2 == size;
            if (halfway && int64_t(targetDims[d]) > size) {
                if (pairTags.size() >= 2) {
                    const auto at = std::lower_bound(pairTags.begin(), pairTags.end(), msgs[i].tag);
                    diff = (at - pairTags.begin()) % 2 == 0 ? -size / 2 : size / 2;
                } else {
                    diff = b[d] - a[d]; // as seen: the lower coordinate sends upwards
                }
            }
            out[i][d] = diff;
        }
    }
    return out;
}

/// The communicator as a slab of the grid `dims`: the mask of the dimensions in which all its
/// members share their coordinate, when it holds every rank with those coordinates in world
/// order (MPI_Comm_split with the coordinates along the masked dimensions as colour and the
/// world rank as key); -1 otherwise. MPI_COMM_WORLD and its duplicates are 0.
int slabMask(const Trace& t, CommId comm, const std::vector<uint32_t>& dims)
{
    if (!comm.valid()) return -1;
    if (worldLike(t, comm)) return 0;
    const auto& members = t.communicator(comm).members;
    if (members.empty()) return -1;
    const ProcessGrid g(dims);
    const ProcessGrid::Coords first = g.coords(members.front().value);
    uint32_t mask = (1u << dims.size()) - 1;
    for (const RankId m : members) {
        if (m.value >= g.size()) return -1;
        const ProcessGrid::Coords c = g.coords(m.value);
        for (size_t d = 0; d < dims.size(); ++d)
            if (c[d] != first[d]) mask &= ~(1u << d);
    }
    uint64_t expected = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (!(mask & (1u << d))) expected *= dims[d];
    if (members.size() != expected) return -1;
    for (size_t i = 1; i < members.size(); ++i)
        if (members[i].value <= members[i - 1].value) return -1;
    return int(mask);
}

/// "" when `t` can be tiled or take part in a composition on the grid `dims`, else why not.
std::string usable(const Trace& t, const std::vector<uint32_t>& dims)
{
    for (const Message& m : t.messages()) {
        if (!m.matched()) return "has unmatched messages";
        if (slabMask(t, m.comm, dims) < 0)
            return "sends on a communicator that is not a slab of its process grid (ranks "
                   "sharing their coordinates in some dimensions, in world order)";
    }
    for (const CollectiveInstance& c : t.collectives())
        if (slabMask(t, c.comm, dims) < 0)
            return "has collectives on a communicator that is not a slab of its process grid "
                   "(ranks sharing their coordinates in some dimensions, in world order)";
    return {};
}

/// `t` on the grid `dims`, with +1 and -1 told apart in every dimension of 2 ranks.
synth::GridInput gridInput(const Trace& t, const std::vector<uint32_t>& dims)
{
    synth::GridInput in;
    in.trace = &t;
    in.dims = dims;
    std::vector<uint32_t> larger = dims;
    for (uint32_t& d : larger)
        d += 1;
    in.offsets = messageOffsets(t, ProcessGrid(dims), larger);
    in.sites = sendSites(t);
    in.levels = synth::sizeLevels(in);
    for (uint32_t c = 0; c < t.communicators().size(); ++c)
        in.commMasks.push_back(slabMask(t, CommId(c), dims));
    return in;
}

bool allMatched(const Trace& t)
{
    return std::all_of(t.messages().begin(), t.messages().end(),
                       [](const Message& m) { return m.matched(); });
}

/// The draft: each target rank's events, with its gaps scaled by `factor`.
Trace emit(const std::vector<synth::GridInput>& inputs,
           const std::vector<std::vector<synth::DraftEvent>>& ranks,
           const std::vector<double>& factor, const ProcessGrid& tgrid)
{
    const Trace& src = *inputs.back().trace;
    TraceBuilder b;
    for (size_t i = 0; i < src.strings().size(); ++i)
        b.intern(src.str(StringId(uint32_t(i))));
    b.setClock(src.clock());
    // Regions of every input, one per name.
    std::map<std::string, RegionId, std::less<>> byName;
    std::vector<std::vector<RegionId>> regionOf(inputs.size());
    for (size_t k = inputs.size(); k-- > 0;) {
        const Trace& t = *inputs[k].trace;
        for (const Region& r : t.regions()) {
            const std::string name(t.str(r.name));
            auto it = byName.find(name);
            if (it == byName.end()) {
                Region copy = r;
                copy.name = b.intern(name);
                copy.file = r.file.valid() ? b.intern(t.str(r.file)) : StringId();
                it = byName.emplace(name, b.addRegion(copy)).first;
            }
            regionOf[k].push_back(it->second);
        }
    }
    const StringId thread = b.intern("Master thread");
    std::vector<RankId> members;
    const auto target = uint32_t(ranks.size());
    for (uint32_t c = 0; c < target; ++c) {
        const RankId rank = b.addRank(b.intern("MPI Rank " + std::to_string(c)));
        b.addLocation(rank, thread, LocationType::CpuThread, c);
        members.push_back(rank);
    }
    const CommId world = b.addCommunicator(b.intern("MPI_COMM_WORLD"), std::move(members));
    b.setWorldCommunicator(world);
    // Slab communicators: per mask of shared dimensions, one per colour (the coordinates along
    // the masked dimensions, row-major), members in world order.
    const size_t ndims = tgrid.dims().size();
    std::map<int, std::vector<CommId>> slabs;
    for (const synth::GridInput& in : inputs)
        for (uint32_t k = 0; k < in.commMasks.size(); ++k) {
            const int mask = in.commMasks[k];
            if (mask <= 0 || slabs.count(mask)) continue;
            std::vector<std::vector<RankId>> colours(1);
            for (size_t d = 0; d < ndims; ++d)
                if (mask & (1 << d)) colours.resize(colours.size() * tgrid.dims()[d]);
            for (uint32_t c = 0; c < target; ++c) {
                const ProcessGrid::Coords x = tgrid.coords(c);
                size_t colour = 0;
                for (size_t d = 0; d < ndims; ++d)
                    if (mask & (1 << d)) colour = colour * tgrid.dims()[d] + size_t(x[d]);
                colours[colour].push_back(RankId(c));
            }
            const std::string name(in.trace->str(in.trace->communicator(CommId(k)).name));
            for (auto& m : colours)
                slabs[mask].push_back(b.addCommunicator(b.intern(name), std::move(m)));
        }
    const auto maskOf = [&](const synth::GridInput& in, CommId comm) {
        return comm.value < in.commMasks.size() ? in.commMasks[comm.value] : 0;
    };
    const auto commOf = [&](const synth::GridInput& in, CommId comm, uint32_t rank) {
        const int mask = maskOf(in, comm);
        if (mask <= 0) return world;
        const ProcessGrid::Coords x = tgrid.coords(rank);
        size_t colour = 0;
        for (size_t d = 0; d < ndims; ++d)
            if (mask & (1 << d)) colour = colour * tgrid.dims()[d] + size_t(x[d]);
        return slabs[mask][colour];
    };
    // A world rank's rank in a slab of `mask`: its coordinates along the other dimensions,
    // row-major (the slab's members are in world order).
    const auto localRank = [&](int mask, uint32_t worldRank) {
        if (mask <= 0) return worldRank;
        const ProcessGrid::Coords x = tgrid.coords(worldRank);
        uint32_t local = 0;
        for (size_t d = 0; d < ndims; ++d)
            if (!(mask & (1 << d))) local = local * tgrid.dims()[d] + uint32_t(x[d]);
        return local;
    };
    // A collective's root: its coordinates in the input, those the communicator shares taken
    // from the calling rank.
    const auto rootOf = [&](const synth::GridInput& in, const CollectiveInstance& ci,
                            uint32_t rank) -> uint32_t {
        if (!ci.root.valid()) return kNoRoot;
        const int mask = maskOf(in, ci.comm);
        ProcessGrid::Coords r = ProcessGrid(in.dims).coords(ci.root.value);
        const ProcessGrid::Coords x = tgrid.coords(rank);
        for (size_t d = 0; d < ndims; ++d)
            if (mask > 0 && (mask & (1 << d))) r[d] = x[d];
        return localRank(mask, uint32_t(tgrid.neighbour(0, r)));
    };

    std::vector<std::unordered_map<uint64_t, uint32_t>> memberAt(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        const Trace& t = *inputs[k].trace;
        for (uint32_t i = 0; i < t.collectiveMembers().size(); ++i) {
            const CollectiveMember& m = t.collectiveMembers()[i];
            memberAt[k][(uint64_t(m.location.value) << 32) | m.endEvent] = i;
        }
    }
    for (uint32_t c = 0; c < target; ++c) {
        const LocationId loc(c);
        b.reserveEvents(loc, ranks[c].size());
        const double f = factor[c];
        double t = 0;
        bool first = true;
        for (const synth::DraftEvent& x : ranks[c]) {
            const Trace& st = *inputs[x.input].trace;
            const EventStream& ev = st.events(LocationId(x.location));
            const uint32_t i = x.event;
            if (first) {
                t = double(ev.time(i));
                first = false;
            } else if (i > 0) {
                t += double(std::max<int64_t>(0, ev.time(i) - ev.time(i - 1))) * f;
            }
            const auto at = int64_t(std::llround(t));
            const uint32_t ref = ev.ref(i);
            const uint64_t request =
                (uint64_t(x.copy) << 56) | (uint64_t(x.input) << 40) | uint64_t(ref);
            const auto bytesOf = [&](const Message& m) {
                return uint64_t(
                    std::max<int64_t>(0, std::llround(double(m.bytes) * x.bytesFactor)));
            };
            const auto partner = [&](int sign) {
                ProcessGrid::Coords o{};
                for (size_t d = 0; d < tgrid.dims().size(); ++d)
                    o[d] = sign * x.offset[d];
                return uint32_t(tgrid.neighbour(c, o));
            };
            switch (ev.kind(i)) {
            case EventKind::Enter:
                b.enter(loc, at, regionOf[x.input][ref]);
                break;
            case EventKind::Leave:
                b.leave(loc, at, regionOf[x.input][ref]);
                break;
            case EventKind::MpiSend:
            case EventKind::MpiIsend: {
                const Message& m = st.message(MessageId(ref));
                const CommId comm = commOf(inputs[x.input], m.comm, c);
                const uint32_t to = localRank(maskOf(inputs[x.input], m.comm), partner(1));
                if (ev.kind(i) == EventKind::MpiSend)
                    b.send(loc, at, to, comm, x.tag, bytesOf(m));
                else
                    b.isend(loc, at, to, comm, x.tag, bytesOf(m), request);
                break;
            }
            case EventKind::MpiRecv:
            case EventKind::MpiIrecv: {
                const Message& m = st.message(MessageId(ref));
                const CommId comm = commOf(inputs[x.input], m.comm, c);
                const uint32_t from = localRank(maskOf(inputs[x.input], m.comm), partner(-1));
                if (ev.kind(i) == EventKind::MpiRecv)
                    b.recv(loc, at, from, comm, x.tag, bytesOf(m));
                else
                    b.irecv(loc, at, from, comm, x.tag, bytesOf(m), request);
                break;
            }
            case EventKind::MpiIsendComplete:
                b.isendComplete(loc, at, request);
                break;
            case EventKind::MpiIrecvRequest:
                b.irecvRequest(loc, at, request);
                break;
            case EventKind::MpiRequestTest:
                b.requestTest(loc, at, request);
                break;
            case EventKind::MpiRequestCancelled:
                b.requestCancelled(loc, at, request);
                break;
            case EventKind::MpiCollectiveBegin:
                b.collectiveBegin(loc, at);
                break;
            case EventKind::MpiCollectiveEnd: {
                const CollectiveInstance& ci = st.collective(CollectiveId(ref));
                const auto it = memberAt[x.input].find((uint64_t(x.location) << 32) | i);
                const CollectiveMember* m =
                    it == memberAt[x.input].end() ? nullptr : &st.collectiveMembers()[it->second];
                b.collectiveEnd(loc, at, ci.op, commOf(inputs[x.input], ci.comm, c),
                                rootOf(inputs[x.input], ci, c), m ? m->bytesSent : 0,
                                m ? m->bytesReceived : 0);
                break;
            }
            case EventKind::Misc:
                break; // communicator records and the like: the draft defines MPI_COMM_WORLD only
            }
        }
    }
    return b.finish();
}

} // namespace

TiledDraft tileLargestInput(const std::vector<const Trace*>& given, uint32_t target,
                            const ExtrapolationResult* timing, uint64_t maxEvents)
{
    TiledDraft out;
    std::vector<const Trace*> traces = given;
    std::stable_sort(traces.begin(), traces.end(), [](const Trace* a, const Trace* b) {
        return a->rankCount() < b->rankCount();
    });
    const Trace& src = *traces.back();
    const auto ns = uint32_t(src.rankCount());
    out.sourceRanks = ns;
    if (target <= ns) {
        out.refusal = "the target is not above the largest input";
        return out;
    }

    std::vector<std::vector<synth::Edge>> edges;
    std::vector<uint32_t> scales;
    for (const Trace* t : traces) {
        edges.push_back(synth::communicationEdges(*t));
        scales.push_back(uint32_t(t->rankCount()));
    }
    std::optional<Placement> chosen;
    for (const Placement& p : synth::gridPlacements(edges, scales, 8)) {
        const std::vector<uint32_t> a = p.dims(ns), b = p.dims(target);
        if (a.empty() || a.size() != b.size()) continue;
        // The grid must explain the tiled run's communication (its edges grid neighbours); a
        // grid offered only because none explains any edge says nothing about it.
        if (synth::explainedShare(p, ns, edges.back()) < kExplained) continue;
        bool divides = true;
        for (size_t d = 0; d < a.size(); ++d)
            divides = divides && a[d] > 0 && b[d] % a[d] == 0;
        if (divides) {
            chosen = p;
            break;
        }
    }
    if (!chosen) {
        out.refusal =
            "no process grid that explains the " + std::to_string(ns) +
            "-rank run's communication (at least 80 % of its distinct point-to-point edges "
            "between grid neighbours) has, at " +
            std::to_string(target) + " ranks, a multiple of the " + std::to_string(ns) +
            "-rank run's ranks in every dimension";
        return out;
    }
    const std::vector<uint32_t> sdims = chosen->dims(ns), tdims = chosen->dims(target);
    const ProcessGrid tgrid(tdims, (1u << tdims.size()) - 1);
    // Every input on the chosen grid; the inputs whose grid has as many dimensions take part
    // in the composition of grown dimensions.
    std::vector<synth::GridInput> inputs;
    for (const Trace* t : traces) {
        const std::vector<uint32_t> dims = chosen->dims(uint32_t(t->rankCount()));
        if (dims.size() != sdims.size() || t == &src) continue;
        if (!usable(*t, dims).empty()) continue;
        inputs.push_back(gridInput(*t, dims));
    }
    if (const std::string why = usable(src, sdims); !why.empty()) {
        out.refusal = "the " + std::to_string(ns) + "-rank run " + why;
        return out;
    }
    inputs.push_back(gridInput(src, sdims));
    const size_t base = inputs.size() - 1;
    const synth::SizeRule sizes = synth::sizeRule(inputs, tdims);
    std::vector<synth::GrownDim> grown = synth::grownDimensions(inputs, base, tdims);

    std::vector<std::vector<synth::DraftEvent>> ranks(target);
    const auto compose = [&](const std::vector<synth::GrownDim>& dims, std::string& why) {
        out.events = 0;
        synth::ComposeCache cache;
        for (uint32_t c = 0; c < target; ++c) {
            ranks[c] = synth::composeRank(inputs, base, dims, sizes, tgrid, c, why, &cache);
            if (!why.empty()) return false;
            out.events += ranks[c].size();
        }
        return true;
    };
    std::string composeFailure;
    if (!grown.empty() && !compose(grown, composeFailure)) grown.clear();
    if (grown.empty()) {
        std::string why;
        compose({}, why);
    }
    if (out.events > maxEvents) {
        out.refusal = "tiled, the trace would hold " + std::to_string(out.events) +
                      " events, more than the limit of " + std::to_string(maxEvents);
        return out;
    }

    // Per-rank time factors: delta sums in the order of the base ranks' sums.
    const IntervalTable table = computeIntervals(src);
    std::vector<double> factor(target, 1.0);
    if (timing && timing->predictedSums.quantiles.size() >= 2) {
        std::vector<double> have(target);
        for (uint32_t c = 0; c < target; ++c)
            have[c] = double(table.rankDeltaSums[synth::baseRankOf(inputs[base], tgrid, c)]);
        factor = synth::rankSumFactors(have, timing->predictedSums.quantiles);
    }
    std::optional<Trace> draft = emit(inputs, ranks, factor, tgrid);
    if (!grown.empty() && !allMatched(*draft)) {
        composeFailure = "its messages do not pair up";
        grown.clear();
        std::string why;
        compose({}, why);
        draft = emit(inputs, ranks, factor, tgrid);
    }
    out.draft = std::move(draft);
    out.placement = std::to_string(sdims.size()) + "-D grid " + dimsText(tdims) +
                    ", tiled by the " + std::to_string(ns) + "-rank run (" + dimsText(sdims) + ")";
    for (const synth::GrownDim& g : grown)
        out.composed.push_back("dimension " + std::to_string(g.dim) + " (" +
                               std::to_string(tdims[g.dim]) + " ranks) composed from the " +
                               std::to_string(inputs[g.small].trace->rankCount()) + "- and " +
                               std::to_string(inputs[g.large].trace->rankCount()) +
                               "-rank runs' dimension " + std::to_string(g.donor));
    if (!composeFailure.empty())
        out.compositionFailure = "per-dimension composition not used: " + composeFailure;
    return out;
}

} // namespace rankscope::extrap
