#pragma once
// What one member does in one round of a collective schedule.

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
};

} // namespace rankscope::netsim
