#include "model/waits/waitcollectives.h"

#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"

namespace rankscope {

void CollectiveArrivals::addArrival(const CollectiveArrival& a)
{
    if (!last.rank.valid() || a.enter > last.enter) last = a;
    if (a.rank == root)
        rootArrival = a;
    else if (!lastNonRoot.rank.valid() || a.enter > lastNonRoot.enter)
        lastNonRoot = a;
}

CollectiveArrivals WaitCollectives::summarize(const Trace& trace, const WaitCallLocator& locator,
                                              CollectiveId id)
{
    const CollectiveInstance& ci = trace.collective(id);
    CollectiveArrivals s;
    s.op = ci.op;
    s.root = ci.root;
    s.complete = ci.complete;
    if (collectiveDependence(ci.op) == Kind::None || !ci.complete) return s;
    const auto& members = trace.collectiveMembers();
    for (uint32_t k = ci.firstMember; k < ci.firstMember + ci.memberCount; ++k) {
        const CollectiveMember& m = members[k];
        const uint32_t call = locator.enclosingCall(m.location, m.beginEvent);
        if (call == kNoEvent) continue;
        s.addArrival({trace.rankOf(m.location), call, trace.events(m.location).time(call)});
    }
    return s;
}

WaitCollectives::WaitCollectives(const Trace& trace, const WaitCallLocator& locator) : trace_(trace)
{
    for (const Region& r : trace.regions())
        barrierRegion_.push_back(r.role == RegionRole::Barrier ? 1 : 0);
    summaries_.reserve(trace.collectives().size());
    for (uint32_t c = 0; c < trace.collectives().size(); ++c)
        summaries_.push_back(summarize(trace, locator, CollectiveId(c)));
}

WaitCollectives::WaitCollectives(const Trace& trace, std::vector<CollectiveArrivals> summaries)
    : trace_(trace), summaries_(std::move(summaries))
{
    for (const Region& r : trace.regions())
        barrierRegion_.push_back(r.role == RegionRole::Barrier ? 1 : 0);
    summaries_.resize(trace.collectives().size());
}

bool WaitCollectives::consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                               WaitDependency& best) const
{
    // Both the begin and end events name the instance; one of them is enough.
    if (payload.kind != EventKind::MpiCollectiveEnd) return false;
    const CollectiveId id = payload.collective();
    if (!id.valid() || id.value >= summaries_.size()) return false;
    const CollectiveArrivals& s = summaries_[id.value];
    switch (collectiveDependence(s.op)) {
    case Kind::Barrier:
    case Kind::NxN: {
        if (!s.last.rank.valid()) return false;
        if (s.last.rank == rank) return true; // arrived last: synchronised without waiting
        // The enclosing region decides: a barrier region recorded with another operation code
        // is still a barrier.
        const bool barrier = s.op == CollectiveOp::Barrier || barrierRegion_[call.region.value];
        best.keepLatest({barrier ? WaitPattern::WaitAtBarrier : WaitPattern::WaitAtNxN, s.last.rank,
                         s.last.event, s.last.enter});
        return true;
    }
    case Kind::OneToN:
        if (!s.rootArrival.rank.valid()) return false;
        if (rank != s.root)
            best.keepLatest({WaitPattern::LateBroadcast, s.rootArrival.rank, s.rootArrival.event,
                             s.rootArrival.enter});
        return true;
    case Kind::NToOne:
        if (!s.lastNonRoot.rank.valid()) return false;
        if (rank == s.root)
            best.keepLatest({WaitPattern::EarlyReduce, s.lastNonRoot.rank, s.lastNonRoot.event,
                             s.lastNonRoot.enter});
        return true;
    case Kind::None:
        return false;
    }
    return false;
}

} // namespace rankscope
