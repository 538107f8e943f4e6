#pragma once
// One sweep over a location's events that fills every level of its TimelineSummary cells
// (internal to TimelineSummary::build; one instance per thread, reused rank after rank).
//
// Design note: between two Enter/Leave events the innermost open region is constant, so the
// events cut the run into segments. Each segment's duration is added, per level-0 bucket it
// overlaps, to a per-candidate time accumulator. When a bucket is complete its winner becomes
// the cell and its per-candidate times are added into the accumulator of the parent bucket one
// level up; a parent completes with its second (or last) child. Durations add exactly, so every
// level's cell is the exact argmax over the events (cells themselves are never merged: the
// dominant region of two buckets is not a function of their two dominant regions). Cost per
// location: O(events + level-0 buckets x regions per bucket), one pass over the events.
//
// Accumulators are dense per level, indexed by a per-location "slot" (the regions this location
// actually enters, slot 0 = idle), so adding and merging are O(1) per entry, and a list of the
// touched slots keeps completing a bucket proportional to what happened in it.

#include "model/trace/eventstream.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace rankscope {

class SummarySweep
{
public:
    /// Events between two calls of the tick callback (also the cancel latency in events).
    static constexpr uint64_t kTickEvents = uint64_t(1) << 16;

    /// The run [origin, end), level-0 bucket width 2^shift, levelOffset[k] the first cell of
    /// level k (levelOffset.back() = total cells), regionCount the trace's region count.
    SummarySweep(int64_t origin, int64_t end, unsigned shift, std::span<const uint64_t> levelOffset,
                 size_t regionCount);

    /// Fills cells[0, levelOffset.back()) from `events`. Calls tick(n) after every n events
    /// handled (at most kTickEvents apart); stops and returns false when tick returns false.
    bool run(const EventStream& events, uint32_t* cells, const std::function<bool(uint64_t)>& tick);

private:
    static constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

    void reset();
    uint32_t slotOf(uint32_t region);
    void leave(uint32_t region);
    void addSegment(int64_t begin, int64_t end, uint32_t slot);
    void add(unsigned level, uint32_t slot, int64_t ns)
    {
        int64_t& t = time_[level][slot];
        if (t == 0) touched_[level].push_back(slot);
        t += ns;
    }
    void finishBucket(unsigned level);

    int64_t origin_;
    int64_t end_;
    int64_t width_; // level-0 bucket width
    std::span<const uint64_t> levelOffset_;
    unsigned levels_;

    std::vector<uint32_t> slotOfRegion_; // kNoSlot for regions not seen on this location
    std::vector<uint32_t> regionOfSlot_; // slot 0 is idle (the invalid id)
    std::vector<uint32_t> stack_;        // slots of the open regions, innermost last

    std::vector<std::vector<int64_t>> time_;     // [level][slot]: time in the current bucket
    std::vector<std::vector<uint32_t>> touched_; // [level]: slots with time > 0
    std::vector<uint64_t> bucket_;               // [level]: the current bucket
    int64_t bucketEnd_ = 0;                      // end of the current level-0 bucket
    uint32_t* cells_ = nullptr;
};

} // namespace rankscope
