#pragma once
// Every delta time of chosen execution intervals, for histograms (ALGORITHMS.md §2), which need
// the individual samples that IntervalTable's constant-size statistics do not keep. Memory is
// O(samples of the requested intervals); one pass per rank.

#include "model/support/progressreporter.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

/// Delta times (ns) per interval name `A - B`, over all ranks and occurrences, in rank order.
struct IntervalSamples
{
    std::map<std::string, std::vector<double>> samples;
    bool cancelled = false;

    bool operator==(const IntervalSamples& o) const
    {
        return std::tie(samples, cancelled) == std::tie(o.samples, o.cancelled);
    }
};

/// Collects the delta times of the intervals named in `names` (all intervals when empty).
IntervalSamples collectIntervalSamples(const Trace& trace, const std::set<std::string>& names = {},
                                       const ProgressCallback& progress = {});

} // namespace rankscope
