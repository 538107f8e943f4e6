#include "model/matching/clockviolations.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <limits>

namespace rankscope {

namespace {

enum class Dependence : uint8_t
{
    None,
    All,    // every member depends on every other
    OneToN, // non-roots depend on the root
    NToOne, // the root depends on the non-roots
};

Dependence dependenceOf(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::Barrier:
    case CollectiveOp::Allreduce:
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
        return Dependence::All;
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        return Dependence::OneToN;
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
        return Dependence::NToOne;
    default:
        return Dependence::None;
    }
}

constexpr int64_t kNever = std::numeric_limits<int64_t>::min();
constexpr int64_t kAlways = std::numeric_limits<int64_t>::max();

/// How far `end` precedes `begin` (0 when it does not); a missing side counts as no violation.
int64_t overlapMissing(int64_t begin, int64_t end)
{
    if (begin == kNever || end == kAlways) return 0;
    return std::max<int64_t>(0, begin - end);
}

} // namespace

ClockViolations findClockViolations(const Trace& trace)
{
    ClockViolations v;
    for (const Message& m : trace.messages()) {
        if (!m.matched()) continue;
        const int64_t sent = trace.events(m.sendLocation).time(m.sendEvent);
        const int64_t received = trace.events(m.recvLocation).time(m.recvEvent);
        if (received >= sent) continue;
        ++v.messages;
        v.worstOffsetNs = std::max(v.worstOffsetNs, sent - received);
    }

    const std::vector<CollectiveMember>& members = trace.collectiveMembers();
    for (const CollectiveInstance& ci : trace.collectives()) {
        const Dependence dep = dependenceOf(ci.op);
        if (dep == Dependence::None || !ci.complete) continue;
        // Latest begin and earliest end, of the root and of the other members.
        int64_t rootBegin = kNever, rootEnd = kAlways, otherBegin = kNever, otherEnd = kAlways;
        for (uint32_t k = ci.firstMember; k < ci.firstMember + ci.memberCount; ++k) {
            const CollectiveMember& mem = members[k];
            const EventStream& events = trace.events(mem.location);
            const bool root = trace.rankOf(mem.location) == ci.root;
            int64_t& begin = root ? rootBegin : otherBegin;
            int64_t& end = root ? rootEnd : otherEnd;
            begin = std::max(begin, events.time(mem.beginEvent));
            end = std::min(end, events.time(mem.endEvent));
        }
        int64_t offset = 0;
        if (dep == Dependence::All)
            offset = overlapMissing(std::max(rootBegin, otherBegin), std::min(rootEnd, otherEnd));
        else if (dep == Dependence::OneToN)
            offset = overlapMissing(rootBegin, otherEnd);
        else
            offset = overlapMissing(otherBegin, rootEnd);
        if (offset == 0) continue;
        ++v.collectives;
        v.worstOffsetNs = std::max(v.worstOffsetNs, offset);
    }
    return v;
}

} // namespace rankscope
