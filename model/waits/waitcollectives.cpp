#include "model/waits/waitcollectives.h"

#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"

namespace rankscope {

WaitCollectives::WaitCollectives(const Trace& trace, const WaitCallLocator& locator) : trace_(trace)
{
    for (const Region& r : trace.regions())
        barrierRegion_.push_back(r.role == RegionRole::Barrier ? 1 : 0);

    const auto& instances = trace.collectives();
    const auto& members = trace.collectiveMembers();
    summaries_.resize(instances.size());
    for (size_t c = 0; c < instances.size(); ++c) {
        const CollectiveInstance& ci = instances[c];
        if (collectiveDependence(ci.op) == Kind::None || !ci.complete) continue;
        Summary& s = summaries_[c];
        for (uint32_t k = ci.firstMember; k < ci.firstMember + ci.memberCount; ++k) {
            const CollectiveMember& m = members[k];
            const uint32_t call = locator.enclosingCall(m.location, m.beginEvent);
            if (call == kNoEvent) continue;
            const Arrival a{trace.rankOf(m.location), call, trace.events(m.location).time(call)};
            // Ties go to the first member seen, so the cause is deterministic.
            if (!s.last.rank.valid() || a.enter > s.last.enter) s.last = a;
            if (a.rank == ci.root)
                s.root = a;
            else if (!s.lastNonRoot.rank.valid() || a.enter > s.lastNonRoot.enter)
                s.lastNonRoot = a;
        }
    }
}

bool WaitCollectives::consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                               WaitDependency& best) const
{
    // Both the begin and end events name the instance; one of them is enough.
    if (payload.kind != EventKind::MpiCollectiveEnd) return false;
    const CollectiveId id = payload.collective();
    if (!id.valid()) return false;
    const CollectiveInstance& ci = trace_.collective(id);
    const Summary& s = summaries_[id.value];
    switch (collectiveDependence(ci.op)) {
    case Kind::Barrier:
    case Kind::NxN: {
        if (!s.last.rank.valid()) return false;
        if (s.last.rank == rank) return true; // arrived last: synchronised without waiting
        // The enclosing region decides: a barrier region recorded with another operation code
        // is still a barrier.
        const bool barrier = ci.op == CollectiveOp::Barrier || barrierRegion_[call.region.value];
        best.keepLatest({barrier ? WaitPattern::WaitAtBarrier : WaitPattern::WaitAtNxN, s.last.rank,
                         s.last.event, s.last.enter});
        return true;
    }
    case Kind::OneToN:
        if (!s.root.rank.valid()) return false;
        if (rank != ci.root)
            best.keepLatest({WaitPattern::LateBroadcast, s.root.rank, s.root.event, s.root.enter});
        return true;
    case Kind::NToOne:
        if (!s.lastNonRoot.rank.valid()) return false;
        if (rank == ci.root)
            best.keepLatest({WaitPattern::EarlyReduce, s.lastNonRoot.rank, s.lastNonRoot.event,
                             s.lastNonRoot.enter});
        return true;
    case Kind::None:
        return false;
    }
    return false;
}

} // namespace rankscope
