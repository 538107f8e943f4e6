#pragma once
// Matches execution intervals across traces at several scales by name (call-site pair), so each
// interval becomes a series over the scales. An interval missing at some scales is reported
// with the scales where it is missing, never silently dropped.

#include "model/deltas/intervals.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rankscope::extrap {

/// One interval across the scales.
struct MatchedInterval
{
    std::string name;
    std::vector<const ExecutionInterval*> atScale; ///< one per scale; null where missing

    size_t presentCount() const;
};

struct ScaleSeries
{
    std::vector<MatchedInterval> intervals; ///< sorted by name
    std::vector<std::string> missing;       ///< "A - B (missing at 16, 36)"
};

/// Matches the intervals of `tables` (one per scale, in the order of `scales`).
ScaleSeries matchIntervals(std::span<const uint32_t> scales,
                           std::span<const IntervalTable* const> tables);

} // namespace rankscope::extrap
