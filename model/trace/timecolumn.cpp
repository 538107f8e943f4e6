#include "model/trace/timecolumn.h"

#include <algorithm>

namespace rankscope {

void TimeColumn::reserve(size_t n)
{
    offsets_.reserve(n);
    bases_.reserve((n >> kBlockShift) + 1);
}

int64_t TimeColumn::operator[](size_t i) const
{
    const uint32_t off = offsets_[i];
    if (off != kEscape) [[likely]]
        return bases_[i >> kBlockShift] + off;
    auto it = std::lower_bound(escaped_.begin(), escaped_.end(), uint32_t(i),
                               [](const auto& e, uint32_t idx) { return e.first < idx; });
    return it->second;
}

size_t TimeColumn::lowerBound(int64_t t) const
{
    size_t lo = 0, hi = size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((*this)[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t TimeColumn::upperBound(int64_t t) const
{
    size_t lo = 0, hi = size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((*this)[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void TimeColumn::shrinkToFit()
{
    bases_.shrink_to_fit();
    offsets_.shrink_to_fit();
    escaped_.shrink_to_fit();
}

size_t TimeColumn::memoryBytes() const
{
    return bases_.capacity() * sizeof(int64_t) + offsets_.capacity() * sizeof(uint32_t) +
           escaped_.capacity() * sizeof(escaped_[0]);
}

bool TimeColumn::operator==(const TimeColumn& o) const
{
    if (size() != o.size()) return false;
    for (size_t i = 0; i < size(); ++i)
        if ((*this)[i] != o[i]) return false;
    return true;
}

} // namespace rankscope
