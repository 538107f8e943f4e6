#include "whatif/extrap/synthtile.h"

#include "model/deltas/intervals.h"
#include "model/generator/processgrid.h"
#include "model/trace/callrecords.h"
#include "model/trace/tracebuilder.h"
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

/// Per call site: the factor (target / source)^b of a power law b fitted to the mean message
/// size at the input scales (1 where fewer than two scales show the site).
std::map<std::string, double> sizeFactors(const std::vector<const Trace*>& traces, uint32_t target)
{
    std::map<std::string, std::vector<std::pair<double, double>>> points; // log n, log mean
    for (const Trace* t : traces) {
        const std::vector<std::string> sites = sendSites(*t);
        std::map<std::string, std::pair<double, uint64_t>> sum;
        for (size_t i = 0; i < sites.size(); ++i) {
            auto& s = sum[sites[i]];
            s.first += double(t->messages()[i].bytes);
            ++s.second;
        }
        for (const auto& [site, s] : sum)
            if (s.first > 0)
                points[site].push_back(
                    {std::log(double(t->rankCount())), std::log(s.first / double(s.second))});
    }
    const double source = double(traces.back()->rankCount());
    std::map<std::string, double> out;
    for (const auto& [site, p] : points) {
        if (p.size() < 2) {
            out[site] = 1.0;
            continue;
        }
        double mx = 0, my = 0;
        for (const auto& [x, y] : p) {
            mx += x;
            my += y;
        }
        mx /= double(p.size());
        my /= double(p.size());
        double sxy = 0, sxx = 0;
        for (const auto& [x, y] : p) {
            sxy += (x - mx) * (y - my);
            sxx += (x - mx) * (x - mx);
        }
        const double b = sxx > 0 ? std::clamp(sxy / sxx, -3.0, 3.0) : 0.0;
        out[site] = std::pow(double(target) / source, b);
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

} // namespace

TiledDraft tileLargestInput(const std::vector<const Trace*>& inputs, uint32_t target,
                            const ExtrapolationResult* timing, uint64_t maxEvents)
{
    TiledDraft out;
    std::vector<const Trace*> traces = inputs;
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
    const ProcessGrid sgrid(sdims), tgrid(tdims, (1u << tdims.size()) - 1);
    for (const Message& m : src.messages()) {
        if (!m.matched()) {
            out.refusal = "the " + std::to_string(ns) + "-rank run has unmatched messages";
            return out;
        }
        if (!worldLike(src, m.comm)) {
            out.refusal = "the " + std::to_string(ns) +
                          "-rank run sends on a communicator other than MPI_COMM_WORLD";
            return out;
        }
    }
    for (const CollectiveInstance& c : src.collectives())
        if (!worldLike(src, c.comm)) {
            out.refusal = "the " + std::to_string(ns) +
                          "-rank run has collectives on a communicator other than MPI_COMM_WORLD";
            return out;
        }

    // Source rank of every target rank; events of the draft.
    std::vector<uint32_t> sourceOf(target);
    for (uint32_t c = 0; c < target; ++c) {
        ProcessGrid::Coords k = tgrid.coords(c);
        for (size_t d = 0; d < sdims.size(); ++d)
            k[d] %= int64_t(sdims[d]);
        sourceOf[c] = uint32_t(sgrid.neighbour(0, k));
    }
    for (uint32_t c = 0; c < target; ++c)
        out.events += src.events(src.rank(RankId(sourceOf[c])).mainLocation).size();
    if (out.events > maxEvents) {
        out.refusal = "tiled, the trace would hold " + std::to_string(out.events) +
                      " events, more than the limit of " + std::to_string(maxEvents);
        return out;
    }

    // Per-rank time factors: delta sums in the order of the source ranks' sums.
    const IntervalTable table = computeIntervals(src);
    std::vector<double> factor(target, 1.0);
    if (timing && timing->predictedSums.quantiles.size() >= 2) {
        std::vector<double> have(target);
        for (uint32_t c = 0; c < target; ++c)
            have[c] = double(table.rankDeltaSums[sourceOf[c]]);
        factor = synth::rankSumFactors(have, timing->predictedSums.quantiles);
    }

    const std::map<std::string, double> sizeFactor = sizeFactors(traces, target);
    const std::vector<std::string> sites = sendSites(src);
    const std::vector<ProcessGrid::Coords> offsets = messageOffsets(src, sgrid, tdims);
    const auto partner = [&](uint32_t c, const ProcessGrid::Coords& off, int sign) {
        ProcessGrid::Coords o{};
        for (size_t d = 0; d < off.size(); ++d)
            o[d] = sign * off[d];
        return uint32_t(tgrid.neighbour(c, o));
    };

    TraceBuilder b;
    for (size_t i = 0; i < src.strings().size(); ++i)
        b.intern(src.str(StringId(uint32_t(i))));
    b.setClock(src.clock());
    for (const Region& r : src.regions())
        b.addRegion(r);
    const StringId thread = b.intern("Master thread");
    std::vector<RankId> members;
    for (uint32_t c = 0; c < target; ++c) {
        const RankId rank = b.addRank(b.intern("MPI Rank " + std::to_string(c)));
        b.addLocation(rank, thread, LocationType::CpuThread, c);
        members.push_back(rank);
    }
    const CommId world = b.addCommunicator(b.intern("MPI_COMM_WORLD"), std::move(members));
    b.setWorldCommunicator(world);

    std::unordered_map<uint64_t, uint32_t> memberAt; // (location, end event) -> member
    for (uint32_t i = 0; i < src.collectiveMembers().size(); ++i) {
        const CollectiveMember& m = src.collectiveMembers()[i];
        memberAt[(uint64_t(m.location.value) << 32) | m.endEvent] = i;
    }
    for (uint32_t c = 0; c < target; ++c) {
        const LocationId from = src.rank(RankId(sourceOf[c])).mainLocation;
        const LocationId loc(c);
        const EventStream& ev = src.events(from);
        b.reserveEvents(loc, ev.size());
        const double f = factor[c];
        const int64_t t0 = ev.size() ? ev.time(0) : 0;
        double t = double(t0);
        int64_t previous = t0;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            t += double(ev.time(i) - previous) * f;
            previous = ev.time(i);
            const auto at = int64_t(std::llround(t));
            const uint32_t ref = ev.ref(i);
            const auto bytesOf = [&](const Message& m) {
                const auto it = sizeFactor.find(sites[ref]);
                const double k = it == sizeFactor.end() ? 1.0 : it->second;
                return uint64_t(std::max<int64_t>(0, std::llround(double(m.bytes) * k)));
            };
            switch (ev.kind(i)) {
            case EventKind::Enter:
                b.enter(loc, at, RegionId(ref));
                break;
            case EventKind::Leave:
                b.leave(loc, at, RegionId(ref));
                break;
            case EventKind::MpiSend:
            case EventKind::MpiIsend: {
                const Message& m = src.message(MessageId(ref));
                const uint32_t to = partner(c, offsets[ref], 1);
                if (ev.kind(i) == EventKind::MpiSend)
                    b.send(loc, at, to, world, m.tag, bytesOf(m));
                else
                    b.isend(loc, at, to, world, m.tag, bytesOf(m), ref);
                break;
            }
            case EventKind::MpiRecv:
            case EventKind::MpiIrecv: {
                const Message& m = src.message(MessageId(ref));
                const uint32_t sender = partner(c, offsets[ref], -1);
                if (ev.kind(i) == EventKind::MpiRecv)
                    b.recv(loc, at, sender, world, m.tag, bytesOf(m));
                else
                    b.irecv(loc, at, sender, world, m.tag, bytesOf(m), ref);
                break;
            }
            case EventKind::MpiIsendComplete:
                b.isendComplete(loc, at, ref);
                break;
            case EventKind::MpiIrecvRequest:
                b.irecvRequest(loc, at, ref);
                break;
            case EventKind::MpiRequestTest:
                b.requestTest(loc, at, ref);
                break;
            case EventKind::MpiRequestCancelled:
                b.requestCancelled(loc, at, ref);
                break;
            case EventKind::MpiCollectiveBegin:
                b.collectiveBegin(loc, at);
                break;
            case EventKind::MpiCollectiveEnd: {
                const CollectiveInstance& ci = src.collective(CollectiveId(ref));
                const auto it = memberAt.find((uint64_t(from.value) << 32) | i);
                const CollectiveMember* m =
                    it == memberAt.end() ? nullptr : &src.collectiveMembers()[it->second];
                b.collectiveEnd(loc, at, ci.op, world, ci.root.valid() ? ci.root.value : kNoRoot,
                                m ? m->bytesSent : 0, m ? m->bytesReceived : 0);
                break;
            }
            case EventKind::Misc:
                break; // communicator records and the like: the draft defines MPI_COMM_WORLD only
            }
        }
    }
    out.draft = b.finish();
    out.placement = std::to_string(sdims.size()) + "-D grid " + dimsText(tdims) +
                    ", tiled by the " + std::to_string(ns) + "-rank run (" + dimsText(sdims) + ")";
    return out;
}

} // namespace rankscope::extrap
