#include "model/profile/summarysweep.h"

#include "model/trace/ids.h"

#include <algorithm>

namespace rankscope {

SummarySweep::SummarySweep(int64_t origin, int64_t end, unsigned shift,
                           std::span<const uint64_t> levelOffset, size_t regionCount)
    : origin_(origin), end_(end), width_(int64_t(1) << shift), levelOffset_(levelOffset),
      levels_(unsigned(levelOffset.size() - 1)), slotOfRegion_(regionCount, kNoSlot),
      time_(levels_), touched_(levels_), bucket_(levels_, 0)
{
    stack_.reserve(64);
}

void SummarySweep::reset()
{
    for (size_t s = 1; s < regionOfSlot_.size(); ++s)
        slotOfRegion_[regionOfSlot_[s]] = kNoSlot;
    regionOfSlot_.assign(1, RegionId::kInvalid);
    for (unsigned k = 0; k < levels_; ++k) {
        time_[k].assign(1, 0);
        touched_[k].clear();
        bucket_[k] = 0;
    }
    stack_.clear();
    bucketEnd_ = width_;
}

uint32_t SummarySweep::slotOf(uint32_t region)
{
    uint32_t& slot = slotOfRegion_[region];
    if (slot == kNoSlot) {
        slot = uint32_t(regionOfSlot_.size());
        regionOfSlot_.push_back(region);
        for (auto& t : time_)
            t.push_back(0);
    }
    return slot;
}

void SummarySweep::leave(uint32_t region)
{
    // Broken nesting: close the innermost instance of the region and all above it (as the
    // profile does); a Leave with nothing to close changes nothing.
    const uint32_t slot = slotOfRegion_[region];
    if (slot == kNoSlot) return;
    size_t k = stack_.size();
    while (k > 0 && stack_[k - 1] != slot)
        --k;
    if (k > 0) stack_.resize(k - 1);
}

void SummarySweep::addSegment(int64_t begin, int64_t end, uint32_t slot)
{
    // Segments arrive contiguous from 0, so a segment starts at most at the current bucket's end.
    for (;;) {
        if (begin == bucketEnd_) {
            finishBucket(0);
            bucketEnd_ += width_;
        }
        const int64_t e = std::min(end, bucketEnd_);
        add(0, slot, e - begin);
        if (e == end) return;
        begin = e;
    }
}

void SummarySweep::finishBucket(unsigned level)
{
    std::vector<int64_t>& time = time_[level];
    std::vector<uint32_t>& touched = touched_[level];
    // Longest time wins, ties go to the lower id; idle is the invalid (highest) id.
    uint32_t best = RegionId::kInvalid;
    int64_t bestTime = -1;
    for (uint32_t s : touched) {
        const int64_t t = time[s];
        const uint32_t r = regionOfSlot_[s];
        if (t > bestTime || (t == bestTime && r < best)) {
            best = r;
            bestTime = t;
        }
    }
    const uint64_t bucket = bucket_[level]++;
    cells_[levelOffset_[level] + bucket] = best;

    const bool hasParent = level + 1 < levels_;
    for (uint32_t s : touched) {
        if (hasParent) add(level + 1, s, time[s]);
        time[s] = 0;
    }
    touched.clear();
    const uint64_t count = levelOffset_[level + 1] - levelOffset_[level];
    if (hasParent && ((bucket & 1) || bucket + 1 == count)) finishBucket(level + 1);
}

bool SummarySweep::run(const EventStream& events, uint32_t* cells,
                       const std::function<bool(uint64_t)>& tick)
{
    reset();
    cells_ = cells;
    const size_t n = events.size();
    const int64_t run = end_ - origin_;
    if (run <= 0) {
        // An empty run: the single bucket of every level is idle.
        std::fill(cells, cells + levelOffset_.back(), RegionId::kInvalid);
        return tick(n);
    }

    const uint32_t regionCount = uint32_t(slotOfRegion_.size());
    const auto top = [this] { return stack_.empty() ? 0u : stack_.back(); };
    int64_t prev = 0;
    uint64_t ticked = 0;
    for (size_t i = 0; i < n; ++i) {
        const EventKind kind = events.kind(i);
        if (kind == EventKind::Enter || kind == EventKind::Leave) {
            const uint32_t region = events.ref(i);
            if (region < regionCount) {
                const int64_t t = events.time(i) - origin_;
                if (t > prev) {
                    addSegment(prev, t, top());
                    prev = t;
                }
                if (kind == EventKind::Enter)
                    stack_.push_back(slotOf(region));
                else
                    leave(region);
            }
        }
        if (i + 1 - ticked == kTickEvents) {
            ticked = i + 1;
            if (!tick(kTickEvents)) return false;
        }
    }
    // Regions still open end at the location's last event; then idle to the end of the run.
    if (n > 0) {
        const int64_t last = events.time(n - 1) - origin_;
        if (last > prev) {
            addSegment(prev, last, top());
            prev = last;
        }
    }
    if (run > prev) addSegment(prev, run, 0);
    finishBucket(0); // the last level-0 bucket; completes the last bucket of every level
    return tick(n - ticked);
}

} // namespace rankscope
