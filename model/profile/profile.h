#pragma once
// Flat profile: time per region per rank and its spread over ranks (ALGORITHMS.md §1).
//
// Definitions (per region instance, i.e. one Enter/Leave pair on a rank's main location):
// - calls: Enter events.
// - exclusive: the instance's duration minus the durations of the instances directly nested in
//   it; summed over instances. Exclusive times of all regions add up to the time covered by
//   top-level regions, even with recursion.
// - inclusive: the duration of instances that are not nested in an instance of the same region.
//   With recursion (f inside f) summing every instance would count the inner time twice and
//   could exceed the run time; this is "time with f on the stack", as Score-P/CUBE report it.
//   Without recursion, inclusive = exclusive + time in directly nested regions.
// - MPI time: the durations of the rank's outermost MPI calls.
// Regions still open at the end of a location end at its last timestamp (as call records do).
// Spreads over ranks count every rank, so a region a rank never entered contributes 0 there.

#include "model/profile/rankspread.h"
#include "model/support/progressreporter.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <string_view>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;
struct RunSpan;

/// Calls and times of one region on one rank.
struct RegionTimes
{
    uint64_t calls = 0;
    int64_t inclusive = 0; ///< ns
    int64_t exclusive = 0; ///< ns
    bool operator==(const RegionTimes& o) const
    {
        return std::tie(calls, inclusive, exclusive) == std::tie(o.calls, o.inclusive, o.exclusive);
    }
};

/// The profile of one rank's main location.
struct RankProfile
{
    RankId rank;
    std::vector<RegionTimes> regions; ///< indexed by RegionId
    int64_t mpiTime = 0;              ///< sum of outermost MPI call durations, ns
    uint64_t mpiCalls = 0;            ///< outermost MPI calls
    uint64_t unclosedRegions = 0;     ///< instances closed at the end of the location
    bool cancelled = false;           ///< stopped early: the numbers cover part of the rank

    bool operator==(const RankProfile& o) const
    {
        return std::tie(rank, regions, mpiTime, mpiCalls, unclosedRegions, cancelled) ==
               std::tie(o.rank, o.regions, o.mpiTime, o.mpiCalls, o.unclosedRegions, o.cancelled);
    }
};

/// One region over all ranks: the row a profile table prints.
struct RegionSummary
{
    RegionId region;
    uint64_t calls = 0;    ///< over all ranks
    int64_t inclusive = 0; ///< over all ranks, ns
    int64_t exclusive = 0; ///< over all ranks, ns
    RankSpread callsPerRank;
    RankSpread inclusivePerRank;
    RankSpread exclusivePerRank;

    bool operator==(const RegionSummary& o) const
    {
        return std::tie(region, calls, inclusive, exclusive, callsPerRank, inclusivePerRank,
                        exclusivePerRank) == std::tie(o.region, o.calls, o.inclusive, o.exclusive,
                                                      o.callsPerRank, o.inclusivePerRank,
                                                      o.exclusivePerRank);
    }
};

struct Profile
{
    std::vector<RankProfile> ranks;     ///< indexed by RankId
    std::vector<RegionSummary> regions; ///< indexed by RegionId
    RankSpread mpiTimePerRank;
    /// Over the run span (model/analysis/runspan.h: end of MPI_Init to end of MPI_Finalize), the
    /// figures comparisons use: its duration and each rank's MPI time within it.
    int64_t spanNs = 0;
    RankSpread spanMpiTimePerRank;
    bool cancelled = false; ///< stopped early: the numbers cover part of the trace

    bool operator==(const Profile& o) const
    {
        return std::tie(ranks, regions, mpiTimePerRank, spanNs, spanMpiTimePerRank, cancelled) ==
               std::tie(o.ranks, o.regions, o.mpiTimePerRank, o.spanNs, o.spanMpiTimePerRank,
                        o.cancelled);
    }
};

/// Profile of one rank; `progress` sees the fraction of that rank's events done.
RankProfile computeRankProfile(const Trace& trace, RankId rank,
                               const ProgressCallback& progress = {});
/// Combines per-rank profiles (any order, one per rank of `trace`) into the trace's profile.
Profile mergeRankProfiles(const Trace& trace, std::vector<RankProfile> ranks);
/// The same with the run span given (combineRankSpans of every rank's part), for a `trace` that
/// holds the definitions but not every rank's events (the MPI back end's rank 0). Only the
/// trace's definitions are read.
Profile mergeRankProfiles(const Trace& trace, std::vector<RankProfile> ranks, const RunSpan& span);
/// Profile of every rank of `trace`; `progress` may cancel.
Profile computeProfile(const Trace& trace, const ProgressCallback& progress = {});

/// Regions that were entered, by descending exclusive time over all ranks (ties by name).
std::vector<RegionId> regionsByExclusiveTime(const Trace& trace, const Profile& profile);
/// Their names, in the same order.
std::vector<std::string_view> regionNamesByExclusiveTime(const Trace& trace,
                                                         const Profile& profile);

} // namespace rankscope
