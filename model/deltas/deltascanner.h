#pragma once
// Yields the delta times of one rank in order, in one pass over its events (ALGORITHMS.md §1).
//
// Only the span from the end of MPI_Init (or MPI_Init_thread) to the start of MPI_Finalize
// counts: the Init call is the first "earlier call", Finalize the last "later call". A rank that
// never calls MPI_Init starts at its first MPI call; one that never calls MPI_Finalize ends at
// its last. Histograms and other per-delta analyses build on this, as the interval table does.

#include "model/deltas/deltatime.h"
#include "model/matching/mpicallscanner.h"
#include "model/trace/ids.h"
#include "model/trace/mpilifecycle.h"

namespace rankscope {

class CallSiteResolver;
class Trace;

class DeltaScanner
{
public:
    /// Scans `rank`, naming call sites with `resolver`; `lifecycle` must be
    /// MpiLifecycle::of(trace).
    DeltaScanner(const Trace& trace, RankId rank, CallSiteResolver& resolver,
                 const MpiLifecycle& lifecycle);

    /// Moves to the next delta time; false at the end of the span.
    bool next(DeltaTime& delta);

    /// Events consumed so far, and in all (for progress reporting).
    size_t position() const { return calls_.position(); }
    size_t eventCount() const { return calls_.eventCount(); }

private:
    static bool callsInit(const Trace& trace, RankId rank, const MpiLifecycle& lifecycle);

    const MpiLifecycle& lifecycle_;
    MpiCallScanner calls_;
    CallRecord previous_;
    bool waitForInit_; // the rank calls MPI_Init: nothing counts before its end
    bool started_ = false;
    bool finished_ = false;
};

} // namespace rankscope
