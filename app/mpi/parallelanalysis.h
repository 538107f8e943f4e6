#pragma once
// The MPI-parallel analysis of one OTF2 trace (rankscope-mpi analyse). Each process of the
// communicator reads the definitions and the events of a contiguous block of ranks
// (rankBlockStarts over the event counts the definitions give, so every process computes the
// same blocks without asking), runs the desktop's per-rank analyses on its ranks
// (computeRankProfile, computeRankIntervals, rankSpan) and sends the results to rank 0, which
// merges them with the desktop's merge functions (mergeRankProfiles, mergeRankIntervals,
// combineRankSpans). The desktop's computeProfile / computeIntervals are the one-process case.

#include "model/analysis/rankshare.h"
#include "model/deltas/intervals.h"
#include "model/profile/profile.h"
#include "model/trace/trace.h"

#include <mpi.h>
#include <string>
#include <vector>

namespace rankscope::mpi {

/// Wall-clock seconds of the phases on one process.
struct PhaseTimes
{
    double read = 0;          ///< definitions and this process's events
    double analysis = 0;      ///< the per-rank analyses of its ranks
    double communication = 0; ///< sending the results to rank 0 (waiting for others included)
    double merge = 0;         ///< rank 0: decoding and merging
};

struct ParallelResult
{
    /// The definitions and this process's ranks' events (the other ranks' columns are empty).
    Trace trace;
    uint32_t firstRank = 0; ///< this process's ranks: [firstRank, endRank)
    uint32_t endRank = 0;
    std::vector<uint32_t> blockStarts; ///< process p holds ranks [starts[p], starts[p + 1])
    uint64_t events = 0;               ///< events this process read
    /// Rank 0 only: every rank's profile, intervals and span, in rank order (what the merges
    /// below were fed; a result summary stores them).
    std::vector<RankShare> shares;
    /// Rank 0 only: the merged results, equal to the desktop's for the whole trace.
    Profile profile;
    IntervalTable intervals;
    PhaseTimes times;
};

/// Runs the analysis collectively over `comm` (every process must call it). Throws TraceError
/// for a trace that cannot be read; the caller must then abort the communicator, as the other
/// processes may be waiting in a collective.
ParallelResult analyseInParallel(const std::string& path, MPI_Comm comm);

} // namespace rankscope::mpi
