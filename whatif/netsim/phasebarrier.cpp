#include "whatif/netsim/phasebarrier.h"

#include <algorithm>

namespace rankscope::netsim {

bool PhaseBarrier::arrive(uint32_t instance, uint32_t round, uint32_t members, uint32_t rank,
                          double time, std::vector<uint32_t>& released, double& at)
{
    released.clear();
    const uint64_t key = (uint64_t(instance) << 32) | round;
    Waiting& w = open_[key];
    w.latest = w.arrived ? std::max(w.latest, time) : time;
    if (++w.arrived < members) {
        w.ranks.push_back(rank);
        return false;
    }
    at = w.latest;
    released.swap(w.ranks);
    open_.erase(key);
    return true;
}

} // namespace rankscope::netsim
