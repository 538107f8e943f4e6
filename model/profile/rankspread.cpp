#include "model/profile/rankspread.h"

#include <algorithm>

namespace rankscope {

RankSpread RankSpread::of(std::span<const int64_t> values)
{
    if (values.empty()) return {};
    RankSpread s{values.front(), 0.0, values.front()};
    double sum = 0.0;
    for (const int64_t v : values) {
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += double(v);
    }
    s.mean = sum / double(values.size());
    return s;
}

} // namespace rankscope
