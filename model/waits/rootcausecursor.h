#pragma once
// A forward-only cursor over one rank's main location that keeps the running exclusive time of
// each hotspot function, so the hotspot time between two synchronisation points is the difference
// of two snapshots (ALGORITHMS.md §6.4). Memory: the open-region stack and 3 x hotspots sums.
//
// Exclusive time is charged to the innermost open region between consecutive timestamps, the
// same definition as the profile (model/profile/profile.h), with its broken-nesting rules: a Leave
// closes the innermost open instance of its region and all above it; a Leave with none open is
// ignored.

#include "model/trace/ids.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class EventStream;

class RootCauseCursor
{
public:
    /// `hotspotOf[region]` is the hotspot index of a region, or kNotHotspot.
    RootCauseCursor(const EventStream& events, const std::vector<uint32_t>* hotspotOf,
                    size_t hotspotCount);

    static constexpr uint32_t kNotHotspot = UINT32_MAX;

    /// Hotspot time from the previous synchronisation point to time `t` (non-decreasing over
    /// calls); `t` becomes the previous point. Repeated calls at the same `t` (one MPI call that
    /// is the synchronisation point of several waits) return the same interval.
    const std::vector<int64_t>& intervalUntil(int64_t t);

    /// Events consumed so far.
    size_t position() const { return pos_; }

private:
    void advanceTo(int64_t t);
    void charge(int64_t t);

    const EventStream* events_;
    const std::vector<uint32_t>* hotspotOf_;
    std::vector<RegionId> stack_;
    std::vector<int64_t> sums_;     // running exclusive time per hotspot
    std::vector<int64_t> snapshot_; // sums_ at the previous synchronisation point
    std::vector<int64_t> interval_; // the last interval returned
    size_t pos_ = 0;
    int64_t lastTime_ = 0; // time up to which sums_ are charged
    bool started_ = false; // lastTime_ is set (the first event or sync point seen)
    int64_t syncTime_ = 0;
    bool synced_ = false;
};

} // namespace rankscope
