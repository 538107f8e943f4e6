#include "model/matching/clockviolations.h"

#include "model/matching/collectivedependence.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <limits>

namespace rankscope {

namespace {

/// Scans are not checked: a rank's result there depends on the ranks before it only.
CollectiveDependence dependenceOf(CollectiveOp op)
{
    if (op == CollectiveOp::Scan || op == CollectiveOp::Exscan) return CollectiveDependence::None;
    return collectiveDependence(op);
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
        const CollectiveDependence dep = dependenceOf(ci.op);
        if (dep == CollectiveDependence::None || !ci.complete) continue;
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
        if (dep == CollectiveDependence::NxN || dep == CollectiveDependence::Barrier)
            offset = overlapMissing(std::max(rootBegin, otherBegin), std::min(rootEnd, otherEnd));
        else if (dep == CollectiveDependence::OneToN)
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
