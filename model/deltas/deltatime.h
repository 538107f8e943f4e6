#pragma once
// One delta time: the non-MPI time between two consecutive MPI calls of a rank.

#include "model/trace/ids.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

struct DeltaTime
{
    CallSiteId from;   ///< call site of the earlier call
    CallSiteId to;     ///< call site of the later call: (from, to) is the execution interval
    int64_t begin = 0; ///< Leave time of the earlier call
    int64_t end = 0;   ///< Enter time of the later call

    int64_t delta() const { return end - begin; }
    bool operator==(const DeltaTime& o) const
    {
        return std::tie(from, to, begin, end) == std::tie(o.from, o.to, o.begin, o.end);
    }
};

} // namespace rankscope
