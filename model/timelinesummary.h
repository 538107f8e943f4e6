#pragma once
// Level-of-detail summaries for drawing timelines: for each rank and each power-of-two bucket
// width, which region dominates each bucket (the innermost region open on the rank's main
// location for the longest time in it; no region at all counts as "idle"). A zoomed-out frame
// reads one summary cell per pixel and row, so its cost is O(pixels x visible rows), whatever
// the number of events. Built once after import, off the GUI thread.
//
// Levels: level 0 has buckets of width baseWidthNs() (a power of two chosen so that level 0 holds
// at most kMaxBaseBuckets buckets per rank); level k has buckets 2^k times wider, up to a single
// bucket covering the run. Every level is exact (computed from the events, not merged from the
// level below), so a test can compare any cell with a brute-force computation.

#include "model/ids.h"
#include "model/progressreporter.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

class Trace;

class TimelineSummary
{
public:
    /// At most this many level-0 buckets per rank (memory: ~2 x this x 4 bytes per rank).
    static constexpr uint64_t kMaxBaseBuckets = uint64_t(1) << 15;

    TimelineSummary() = default;

    /// Builds the summaries of every rank's main location. `progress` may cancel (then the
    /// result is empty and cancelled() is true).
    static TimelineSummary build(const Trace& trace, const ProgressCallback& progress = {});

    /// The dominant region of `rank` for each of out.size() consecutive pixels, pixel i covering
    /// [begin + i * nsPerPixel, begin + (i + 1) * nsPerPixel): taken from the finest level whose
    /// bucket width is at least nsPerPixel. Invalid RegionId = idle. Time outside the run is idle.
    void sample(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out) const;

    /// The cell of one level, for tests and for callers that manage levels themselves.
    RegionId cell(RankId rank, unsigned level, uint64_t bucket) const;

    int64_t originNs() const { return origin_; }     ///< time of bucket 0's start
    int64_t baseWidthNs() const { return baseWidth_; }
    unsigned levelCount() const { return levels_; }
    uint64_t bucketCount(unsigned level) const;
    size_t rankCount() const { return perRank_.size(); }
    bool cancelled() const { return cancelled_; }
    size_t memoryBytes() const;

private:
    struct RankLevels
    {
        std::vector<uint32_t> cells; ///< all levels of one rank, level 0 first
    };
    std::vector<RankLevels> perRank_;
    std::vector<uint64_t> levelOffset_; ///< index of each level's first cell in `cells`
    int64_t origin_ = 0;
    int64_t baseWidth_ = 1;
    unsigned levels_ = 0;
    bool cancelled_ = false;
};

} // namespace rankscope
