#pragma once
// A time-sorted column of int64 nanosecond timestamps stored in about 4 bytes per value.
//
// Design note: values are grouped in fixed blocks of 2^kBlockShift. Each block keeps its first
// value as an int64 base; each value keeps a uint32 offset from its block's base. A value whose
// offset does not fit (more than ~4.29 s after the block's first value, or before it) stores the
// escape offset and lives in a small sorted side table. Random access stays O(1) in the common
// case, a binary search finds a time window, and memory is 4 bytes + 8/2^kBlockShift per value.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rankscope {

class TimeColumn
{
public:
    static constexpr unsigned kBlockShift = 8;
    static constexpr uint32_t kEscape = 0xFFFFFFFFu;

    void reserve(size_t n);
    /// Appends a value (inline: it runs once per imported event).
    void push_back(int64_t t)
    {
        const size_t i = offsets_.size();
        if ((i & ((size_t(1) << kBlockShift) - 1)) == 0) bases_.push_back(t);
        const int64_t off = t - bases_.back();
        if (off >= 0 && off < int64_t(kEscape)) [[likely]] {
            offsets_.push_back(static_cast<uint32_t>(off));
        } else {
            offsets_.push_back(kEscape);
            escaped_.emplace_back(static_cast<uint32_t>(i), t);
        }
    }
    int64_t operator[](size_t i) const;
    size_t size() const { return offsets_.size(); }
    bool empty() const { return offsets_.empty(); }
    int64_t front() const { return (*this)[0]; }
    int64_t back() const { return (*this)[size() - 1]; }
    /// First index whose time is >= t (size() if none). Requires sorted values.
    size_t lowerBound(int64_t t) const;
    /// First index whose time is > t (size() if none). Requires sorted values.
    size_t upperBound(int64_t t) const;
    void shrinkToFit();
    size_t memoryBytes() const;
    bool operator==(const TimeColumn& o) const;

private:
    std::vector<int64_t> bases_;
    std::vector<uint32_t> offsets_;
    std::vector<std::pair<uint32_t, int64_t>> escaped_; // (index, value), sorted by index
};

} // namespace rankscope
