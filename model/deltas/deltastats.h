#pragma once
// Count, total, min and max of a set of delta times: constant size, mergeable.

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace rankscope {

struct DeltaStats
{
    uint64_t occurrences = 0;
    int64_t total = 0; ///< ns
    int64_t min = 0;   ///< ns; 0 when empty
    int64_t max = 0;   ///< ns; 0 when empty

    /// Adds one delta time.
    void add(int64_t delta)
    {
        min = occurrences == 0 ? delta : std::min(min, delta);
        max = occurrences == 0 ? delta : std::max(max, delta);
        total += delta;
        ++occurrences;
    }
    /// Adds all samples of `o`.
    void merge(const DeltaStats& o)
    {
        if (o.occurrences == 0) return;
        min = occurrences == 0 ? o.min : std::min(min, o.min);
        max = occurrences == 0 ? o.max : std::max(max, o.max);
        total += o.total;
        occurrences += o.occurrences;
    }
    /// Mean delta time in ns; 0 when empty.
    double mean() const { return occurrences == 0 ? 0.0 : double(total) / double(occurrences); }

    bool operator==(const DeltaStats& o) const
    {
        return std::tie(occurrences, total, min, max) ==
               std::tie(o.occurrences, o.total, o.min, o.max);
    }
};

} // namespace rankscope
