#pragma once
// Collective dependencies of one MPI call (ALGORITHMS.md §6.2, names and operation lists as in
// Scalasca's pattern reference, scout_patterns):
// - Wait at Barrier (MPI_Barrier) and Wait at N x N (MPI_Allreduce, MPI_Allgather(v),
//   MPI_Alltoall(v/w), MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan): "no process can finish
//   the operation until the last process has started it", so every member depends on the last
//   member to enter.
// - Late Broadcast (1-to-N: MPI_Bcast, MPI_Scatter(v)): a non-root member depends on the root.
// - Early Reduce (N-to-1: MPI_Reduce, MPI_Gather(v)): the root depends on the last non-root.
// Handle and window operations (CreateHandle, DestroyHandle, Allocate...: MPI_Init,
// MPI_Comm_split, MPI_Comm_dup, MPI_Win_create) are skipped: Scalasca has no wait pattern for
// them and their synchronisation is an implementation detail. Incomplete instances (members
// missing from a partial trace) are skipped too: the last member to enter is unknown.
//
// Design note: one pass over the collective table finds each instance's member Enters (through
// WaitCallLocator) and keeps only the latest ones, so a member's lookup is O(1) whatever the
// communicator size; memory is one small summary per instance.

#include "model/matching/collectivedependence.h"
#include "model/trace/callrecord.h"
#include "model/trace/definitions.h"
#include "model/waits/waitdependency.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class Trace;
class WaitCallLocator;

class WaitCollectives
{
public:
    WaitCollectives(const Trace& trace, const WaitCallLocator& locator);

    /// Adds the dependency of `payload` (a collective event of `call` on `rank`) to `best`;
    /// true when the call synchronises with other ranks (also when `rank` arrived last).
    bool consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                  WaitDependency& best) const;

private:
    using Kind = CollectiveDependence;
    struct Arrival
    {
        RankId rank;
        uint32_t event = kNoEvent;
        int64_t enter = 0;
    };
    struct Summary
    {
        Arrival last;        ///< the last member to enter
        Arrival root;        ///< the root's arrival (1-to-N, N-to-1)
        Arrival lastNonRoot; ///< the last non-root member to enter (N-to-1)
    };

    const Trace& trace_;
    std::vector<Summary> summaries_;     // per CollectiveId
    std::vector<uint8_t> barrierRegion_; // per region: role Barrier
};

} // namespace rankscope
