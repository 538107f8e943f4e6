#pragma once
// Clock condition violations: events in an order no run can produce, so the clocks of the ranks
// disagreed (unsynchronised or drifting timers):
// - a matched message received (its MpiRecv/MpiIrecv event) before it was sent (its
//   MpiSend/MpiIsend event);
// - a collective instance that ends on one member before it begins on a member it depends on:
//   for MPI_Barrier and the N x N operations (MPI_Allreduce, MPI_Allgather(v), MPI_Alltoall(v/w),
//   MPI_Reduce_scatter(_block)) any member's end before any member's begin; for 1-to-N
//   (MPI_Bcast, MPI_Scatter(v)) a non-root's end before the root's begin; for N-to-1
//   (MPI_Reduce, MPI_Gather(v)) the root's end before a non-root's begin. MPI_Scan and
//   MPI_Exscan (a rank depends only on lower ranks), handle operations and incomplete instances
//   are not checked.
// The offset of a violation is how far the later event would have to move back to restore the
// order; the worst offset is the largest over all violations.

#include <cstdint>
#include <tuple>

namespace rankscope {

class Trace;

struct ClockViolations
{
    uint64_t messages = 0;    ///< messages received before they were sent
    uint64_t collectives = 0; ///< collective instances ending before they begin elsewhere
    int64_t worstOffsetNs = 0;

    uint64_t count() const { return messages + collectives; }
    bool operator==(const ClockViolations& o) const
    {
        return std::tie(messages, collectives, worstOffsetNs) ==
               std::tie(o.messages, o.collectives, o.worstOffsetNs);
    }
};

/// The clock condition violations of `trace`.
ClockViolations findClockViolations(const Trace& trace);

} // namespace rankscope
