#pragma once
// What one member does in one round of a collective schedule.

#include "whatif/netsim/networkspec.h"

#include <cstdint>

namespace rankscope::netsim {

inline constexpr uint32_t kNoPeer = 0xFFFFFFFFu;

struct CollectiveStep
{
    uint32_t sendTo = kNoPeer; ///< member index, or kNoPeer
    double sendBytes = 0;
    uint32_t recvFrom = kNoPeer;
    /// The round in which `recvFrom` sent what is received now (kNoPeer: this round).
    uint32_t recvRound = kNoPeer;
    /// How the sent message picks its network on a hybrid machine (§9).
    Placement placement = Placement::Policy;
};

} // namespace rankscope::netsim
