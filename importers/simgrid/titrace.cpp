// A TI import as a Trace (tireader.h): the program replayed on an ideal network for its times,
// then written event by event.
//
// The ideal replay: computes take their time; a send is eager and costs nothing; a receive
// completes when its send was posted (at once when it has no sender); a collective completes
// when its last member entered it. Each rank runs until it must wait; the send or the last
// member that frees it puts it back on the ready list, so the replay is linear in the actions.

#include "importers/simgrid/tiimport.h"
#include "importers/simgrid/tireader.h"
#include "model/trace/partialmark.h"
#include "model/trace/tracebuilder.h"

#include <cmath>

namespace rankscope {

using namespace netsim;

namespace {

constexpr uint32_t kNobody = 0xFFFFFFFFu;

/// The time of every action under the ideal replay.
std::vector<double> idealTimes(const TiImport& in)
{
    const ActionProgram& p = in.program;
    const uint32_t n = p.rankCount();
    std::vector<double> at(p.actions.size(), 0.0);
    std::vector<double> sent(p.messages.size(), -1.0);
    std::vector<uint32_t> waiter(p.messages.size(), kNobody);
    std::vector<uint32_t> entered(p.collectives.size(), 0);
    std::vector<double> lastEntry(p.collectives.size(), 0.0);
    std::vector<size_t> pc(p.rankBegin.begin(), p.rankBegin.end() - 1);
    std::vector<double> now(n, 0.0);
    std::vector<uint8_t> inCollective(n, 0);
    std::vector<uint32_t> ready;
    for (uint32_t r = n; r-- > 0;)
        ready.push_back(r);
    while (!ready.empty()) {
        const uint32_t r = ready.back();
        ready.pop_back();
        double t = now[r];
        size_t i = pc[r];
        for (; i < p.rankBegin[r + 1]; ++i) {
            const Action& a = p.actions[i];
            if (a.kind == ActionKind::Compute) {
                t += a.value;
            } else if (a.kind == ActionKind::PostSend) {
                sent[a.ref] = t;
                if (waiter[a.ref] != kNobody) ready.push_back(waiter[a.ref]);
                waiter[a.ref] = kNobody;
            } else if (a.kind == ActionKind::WaitRecv && p.messages[a.ref].src != kNoRank) {
                if (sent[a.ref] < 0) {
                    waiter[a.ref] = r;
                    break;
                }
                t = std::max(t, sent[a.ref]);
            } else if (a.kind == ActionKind::Collective) {
                if (!inCollective[r]) {
                    inCollective[r] = 1;
                    lastEntry[a.ref] = std::max(lastEntry[a.ref], t);
                    if (++entered[a.ref] < n) break;
                    // The last member: every other one waits at this collective.
                    for (uint32_t q = 0; q < n; ++q)
                        if (q != r) ready.push_back(q);
                }
                inCollective[r] = 0;
                t = lastEntry[a.ref];
            }
            at[i] = t;
        }
        now[r] = t;
        pc[r] = i;
    }
    for (uint32_t r = 0; r < n; ++r) {
        if (!(now[r] < 4.6e18)) // 2^62 ns, as the replay's limit
            throw TraceError(in.listPath + ": rank " + std::to_string(r) +
                             "'s computes add up to more than 2^62 ns");
        if (pc[r] == p.rankBegin[r + 1]) continue;
        const Action& a = p.actions[pc[r]];
        if (a.kind == ActionKind::Collective)
            throw TraceError(in.listPath + ": the ranks wait for each other forever: rank " +
                             std::to_string(r) + " waits in collective " +
                             std::to_string(a.ref + 1) + " for ranks that wait for messages");
        throw TraceError(in.listPath + ": the ranks wait for each other forever: rank " +
                         std::to_string(r) + " waits for a message from rank " +
                         std::to_string(p.messages[a.ref].src) + " (tag " +
                         std::to_string(in.tags[a.ref]) + ") that is never sent");
    }
    return at;
}

RegionRole roleOf(TiCall c)
{
    switch (c) {
    case TiCall::Send:
    case TiCall::Isend:
    case TiCall::Recv:
    case TiCall::Irecv:
        return RegionRole::MpiPointToPoint;
    case TiCall::Barrier:
        return RegionRole::Barrier;
    case TiCall::Init:
    case TiCall::Finalize:
    case TiCall::Wait:
    case TiCall::Waitall:
    case TiCall::Test:
    case TiCall::Count:
        return RegionRole::MpiOther;
    default:
        return RegionRole::MpiCollective;
    }
}

CollectiveOp opOf(TiCall c)
{
    switch (c) {
    case TiCall::Barrier:
        return CollectiveOp::Barrier;
    case TiCall::Bcast:
        return CollectiveOp::Bcast;
    case TiCall::Reduce:
        return CollectiveOp::Reduce;
    case TiCall::Allreduce:
        return CollectiveOp::Allreduce;
    case TiCall::Allgather:
        return CollectiveOp::Allgather;
    case TiCall::Gather:
        return CollectiveOp::Gather;
    case TiCall::Scatter:
        return CollectiveOp::Scatter;
    case TiCall::Alltoall:
        return CollectiveOp::Alltoall;
    case TiCall::ReduceScatter:
        return CollectiveOp::ReduceScatter;
    case TiCall::Alltoallv:
        return CollectiveOp::Alltoallv;
    case TiCall::Gatherv:
        return CollectiveOp::Gatherv;
    case TiCall::Allgatherv:
        return CollectiveOp::Allgatherv;
    case TiCall::Scatterv:
        return CollectiveOp::Scatterv;
    default:
        return CollectiveOp::Other;
    }
}

/// What member r of `c` sends and receives (M is the whole operation: tiimport.h).
std::pair<uint64_t, uint64_t> memberBytes(CollKind kind, uint64_t m, uint32_t n, bool root)
{
    const uint64_t share = n ? m / n : 0;
    switch (kind) {
    case CollKind::Bcast:
        return {root ? m : 0, root ? 0 : m};
    case CollKind::Reduce:
        return {m, root ? m : 0};
    case CollKind::Allreduce:
    case CollKind::Alltoall:
        return {m, m};
    case CollKind::Allgather:
        return {share, m};
    case CollKind::Gather:
        return {share, root ? m : 0};
    case CollKind::Scatter:
        return {root ? m : 0, share};
    case CollKind::ReduceScatter:
        return {m, share};
    default:
        return {0, 0};
    }
}

} // namespace

Trace tiTrace(const TiImport& in, const TiReadOptions& options)
{
    const ActionProgram& p = in.program;
    const std::vector<double> at = idealTimes(in);
    const uint32_t n = p.rankCount();

    TraceBuilder b;
    b.setClock(ClockProperties{});
    Provenance provenance;
    provenance.kind = "simulated";
    provenance.source = in.listPath;
    provenance.parameters =
        "SimGrid time-independent trace; times of a replay on an ideal network (no latency, "
        "overhead or bandwidth limit), compute at " +
        std::to_string(options.flopsPerSecond / 1e9) + " Gflop/s";
    b.setProvenance(std::move(provenance));
    std::vector<RegionId> regions;
    for (size_t c = 0; c < size_t(TiCall::Count); ++c)
        regions.push_back(b.addRegion(Region{b.intern(tiCallName(TiCall(c))), roleOf(TiCall(c)),
                                             Paradigm::Mpi, StringId(), 0}));
    std::vector<RankId> members;
    std::vector<LocationId> locations;
    for (uint32_t r = 0; r < n; ++r) {
        const StringId name = b.intern("rank " + std::to_string(r));
        members.push_back(b.addRank(name));
        locations.push_back(b.addLocation(members.back(), name, LocationType::CpuThread, r));
    }
    const CommId world = b.addCommunicator(b.intern("MPI_COMM_WORLD"), members);
    b.setWorldCommunicator(world);

    for (uint32_t r = 0; r < n; ++r) {
        const LocationId loc = locations[r];
        b.reserveEvents(loc, p.rankBegin[r + 1] - p.rankBegin[r]);
        TiCall call = TiCall::Init;
        for (size_t i = p.rankBegin[r]; i < p.rankBegin[r + 1]; ++i) {
            const Action& a = p.actions[i];
            const int64_t t = std::llround(at[i]);
            const uint32_t m = a.ref;
            switch (a.kind) {
            case ActionKind::Compute:
                break;
            case ActionKind::Enter:
                call = TiCall(a.ref);
                b.enter(loc, t, regions[a.ref]);
                if (opOf(call) != CollectiveOp::Other) b.collectiveBegin(loc, t);
                break;
            case ActionKind::Leave:
                b.leave(loc, t, regions[size_t(call)]);
                break;
            case ActionKind::PostSend:
                if (in.blocking[m] & 1)
                    b.send(loc, t, in.ends[m].second, world, in.tags[m], p.messages[m].bytes);
                else
                    b.isend(loc, t, in.ends[m].second, world, in.tags[m], p.messages[m].bytes,
                            2 * uint64_t(m));
                break;
            case ActionKind::PostRecv:
                if (!(in.blocking[m] & 2)) b.irecvRequest(loc, t, 2 * uint64_t(m) + 1);
                break;
            case ActionKind::WaitSend:
                if (!(in.blocking[m] & 1)) b.isendComplete(loc, t, 2 * uint64_t(m));
                break;
            case ActionKind::WaitRecv:
                if (in.blocking[m] & 2)
                    b.recv(loc, t, in.ends[m].first, world, in.tags[m], p.messages[m].bytes);
                else
                    b.irecv(loc, t, in.ends[m].first, world, in.tags[m], p.messages[m].bytes,
                            2 * uint64_t(m) + 1);
                break;
            case ActionKind::Collective: {
                const ProgramCollective& c = p.collectives[m];
                const bool root = c.root == r;
                const auto [sent, received] = memberBytes(c.kind, c.bytes, n, root);
                const bool rooted = c.kind == CollKind::Bcast || c.kind == CollKind::Reduce ||
                                    c.kind == CollKind::Gather || c.kind == CollKind::Scatter;
                b.collectiveEnd(loc, t, opOf(call), world, rooted ? c.root : kNoRoot, sent,
                                received);
                break;
            }
            }
        }
    }
    for (const std::string& w : in.warnings)
        b.addWarning(w);
    if (!in.partialMark.empty()) {
        b.setPartial(true);
        b.addWarning(partialMarkWarning(in.partialMarkWhere, in.partialMark));
    }
    return b.finish();
}

Trace readTi(const std::string& path, const TiReadOptions& options)
{
    return tiTrace(readTiProgram(path, options), options);
}

} // namespace rankscope
