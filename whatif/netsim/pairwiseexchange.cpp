#include "whatif/netsim/pairwiseexchange.h"

#include <algorithm>

namespace rankscope::netsim {

PairwiseExchange::PairwiseExchange(const CollectiveSchedule& schedule,
                                   const std::vector<uint32_t>& world, ImmediateModel& model,
                                   double sendOverheadNs, double recvOverheadNs,
                                   uint64_t eagerLimit)
    : schedule_(schedule), world_(world), model_(model), sendOverhead_(sendOverheadNs),
      recvOverhead_(recvOverheadNs), eagerLimit_(eagerLimit), ready_(schedule.members()),
      arrival_(schedule.members()), eager_(schedule.members())
{
}

void PairwiseExchange::round(uint32_t k, std::vector<double>& t)
{
    const uint32_t p = schedule_.members();
    // Each member posts its send, then its receive, when it starts the round (ReplayEngine::
    // collective): both at t + o_s.
    for (uint32_t v = 0; v < p; ++v)
        ready_[v] = t[v] + sendOverhead_;
    // An eager message leaves when posted; a rendezvous one when both ends have posted. Each
    // node's interface serves one member, so the order of the members does not matter.
    for (uint32_t v = 0; v < p; ++v) {
        const CollectiveStep s = schedule_.step(v, k);
        eager_[v] = s.sendBytes <= double(eagerLimit_);
        const double start = eager_[v] ? ready_[v] : std::max(ready_[v], ready_[s.sendTo]);
        arrival_[v] =
            model_.arrival(rankOf(v), rankOf(s.sendTo), uint64_t(s.sendBytes), s.placement, start);
    }
    // A member waits for its send (eager: done when posted; rendezvous: when the data has
    // arrived), then for its receive (o_r after both the data and the posted receive).
    for (uint32_t v = 0; v < p; ++v) {
        const uint32_t u = schedule_.step(v, k).recvFrom;
        const double sent = eager_[v] ? ready_[v] : arrival_[v];
        const double received = eager_[u] ? std::max(arrival_[u], ready_[v]) + recvOverhead_
                                          : arrival_[u] + recvOverhead_;
        t[v] = std::max(std::max(ready_[v], sent), received);
    }
}

} // namespace rankscope::netsim
