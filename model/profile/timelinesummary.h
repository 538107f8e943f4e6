#pragma once
// Level-of-detail summaries for drawing timelines: for each rank and each power-of-two bucket
// width, which region dominates each bucket (the innermost region open on the rank's main
// location for the longest time in it; no region at all counts as "idle"). A zoomed-out frame
// reads one summary cell per pixel and row, so its cost is O(pixels x visible rows), whatever
// the number of events. Built once after import, off the GUI thread.
//
// Levels: level 0 has buckets of width baseWidthNs() (a power of two chosen so that level 0 holds
// at most kMaxBaseBuckets buckets per rank); level k has buckets 2^k times wider, up to a single
// bucket covering the run. Every level is exact: its per-region times are summed from the events
// (a parent bucket's times are the exact sums of its children's), and its cells are never derived
// from the cells of the level below, so a test can compare any cell with a brute-force computation.
//
// Cell rule: within a bucket (clipped to the run [begin, end) of the trace), each candidate's
// time is the time it is the innermost open region of the rank's main location; idle (nothing
// open) is a candidate too. The longest wins; ties go to the lower RegionId, and idle counts as
// the invalid id (the highest), so idle wins only when strictly longer than every region.
// Regions left open end at the location's last event; a Leave closes the innermost open
// instance of its region and everything above it, a Leave with nothing to close is ignored
// (as the profile does).

#include "model/profile/summarylevels.h"
#include "model/support/progressreporter.h"
#include "model/trace/ids.h"

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
    /// result is empty and cancelled() is true); it is only called from the calling thread.
    /// `threads` > 1 builds ranks concurrently; the result is the same.
    static TimelineSummary build(const Trace& trace, const ProgressCallback& progress = {},
                                 unsigned threads = 1);
    /// The summaries of ranks [firstRank, endRank) only, on the geometry of a run [runBegin,
    /// runEnd) (a part of a trace, rankscope-mpi: the run is the whole trace's); the other ranks
    /// have no cells. Each rank's cells equal those build() gives for the whole trace.
    static TimelineSummary buildRanks(const Trace& trace, int64_t runBegin, int64_t runEnd,
                                      uint32_t firstRank, uint32_t endRank);

    /// For storing (importers/rsum): the level geometry and one rank's cells, all levels,
    /// finest first (empty for a rank without cells).
    SummaryLevels geometry() const;
    std::span<const uint32_t> rankCells(RankId rank) const;
    /// The summary without its `drop` finest levels: level `drop` becomes level 0 (a coarser
    /// stored resolution; at least one level is kept).
    TimelineSummary coarsened(unsigned drop) const;
    /// A summary from stored parts; throws std::invalid_argument when a rank's cell count does not
    /// fit the geometry (empty is allowed: no cells, drawn idle).
    static TimelineSummary fromCells(const SummaryLevels& geometry,
                                     std::vector<std::vector<uint32_t>> perRank);

    /// The dominant region of `rank` for each of out.size() consecutive pixels, pixel i covering
    /// [begin + i * nsPerPixel, begin + (i + 1) * nsPerPixel): taken from the finest level whose
    /// bucket width is at least nsPerPixel (the coarsest level when none is). Invalid RegionId =
    /// idle. Each pixel shows the bucket holding its centre: as a bucket is at least as wide as
    /// a pixel, that bucket covers at least half of the pixel, and it costs one lookup. A pixel
    /// whose centre lies outside the run is idle.
    void sample(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out) const;

    /// The cell of one level, for tests and for callers that manage levels themselves.
    RegionId cell(RankId rank, unsigned level, uint64_t bucket) const;

    int64_t originNs() const { return origin_; } ///< time of bucket 0's start
    int64_t baseWidthNs() const { return baseWidth_; }
    unsigned levelCount() const { return levels_; }
    uint64_t bucketCount(unsigned level) const;
    size_t rankCount() const { return perRank_.size(); }
    bool cancelled() const { return cancelled_; }
    size_t memoryBytes() const;

private:
    /// The builds' shared part: ranks [first, endRank) of `trace` on `geometry`.
    static TimelineSummary buildOn(const Trace& trace, const SummaryLevels& geometry,
                                   uint32_t first, uint32_t endRank,
                                   const ProgressCallback& progress, unsigned threads);

    struct RankLevels
    {
        std::vector<uint32_t> cells; ///< all levels of one rank, level 0 first
    };
    std::vector<RankLevels> perRank_;
    /// Index of each level's first cell in `cells`, plus the total cell count at the end.
    std::vector<uint64_t> levelOffset_;
    int64_t origin_ = 0;
    int64_t end_ = 0; ///< end of the run (the trace's last timestamp)
    int64_t baseWidth_ = 1;
    unsigned levels_ = 0;
    bool cancelled_ = false;
};

} // namespace rankscope
