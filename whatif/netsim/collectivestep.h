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
    /// The sender goes on without waiting for this send (an MPI_Isend the library completes
    /// later), so a rendezvous transfer's wait for its data to arrive overlaps the next rounds,
    /// as MPI libraries pipeline the pieces of a segmented collective.
    bool detached = false;
};

} // namespace rankscope::netsim
