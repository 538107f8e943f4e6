#pragma once
// Minimum, mean and maximum of one quantity over all ranks of a trace (load balance at a glance).

#include <cstdint>
#include <span>
#include <tuple>

namespace rankscope {

struct RankSpread
{
    int64_t min = 0;
    double mean = 0.0;
    int64_t max = 0;

    /// Spread of `values`, one per rank; all zero when empty.
    static RankSpread of(std::span<const int64_t> values);

    bool operator==(const RankSpread& o) const
    {
        return std::tie(min, mean, max) == std::tie(o.min, o.mean, o.max);
    }
};

} // namespace rankscope
