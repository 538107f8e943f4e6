#pragma once
// The bucket geometry shared by the timeline's level-of-detail summaries (TimelineSummary,
// WaitSummary): level 0 has buckets of a power-of-two width, chosen so that the run needs at most
// `maxBaseBuckets` of them; level k has buckets 2^k times wider, up to a single bucket covering
// the run. Cells of all levels of one rank are stored level after level; `offset` says where.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rankscope {

struct SummaryLevels
{
    int64_t origin = 0; ///< start of bucket 0 (the run's first timestamp)
    int64_t end = 0;    ///< end of the run
    unsigned shift = 0; ///< level 0's bucket width is 2^shift ns
    /// Index of each level's first cell, plus the total cell count at the end.
    std::vector<uint64_t> offset;

    static SummaryLevels forRun(int64_t begin, int64_t runEnd, uint64_t maxBaseBuckets)
    {
        SummaryLevels s;
        s.origin = begin;
        s.end = runEnd;
        const uint64_t run = uint64_t(std::max<int64_t>(0, runEnd - begin));
        while (((run + (uint64_t(1) << s.shift) - 1) >> s.shift) > maxBaseBuckets)
            ++s.shift;
        // Level k has ceil(run / (base << k)) buckets (at least one), up to a single bucket.
        uint64_t count = std::max<uint64_t>(1, (run + (uint64_t(1) << s.shift) - 1) >> s.shift);
        s.offset.push_back(0);
        for (;;) {
            s.offset.push_back(s.offset.back() + count);
            if (count == 1) break;
            count = (count + 1) / 2;
        }
        return s;
    }

    unsigned levels() const { return offset.empty() ? 0 : unsigned(offset.size() - 1); }
    uint64_t cellCount() const { return offset.empty() ? 0 : offset.back(); }
    int64_t baseWidth() const { return int64_t(1) << shift; }
    uint64_t bucketCount(unsigned level) const
    {
        return level < levels() ? offset[level + 1] - offset[level] : 0;
    }
    double width(unsigned level) const
    {
        return double(baseWidth()) * double(uint64_t(1) << level);
    }
    /// The finest level whose buckets are at least `nsPerPixel` wide (the coarsest when none is).
    unsigned levelFor(double nsPerPixel) const
    {
        unsigned level = 0;
        while (level + 1 < levels() && width(level) < nsPerPixel)
            ++level;
        return level;
    }
};

} // namespace rankscope
