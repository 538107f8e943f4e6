#pragma once
// Hardware counters and other metrics (OTF2 Metric records, e.g. PAPI counters), stored as
// columns per location and metric member: the sample times and the values, never as events in
// the location's event stream. A metric record of K members becomes one sample in each of K
// columns; Trace::metricRecords() counts the records, so event counts stay those of otf2-print.

#include "model/trace/ids.h"

#include <bit>
#include <cstdint>
#include <tuple>
#include <vector>

namespace rankscope {

/// How the values of a metric relate to time (OTF2's metric modes).
enum class MetricMode : uint8_t
{
    AccumulatedStart, ///< running total since the start of the measurement (counters)
    AccumulatedPoint, ///< total since the last sample, valid at the sample
    AccumulatedLast,  ///< total over the span since the previous sample
    AccumulatedNext,  ///< total over the span until the next sample
    AbsolutePoint,    ///< a level at the sample (a gauge)
    AbsoluteLast,
    AbsoluteNext,
    RelativePoint,
    RelativeLast,
    RelativeNext,
};

/// Whether values are running totals, so that the difference of two samples is what happened in
/// between (a counter delta).
inline bool isAccumulated(MetricMode m)
{
    return m == MetricMode::AccumulatedStart;
}

enum class MetricValueType : uint8_t
{
    Int64,
    Uint64,
    Double,
};

/// One metric member ("PAPI_TOT_CYC").
struct Metric
{
    StringId name;
    StringId description;
    StringId unit;
    MetricMode mode = MetricMode::AccumulatedStart;
    MetricValueType type = MetricValueType::Uint64;
    bool operator==(const Metric& o) const
    {
        return std::tie(name, description, unit, mode, type) ==
               std::tie(o.name, o.description, o.unit, o.mode, o.type);
    }
};

/// The raw 64 bits of one sample, read as the metric's value type.
inline double metricValue(uint64_t raw, MetricValueType type)
{
    switch (type) {
    case MetricValueType::Int64:
        return double(static_cast<int64_t>(raw));
    case MetricValueType::Double:
        return std::bit_cast<double>(raw);
    case MetricValueType::Uint64:
        break;
    }
    return double(raw);
}

/// The samples of one metric on one location, in time order.
struct MetricColumn
{
    LocationId location;
    MetricId metric;
    std::vector<int64_t> times; ///< ns, like event times
    std::vector<uint64_t> raw;  ///< the value's bits; see Metric::type
    size_t size() const { return times.size(); }
    bool operator==(const MetricColumn& o) const
    {
        return std::tie(location, metric, times, raw) ==
               std::tie(o.location, o.metric, o.times, o.raw);
    }
};

} // namespace rankscope
