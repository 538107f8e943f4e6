#pragma once
// A replay whose ranks wait for each other forever (ALGORITHMS.md §7.1), with where they wait.
//
// Design note: the engine knows only actions, messages and collectives; it names the first
// waiting rank, the MPI call it waits in (counted from the end of MPI_Init, as the replay
// starts there) and what it waits for, and follows the chain of waits from rank to rank until it
// closes or leaves the point-to-point messages. Callers that know where the trace came from (a
// synthesised trace's roles and partner rules) catch the type and say more.

#include "model/trace/traceerror.h"

#include <cstdint>
#include <string>

namespace rankscope::netsim {

class ReplayDeadlock : public TraceError
{
public:
    ReplayDeadlock(const std::string& what, uint32_t rank, uint64_t mpiCall)
        : TraceError(what), rank_(rank), mpiCall_(mpiCall)
    {
    }
    /// A rank that waits forever: the first one, or the first of its chain of waits that
    /// waits on a message (whose partner is the likelier fault).
    uint32_t rank() const { return rank_; }
    /// The MPI call it waits in: 1 for the first call after MPI_Init.
    uint64_t mpiCall() const { return mpiCall_; }

private:
    uint32_t rank_;
    uint64_t mpiCall_;
};

} // namespace rankscope::netsim
