#pragma once
// Execution intervals and per-rank delta sums (ALGORITHMS.md §1).
//
// Each rank is analysed on its own (computeRankIntervals: one pass, its own call-site table,
// memory growing with its distinct intervals) and the results are merged in rank order
// (mergeRankIntervals), so ranks can run in parallel and the result does not depend on it.

#include "model/deltas/deltastats.h"
#include "model/support/progressreporter.h"
#include "model/trace/callsites.h"
#include "model/trace/ids.h"

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

/// One rank's share of an execution interval.
struct IntervalRankStats
{
    RankId rank;
    DeltaStats stats;
    bool operator==(const IntervalRankStats& o) const
    {
        return std::tie(rank, stats) == std::tie(o.rank, o.stats);
    }
};

/// An execution interval (call site of the earlier call, call site of the later one).
struct ExecutionInterval
{
    CallSiteId from;
    CallSiteId to;
    DeltaStats stats;                       ///< over all ranks and occurrences
    std::vector<IntervalRankStats> perRank; ///< ranks where it occurs, ascending

    bool operator==(const ExecutionInterval& o) const
    {
        return std::tie(from, to, stats, perRank) == std::tie(o.from, o.to, o.stats, o.perRank);
    }
};

/// The delta times of one rank, grouped by interval; call-site ids local to `callSites`.
struct RankIntervals
{
    struct Interval
    {
        CallSiteId from;
        CallSiteId to;
        DeltaStats stats;
        bool operator==(const Interval& o) const
        {
            return std::tie(from, to, stats) == std::tie(o.from, o.to, o.stats);
        }
    };

    RankId rank;
    CallSiteTable callSites;
    std::vector<Interval> intervals; ///< in order of first occurrence
    int64_t deltaSum = 0;            ///< S(r), ns
    bool cancelled = false;          ///< stopped early: the numbers cover part of the rank

    bool operator==(const RankIntervals& o) const
    {
        return std::tie(rank, callSites, intervals, deltaSum, cancelled) ==
               std::tie(o.rank, o.callSites, o.intervals, o.deltaSum, o.cancelled);
    }
};

/// Execution intervals of a whole trace, and the per-rank delta sums S(r).
struct IntervalTable
{
    CallSiteTable callSites;
    std::vector<ExecutionInterval> intervals; ///< sorted by printed name
    std::vector<int64_t> rankDeltaSums;       ///< S(r) indexed by rank, ns
    bool cancelled = false; ///< stopped early: the numbers cover part of the trace

    /// The printed name `A - B` of an interval.
    std::string name(const ExecutionInterval& interval) const;
    /// The interval between the named call sites, or null.
    const ExecutionInterval* find(std::string_view from, std::string_view to) const;
    /// max_r S(r), ns (0 without ranks).
    int64_t maxRankDeltaSum() const;
    /// A rank reaching max_r S(r) (the lowest), invalid without ranks.
    RankId maxRankDeltaSumRank() const;

    bool operator==(const IntervalTable& o) const
    {
        return std::tie(callSites, intervals, rankDeltaSums, cancelled) ==
               std::tie(o.callSites, o.intervals, o.rankDeltaSums, o.cancelled);
    }
};

/// Delta times of one rank; `progress` sees the fraction of that rank's events done.
RankIntervals computeRankIntervals(const Trace& trace, RankId rank,
                                   const ProgressCallback& progress = {});
/// Merges per-rank results (any order) into one table for a trace of `rankCount` ranks.
IntervalTable mergeRankIntervals(size_t rankCount, const std::vector<RankIntervals>& ranks);
/// Execution intervals of every rank of `trace`; `progress` may cancel.
IntervalTable computeIntervals(const Trace& trace, const ProgressCallback& progress = {});

} // namespace rankscope
