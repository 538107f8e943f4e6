#include "views/timeline/rowsampler.h"

#include "model/profile/timelinesummary.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

void RowSampler::setTrace(const Trace* trace, const TimelineSummary* summary,
                          const StackCheckpoints* checkpoints)
{
    trace_ = trace;
    summary_ = summary;
    checkpoints_ = checkpoints;
}

bool RowSampler::usesSummary(double nsPerPixel, bool group) const
{
    const double minPixel =
        double(summary_ ? summary_->baseWidthNs() : 0) / (group ? kGroupBucketPixels : 1.0);
    if (!summary_ || !trace_ || summary_->rankCount() != trace_->rankCount()) return false;
    // A result summary's trace has no events: the pyramid serves every zoom level (its finest
    // level stretched), and the view says where the detail ends (TimelinePainter).
    if (trace_->eventCount() == 0 && summary_->levelCount() > 0) return true;
    return nsPerPixel >= minPixel;
}

void RowSampler::sampleRank(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out,
                            bool group)
{
    if (usesSummary(nsPerPixel, group))
        summary_->sample(rank, begin, nsPerPixel, out);
    else
        sampleEvents(rank, begin, nsPerPixel, out);
}

void RowSampler::sampleEvents(RankId rank, double begin, double nsPerPixel, std::span<RegionId> out)
{
    std::fill(out.begin(), out.end(), RegionId());
    const size_t width = out.size();
    if (!trace_ || width == 0) return;
    coverage_.assign(width, 0.0f);
    const EventStream& events = trace_->rankEvents(rank);
    const double end = begin + double(width) * nsPerPixel;
    const auto [first, last] = events.window(int64_t(std::floor(begin)), int64_t(std::ceil(end)));
    checkpoints_->stackAt(rank, first, stack_);

    // Folds [from, to) with `region` innermost into the pixels it touches.
    auto fold = [&](double from, double to, RegionId region) {
        const double x0 = std::max(0.0, (from - begin) / nsPerPixel);
        const double x1 = std::min(double(width), (to - begin) / nsPerPixel);
        if (x1 <= x0) return;
        const size_t p0 = size_t(x0);
        const size_t p1 = std::min(width - 1, size_t(x1));
        if (p0 == p1) {
            const float c = float(x1 - x0);
            if (c > coverage_[p0]) {
                coverage_[p0] = c;
                out[p0] = region;
            }
            return;
        }
        const float head = float(double(p0 + 1) - x0);
        if (head > coverage_[p0]) {
            coverage_[p0] = head;
            out[p0] = region;
        }
        for (size_t p = p0 + 1; p < p1; ++p) {
            coverage_[p] = 1.0f;
            out[p] = region;
        }
        const float tail = float(x1 - double(p1));
        if (tail > coverage_[p1]) {
            coverage_[p1] = tail;
            out[p1] = region;
        }
    };

    double from = begin;
    for (size_t i = first; i < last; ++i) {
        const double t = double(events.time(i));
        if (t > from) {
            fold(from, t, stack_.empty() ? RegionId() : stack_.back().region);
            from = t;
        }
        StackCheckpoints::apply(events, i, stack_);
    }
    fold(from, end, stack_.empty() ? RegionId() : stack_.back().region);
}

void RowSampler::sampleRow(std::span<const RankId> ranks, double begin, double nsPerPixel,
                           std::span<RegionId> out)
{
    if (ranks.size() == 1) {
        sampleRank(ranks[0], begin, nsPerPixel, out);
        return;
    }
    const size_t width = out.size();
    const size_t k = ranks.size();
    groupCells_.resize(width * k);
    for (size_t r = 0; r < k; ++r)
        sampleRank(ranks[r], begin, nsPerPixel, std::span(groupCells_).subspan(r * width, width),
                   true);
    // Plurality per pixel with a tiny list of (value, count): few distinct values per pixel.
    struct Count
    {
        RegionId region;
        uint32_t n;
    };
    Count counts[16];
    for (size_t p = 0; p < width; ++p) {
        int distinct = 0;
        for (size_t r = 0; r < k; ++r) {
            const RegionId v = groupCells_[r * width + p];
            int j = 0;
            while (j < distinct && counts[j].region != v)
                ++j;
            if (j < distinct)
                ++counts[j].n;
            else if (distinct < 16)
                counts[distinct++] = {v, 1};
        }
        int best = 0;
        for (int j = 1; j < distinct; ++j)
            if (counts[j].n > counts[best].n) best = j;
        out[p] = distinct > 0 ? counts[best].region : RegionId();
    }
}

} // namespace rankscope
