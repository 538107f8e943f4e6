#pragma once
// Hardware counters per region (Vampir's and Cube's counter profile): for every running-total
// metric (MetricMode::AccumulatedStart, as PAPI counters are recorded) the counter delta of each
// call, value at its Leave minus value at its Enter, summed per region (inclusive, and exclusive
// of the calls inside it), with the number of calls, the mean, least and most per call, and the
// totals per rank.
//
// The value at an event is the location's sample at that time. Score-P writes one metric record
// at the timestamp of each Enter and Leave, so when several Enter/Leave events share a
// timestamp, the k-th of them takes the k-th sample at that time; otherwise the last sample at
// or before the event. A call with no sample at or before its Enter is left out.

#include "model/trace/trace.h"

#include <cstdint>
#include <tuple>
#include <vector>

namespace rankscope {

/// One metric over the whole run.
struct MetricTotals
{
    MetricId metric;
    bool accumulated = false; ///< running totals: deltas and per-region sums are meaningful
    uint64_t samples = 0;     ///< over all locations
    uint32_t locations = 0;   ///< locations that sample it
    double minValue = 0;
    double maxValue = 0;
    /// Accumulated: last minus first sample, summed over a rank's locations; else 0.
    std::vector<double> byRank;
    double total() const;
    bool operator==(const MetricTotals& o) const
    {
        return std::tie(metric, accumulated, samples, locations, minValue, maxValue, byRank) ==
               std::tie(o.metric, o.accumulated, o.samples, o.locations, o.minValue, o.maxValue,
                        o.byRank);
    }
};

/// One (metric, region): the deltas of its calls.
struct MetricRegion
{
    MetricId metric;
    RegionId region;
    uint64_t calls = 0;
    double inclusive = 0; ///< sum of the calls' deltas
    double exclusive = 0; ///< minus the deltas of the calls directly inside them
    double minPerCall = 0;
    double maxPerCall = 0;
    std::vector<double> inclusiveByRank;
    std::vector<double> exclusiveByRank;
    double meanPerCall() const { return calls > 0 ? inclusive / double(calls) : 0.0; }
    bool operator==(const MetricRegion& o) const
    {
        return std::tie(metric, region, calls, inclusive, exclusive, minPerCall, maxPerCall,
                        inclusiveByRank, exclusiveByRank) ==
               std::tie(o.metric, o.region, o.calls, o.inclusive, o.exclusive, o.minPerCall,
                        o.maxPerCall, o.inclusiveByRank, o.exclusiveByRank);
    }
};

struct MetricProfile
{
    std::vector<MetricTotals> metrics; ///< by MetricId
    /// Per accumulated metric (in MetricId order), regions by exclusive value, largest first.
    std::vector<MetricRegion> regions;
    bool operator==(const MetricProfile&) const = default;
};

MetricProfile computeMetricProfile(const Trace& trace);

/// The index of the sample of `column` that belongs to event `i` of `events` (see the file's
/// note), or SIZE_MAX when the column has no sample at or before the event.
size_t metricSampleAt(const MetricColumn& column, const EventStream& events, size_t i);

} // namespace rankscope
