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
// WaitCallLocator) and keeps only the latest ones (CollectiveArrivals), so a member's lookup is
// O(1) whatever the communicator size; memory is one small summary per instance. A process of
// rankscope-mpi holds some members of an instance only: it builds the same summaries from the
// arrivals of every member, exchanged (app/mpi/parallelwaits), with the same `addArrival`, and
// hands them in instead.

#include "model/matching/collectivedependence.h"
#include "model/trace/callrecord.h"
#include "model/trace/definitions.h"
#include "model/waits/waitdependency.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class Trace;
class WaitCallLocator;

/// One member's arrival at a collective: the Enter of its call.
struct CollectiveArrival
{
    RankId rank;
    uint32_t event = kNoEvent; ///< Enter of the member's MPI call
    int64_t enter = 0;
};

/// What the wait analysis needs of one collective instance.
struct CollectiveArrivals
{
    CollectiveOp op = CollectiveOp::Other; ///< of the instance (its first member's)
    RankId root;                           ///< of the instance (its first member's)
    bool complete = false;                 ///< every member rank took part
    CollectiveArrival last;                ///< the last member to enter
    CollectiveArrival rootArrival;         ///< the root's arrival (1-to-N, N-to-1)
    CollectiveArrival lastNonRoot;         ///< the last non-root member to enter (N-to-1)

    /// Adds a member's arrival; members must come in the instance's member order (ties go to
    /// the first member seen, so the cause is deterministic).
    void addArrival(const CollectiveArrival& a);
};

class WaitCollectives
{
public:
    /// Summaries from the trace's collective table.
    WaitCollectives(const Trace& trace, const WaitCallLocator& locator);
    /// Summaries given per CollectiveId of `trace` (a process holding part of the members).
    WaitCollectives(const Trace& trace, std::vector<CollectiveArrivals> summaries);

    /// Adds the dependency of `payload` (a collective event of `call` on `rank`) to `best`;
    /// true when the call synchronises with other ranks (also when `rank` arrived last).
    bool consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                  WaitDependency& best) const;

    /// The summary of one instance of `trace` from its members there (the desktop's case).
    static CollectiveArrivals summarize(const Trace& trace, const WaitCallLocator& locator,
                                        CollectiveId id);

private:
    using Kind = CollectiveDependence;

    const Trace& trace_;
    std::vector<CollectiveArrivals> summaries_; // per CollectiveId
    std::vector<uint8_t> barrierRegion_;        // per region: role Barrier
};

} // namespace rankscope
