#pragma once
// Wait states and their root causes by parallel replay (rankscope-mpi analyse), Scalasca's way:
// each process holds a block of ranks (a part of the trace), and the facts its wait rules read
// from partners on other processes are exchanged with MPI instead of read from the trace.
//
// Forward replay (waits):
// 1. Messages: every end of a message whose other end another process holds is sent, with the
//    Enter of its MPI call (and the send's time), to that process (model/waits/waitboundary);
//    each side pairs the ends by (communicator, sender, receiver, tag, k), the importer's rule.
// 2. Collectives: every member's arrival goes to the instance's owner process, which builds
//    the instance's summary with the desktop's CollectiveArrivals::addArrival in member order
//    and sends it back to every process holding a member.
// 3. Each process scans its ranks with the desktop's WaitScanner fed with those facts.
// 4. Direct or indirect: a wait whose cause is held elsewhere asks the cause's process
//    (causeWasIdle, the desktop's test).
// 5. Totals per process (addWaitTotals) gathered on rank 0 and merged (mergeWaitTotals).
// Backward replay (root causes, rootcause.h's H-CWP-DM): the hotspots come from the merged
// profile; each rank's hotspot intervals are cut at its synchronisation points by its own
// process (RootCauseCursor), the cause side's interval goes to the waiting rank's process, which
// charges the wait (splitWaitOverHotspots); costs are gathered on rank 0 and summed.
// Every step is the desktop's code on a part: the results are identical to it (integers bit for
// bit, shares from the same integers).

#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"

#include <mpi.h>
#include <vector>

namespace rankscope::mpi {

/// The part of the trace one process holds.
struct Part
{
    const Trace& trace;                ///< definitions whole, events of the held ranks only
    std::vector<uint32_t> blockStarts; ///< process p holds ranks [starts[p], starts[p + 1])
    int process = 0;

    uint32_t firstRank() const { return blockStarts[size_t(process)]; }
    uint32_t endRank() const { return blockStarts[size_t(process) + 1]; }
    bool holds(RankId r) const { return r.value >= firstRank() && r.value < endRank(); }
    int ownerOf(RankId r) const;
};

struct ParallelWaits
{
    /// This process's waits (its ranks', by rank then begin), call sites in `local.callSites`;
    /// the totals of `local` are this process's.
    WaitStateAnalysis local;
    /// Rank 0 only: the totals of the whole trace (no `waits`), as analyzeWaitStates gives them.
    WaitStateAnalysis merged;
};

/// Finds the wait states collectively (every process of `comm` calls it).
ParallelWaits findWaitStatesInParallel(const Part& part, const WaitStateOptions& options,
                                       MPI_Comm comm);

/// Charges the waits to hotspots collectively. `profile` is the merged profile (rank 0; others
/// may pass an empty one). The report is rank 0's; other processes get an empty one.
RootCauseReport findRootCausesInParallel(const Part& part, const ParallelWaits& waits,
                                         const Profile& profile, double hotspotThresholdPercent,
                                         MPI_Comm comm);

} // namespace rankscope::mpi
