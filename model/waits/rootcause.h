#pragma once
// Root causes of wait states: the hotspot-based diagnosis model H-CWP-DM (ALGORITHMS.md §6.4).
//
// For each wait w(p, i) caused by rank q, the hotspot functions that ran longer on q than on p in
// the synchronisation interval before the wait are charged the waiting time, in proportion to
// their excess:
//     t(r, c)    = exclusive time of hotspot c on rank r in r's interval
//     sigma(q,c) = max(0, t(q, c) - t(p, c))
//     cost(q,c)  = sigma(q, c) / sum_f sigma(q, f) * w      (nothing when the sum is 0)
//
// Choices the design leaves open:
// - Hotspot candidates are non-MPI regions only. The model explains waiting by the computation
//   that made a rank late (as Scalasca's root-cause analysis does); MPI time is mostly the waiting
//   being explained. Because t uses *exclusive* time and MPI calls are separate regions, the time
//   of c "minus the waiting inside c" is exactly c's exclusive time.
//   The threshold is relative to the total exclusive time of all regions (MPI included), i.e. the
//   time covered by the ranks' top-level regions: c is a hotspot when excl(c) >= h% of it.
// - Synchronisation points are the MPI calls the wait analysis names: on the waiting rank the
//   call entered at WaitState::begin, on the cause rank the point WaitState::end (the Enter of its
//   matching call, §6.1). The interval of a rank runs from its previous synchronisation point
//   *with any rank* (a simplification of "with the partner": it needs no per-pair state) to this
//   one; before the first it starts at the rank's first event. A call in which nobody waited is
//   no synchronisation point (the detector reports nothing there).
// - Every wait is charged with its own p: for collectives each waiting rank against the last
//   arriver q, as the wait records give them (§6.4 says "p the first"; comparing each waiter
//   with q charges each its own wait and equals §6.4 for the first). Indirect effects are not
//   propagated: an indirect wait is charged only for excess computation of its immediate cause.
// - Costs are whole nanoseconds: floor of the proportional share, the remainder of each wait
//   going to its hotspot with the largest excess (on ties the one earlier in `hotspots`), so a
//   wait is charged exactly.
//
// Memory: per rank the running sums, the last snapshot and the last interval (3 x hotspots), the
// cost matrix (ranks x hotspots), the interval of each wait still open in the time-ordered sweep,
// and two 4-byte sort items per wait (the waits themselves are already held); nothing per event.

#include "model/support/progressreporter.h"
#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace rankscope {

class Trace;

struct RootCauseOptions
{
    /// A function is a hotspot when its exclusive time is at least this % of the total; (0, 100].
    double hotspotThresholdPercent = 1.0;
    ProgressCallback progress;
};

/// Waiting time charged to hotspot `function` running late on `rank`.
struct RootCauseCost
{
    RegionId function;
    RankId rank;
    int64_t costNs = 0;
    bool operator==(const RootCauseCost& o) const
    {
        return std::tie(function, rank, costNs) == std::tie(o.function, o.rank, o.costNs);
    }
};

/// One function over all ranks: "balancing it would remove up to shareOfWaiting of the waiting".
struct FunctionCause
{
    RegionId function;
    int64_t costNs = 0;
    double shareOfWaiting = 0; ///< costNs / total waiting, in [0, 1]
    bool operator==(const FunctionCause& o) const
    {
        return std::tie(function, costNs, shareOfWaiting) ==
               std::tie(o.function, o.costNs, o.shareOfWaiting);
    }
};

/// One function's part of the waiting at one call site (the waiting call's site).
struct CallSiteCause
{
    CallSiteId callSite; ///< in the wait analysis' call-site table
    RegionId function;
    int64_t costNs = 0;
    double shareOfWaitingAtCallSite = 0; ///< costNs / waiting at the call site, in [0, 1]
    bool operator==(const CallSiteCause& o) const
    {
        return std::tie(callSite, function, costNs, shareOfWaitingAtCallSite) ==
               std::tie(o.callSite, o.function, o.costNs, o.shareOfWaitingAtCallSite);
    }
};

struct RootCauseReport
{
    std::vector<RegionId> hotspots;             ///< by descending exclusive time (ties by id)
    std::vector<RootCauseCost> perFunctionRank; ///< cost > 0, by descending cost
    std::vector<FunctionCause> perFunction;     ///< cost > 0, by descending cost
    std::vector<CallSiteCause> perCallSite;     ///< cost > 0, by descending cost
    int64_t totalWaitNs = 0;                    ///< all waiting of the analysis
    int64_t explainedNs = 0;                    ///< the part charged to some hotspot
    bool cancelled = false; ///< stopped early: the numbers cover part of the trace

    bool operator==(const RootCauseReport& o) const
    {
        return std::tie(hotspots, perFunctionRank, perFunction, perCallSite, totalWaitNs,
                        explainedNs, cancelled) ==
               std::tie(o.hotspots, o.perFunctionRank, o.perFunction, o.perCallSite, o.totalWaitNs,
                        o.explainedNs, o.cancelled);
    }
};

/// The hotspots of `trace`: non-MPI regions with exclusive time >= `thresholdPercent` % of the
/// total exclusive time, by descending exclusive time. Cancelled (empty, flag set) via progress.
std::vector<RegionId> findHotspots(const Trace& trace, double thresholdPercent,
                                   const ProgressCallback& progress, bool* cancelled = nullptr);

/// The hotspots by findHotspots' rule from the exclusive time of each region (by RegionId) summed
/// over all ranks (a merged Profile's RegionSummary::exclusive).
std::vector<RegionId> hotspotsOf(const Trace& trace, const std::vector<int64_t>& exclusive,
                                 double thresholdPercent);

/// Whether analyzeRootCauses charges `w` at all (both ranks known and distinct, some waiting).
bool chargeableWait(const WaitState& w, size_t rankCount);

/// The charge of one wait of `wait` ns: parts[c] for hotspot c, from the cause's and the waiting
/// rank's hotspot times in their synchronisation intervals. False (nothing charged) when the cause
/// did no more hotspot work than the waiting rank. `sigma` is scratch (reused from wait to wait:
/// this runs once per wait).
bool chargeWait(std::span<const int64_t> causeInterval, std::span<const int64_t> waitingInterval,
                int64_t wait, std::vector<int64_t>& sigma, std::vector<int64_t>& parts);

/// Fills the tables of `report` (hotspots, totalWaitNs set) from the costs: rankCost[r x
/// hotspots + c] per rank and hotspot, siteCost per (call site, hotspot index) and the waiting
/// per call site.
void finishRootCauseReport(RootCauseReport& report, const std::vector<int64_t>& rankCost,
                           const std::map<std::pair<uint32_t, uint32_t>, int64_t>& siteCost,
                           const std::map<uint32_t, int64_t>& waitAtCallSite);

/// Charges every wait of `waits` (found in `trace`) to the hotspots that made its cause late.
RootCauseReport analyzeRootCauses(const Trace& trace, const WaitStateAnalysis& waits,
                                  const RootCauseOptions& options = {});

} // namespace rankscope
