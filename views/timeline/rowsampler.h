#pragma once
// What a timeline row shows in each pixel column: the dominant region (invalid = idle).
//
// Zoomed out (nsPerPixel >= the summary's base bucket width) a rank's pixels come from
// TimelineSummary::sample, O(pixels). Zoomed in they come from the events of the window: two
// binary searches, the open-region stack at the window start from StackCheckpoints, then one walk
// over the window's events, O(events in window + pixels). Every stretch of time with one
// innermost region is folded into the pixels it touches; a pixel touched by several keeps the one
// covering most of it, so runs narrower than a pixel still land in exactly one column. A group
// row takes, per pixel, the value most of its ranks show (idle counts as a value); it reads the
// summary down to buckets kGroupBucketPixels wide, so zooming into hundreds of grouped ranks
// does not walk every rank's events.

#include "model/trace/ids.h"
#include "views/timeline/stackcheckpoints.h"

#include <span>
#include <vector>

namespace rankscope {

class Trace;
class TimelineSummary;

class RowSampler
{
public:
    void setTrace(const Trace* trace, const TimelineSummary* summary,
                  const StackCheckpoints* checkpoints);

    /// A group row is a majority vote, so it may use summary buckets up to this many pixels
    /// wide; it saves walking the events of every rank of every group.
    static constexpr double kGroupBucketPixels = 8;

    /// True when a window at this resolution is drawn from the summary.
    bool usesSummary(double nsPerPixel, bool group = false) const;

    /// Pixel i covers trace time [begin + i * nsPerPixel, begin + (i + 1) * nsPerPixel).
    void sampleRank(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out,
                    bool group = false);
    void sampleRow(std::span<const RankId> ranks, double begin, double nsPerPixel,
                   std::span<RegionId> out);

private:
    void sampleEvents(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out);

    const Trace* trace_ = nullptr;
    const TimelineSummary* summary_ = nullptr;
    const StackCheckpoints* checkpoints_ = nullptr;
    // Scratch reused from frame to frame (sized by pixels x ranks of one row, never by events).
    StackCheckpoints::Stack stack_;
    std::vector<float> coverage_;
    std::vector<RegionId> groupCells_;
};

} // namespace rankscope
