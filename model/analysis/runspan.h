#pragma once
// The span over which measured and replayed run times are compared (ARCHITECTURE.md,
// "Comparing measured and predicted runs"): from the last rank's exit from MPI_Init to the end of
// MPI_Finalize. The replay treats MPI_Init as a synchronisation (all ranks leave it together),
// so what came before it, and how far apart the ranks left it, is not part of the comparison.
//
// MPI_Finalize is not replayed either: the replay keeps its measured cost (last entry to last
// exit) after the last rank entered it.
// Rules: a rank's Init is its first outermost MPI call named MPI_Init or MPI_Init_thread; its
// Finalize the first MPI_Finalize after that. A trace where no rank calls MPI_Init is compared
// from its first event; a rank without MPI_Finalize ends at its last event.

#include "model/trace/ids.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;
struct MpiLifecycle;

/// One rank's part of the span, measured.
struct RankSpan
{
    int64_t firstEventNs = 0;     ///< the rank's first event
    int64_t initEndNs = -1;       ///< leave of its MPI_Init; -1 when it has none
    int64_t finalizeEnterNs = -1; ///< enter of its MPI_Finalize; -1 when it has none
    int64_t endNs = 0;            ///< leave of its MPI_Finalize, or its last event
    bool finalized = false;       ///< endNs is the end of MPI_Finalize
    int64_t mpiNs = 0;      ///< time in MPI calls after MPI_Init, up to endNs (Finalize included)
    bool hasEvents = false; ///< the rank has events (else every other field keeps its default)
    bool operator==(const RankSpan&) const = default;
};

struct RunSpan
{
    int64_t traceStartNs = 0; ///< the trace's first event
    int64_t traceEndNs = 0;   ///< its last event
    int64_t startNs = 0;      ///< where the span begins (the last rank's end of MPI_Init)
    int64_t endNs = 0;        ///< where it ends (the last rank's end of MPI_Finalize)
    bool fromInit = false;    ///< the span starts at the end of MPI_Init (else at the first event)
    bool toFinalize = false;  ///< every rank ends at the end of MPI_Finalize
    /// MPI_Finalize from the last rank's entry to the last exit (when toFinalize): what it
    /// costs besides waiting. The replay does not model it and keeps this measured cost.
    int64_t finalizeCostNs = 0;
    std::vector<RankSpan> ranks;

    int64_t duration() const { return endNs - startNs; }
    /// Time outside the span: before its start plus after its end.
    int64_t outsideNs() const { return (startNs - traceStartNs) + (traceEndNs - endNs); }
    /// The span's name in JSON and reports ("mpi_init_end_to_finalize_end", ...).
    std::string name() const;
    bool operator==(const RunSpan&) const = default;
};

/// The measured span of `trace` (one pass over each rank's MPI calls): rankSpan for every
/// rank, combined by combineRankSpans.
RunSpan runSpan(const Trace& trace);
/// One rank's part (one pass over its MPI calls); `life` must be MpiLifecycle::of(trace). Needs
/// only that rank's events, so a process holding some ranks of a trace computes theirs.
RankSpan rankSpan(const Trace& trace, const MpiLifecycle& life, RankId rank);
/// The span from every rank's part, `ranks[r]` being rank r's.
RunSpan combineRankSpans(std::vector<RankSpan> ranks);

} // namespace rankscope
