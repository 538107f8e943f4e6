#pragma once
// Level-of-detail summary of wait states for drawing them on a zoomed-out timeline: per rank and
// per power-of-two bucket (the geometry of TimelineSummary, model/profile/summarylevels.h), which
// pattern waits longest in the bucket and what fraction of the bucket is spent waiting. A frame
// reads one cell per pixel and row, O(pixels x rows), however many waits there are.
//
// Any waiting at all gives a cell at least the smallest non-zero coverage, and a bucket at least
// as wide as a pixel always holds some pixel's centre, so every wait stays visible at every zoom
// level: zoomed out as a thin mark, zoomed in as its own span (drawn from the waits themselves).

#include "model/profile/summarylevels.h"
#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

/// One summary cell: nothing, or a pattern with the waiting share of the bucket in 1/31 steps.
struct WaitCell
{
    static constexpr uint8_t kSteps = 31;
    uint8_t value = 0; ///< 0: no waiting; else (pattern + 1) << 5 | coverage step (1..31)

    bool empty() const { return value == 0; }
    WaitPattern pattern() const { return WaitPattern((value >> 5) - 1); }
    /// Waiting share of the bucket, rounded up to a step: in (0, 1] unless empty.
    double coverage() const { return double(value & 31) / kSteps; }
    int step() const { return value & 31; }
    static WaitCell make(WaitPattern p, int step)
    {
        return {uint8_t((uint8_t(p) + 1) << 5 | step)};
    }
    bool operator==(const WaitCell&) const = default;
};

class WaitSummary
{
public:
    /// Same bucket budget as the region summary: level 0 buckets of the same width.
    static constexpr uint64_t kMaxBaseBuckets = uint64_t(1) << 15;

    /// Summarises `analysis` (waits sorted by rank and begin) for a run [runBegin, runEnd).
    static WaitSummary build(const WaitStateAnalysis& analysis, size_t rankCount, int64_t runBegin,
                             int64_t runEnd);

    /// Cells for out.size() pixels, pixel i covering [begin + i * npp, begin + (i + 1) * npp):
    /// each shows the bucket holding its centre on the finest level at least a pixel wide.
    void sample(RankId rank, double begin, double nsPerPixel, std::span<WaitCell> out) const;
    WaitCell cell(RankId rank, unsigned level, uint64_t bucket) const;

    const SummaryLevels& levels() const { return levels_; }
    /// For storing (importers/rsum): one rank's cells, all levels, finest first (empty when the
    /// rank never waits).
    std::span<const uint8_t> rankCells(RankId rank) const;
    /// The summary without its `drop` finest levels (a coarser stored resolution).
    WaitSummary coarsened(unsigned drop) const;
    /// A summary from stored parts; throws std::invalid_argument when a rank's cell count does not
    /// fit the geometry or a cell is no valid WaitCell.
    static WaitSummary fromCells(const SummaryLevels& levels,
                                 std::vector<std::vector<uint8_t>> perRank);
    int64_t baseWidthNs() const { return levels_.baseWidth(); }
    size_t rankCount() const { return perRank_.size(); }
    size_t memoryBytes() const;

private:
    SummaryLevels levels_;
    std::vector<std::vector<uint8_t>> perRank_; ///< empty for ranks that never wait
};

/// The waits of one rank (analysis.waits is sorted by rank).
std::span<const WaitState> rankWaits(const WaitStateAnalysis& analysis, RankId rank);

} // namespace rankscope
