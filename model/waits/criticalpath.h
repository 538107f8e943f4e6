#pragma once
// Critical path (Scalasca's and CASITA's): the chain of computation and communication that
// determines the run time, found by a backward replay over the wait states, which come from the
// matched messages and collectives (model/waits/waitstates.h).
//
// Replay: start on the rank whose main location ends last, at its last timestamp t. On the
// current rank r, find the last wait state of r that ends at or before t. The span from its end
// to t is critical on r (r did its own work there, not waiting for anyone). At the end of that
// wait r was released by its cause q entering the call r depended on, so the path jumps to q at
// that time and repeats. When r has no earlier wait, the span from r's first event to t closes
// the path. The pieces are contiguous in time, so the path length is the time from the start of
// the path to the end of the run, and the waiting parts of calls are never on it.
//
// Each piece is split where the innermost open region of its rank changes, giving segments with
// one region each. Per function: its time on the path, its mean exclusive time over all ranks,
// and the critical-path imbalance, max(0, path time - mean time) (Scalasca's critical-path
// profile: time on the path that the average rank does not spend in that function).

#include "model/support/progressreporter.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;
struct WaitStateAnalysis;

/// One stretch of the critical path: one rank inside one innermost region.
struct CriticalSegment
{
    RankId rank;
    int64_t begin = 0; ///< ns
    int64_t end = 0;
    RegionId region; ///< the innermost open region; invalid outside every region

    int64_t duration() const { return end - begin; }
    bool operator==(const CriticalSegment& o) const
    {
        return std::tie(rank, begin, end, region) == std::tie(o.rank, o.begin, o.end, o.region);
    }
};

/// One function in the critical-path profile.
struct CriticalFunction
{
    RegionId region;
    int64_t pathNs = 0;      ///< time on the critical path (exclusive)
    double meanNs = 0.0;     ///< exclusive time per rank, mean over all ranks
    int64_t imbalanceNs = 0; ///< max(0, pathNs - meanNs), rounded to ns

    bool operator==(const CriticalFunction& o) const
    {
        return std::tie(region, pathNs, meanNs, imbalanceNs) ==
               std::tie(o.region, o.pathNs, o.meanNs, o.imbalanceNs);
    }
};

struct CriticalPath
{
    int64_t lengthNs = 0;
    std::vector<CriticalSegment> segments;    ///< in time order, contiguous
    std::vector<CriticalFunction> byFunction; ///< by descending pathNs (ties by RegionId)
    std::vector<int64_t> byRank;              ///< time on the path per rank, indexed by RankId
    bool cancelled = false;

    bool operator==(const CriticalPath& o) const
    {
        return std::tie(lengthNs, segments, byFunction, byRank, cancelled) ==
               std::tie(o.lengthNs, o.segments, o.byFunction, o.byRank, o.cancelled);
    }
};

/// The critical path of `trace`, replayed over the wait states `waits` of the same trace.
/// `progress` sees the region pass over all ranks and may cancel it.
CriticalPath computeCriticalPath(const Trace& trace, const WaitStateAnalysis& waits,
                                 const ProgressCallback& progress = {});

} // namespace rankscope
