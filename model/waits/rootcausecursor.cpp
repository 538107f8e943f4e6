#include "model/waits/rootcausecursor.h"

#include "model/trace/eventstream.h"

namespace rankscope {

RootCauseCursor::RootCauseCursor(const EventStream& events, const std::vector<uint32_t>* hotspotOf,
                                 size_t hotspotCount)
    : events_(&events), hotspotOf_(hotspotOf), sums_(hotspotCount, 0), snapshot_(hotspotCount, 0),
      interval_(hotspotCount, 0)
{
    stack_.reserve(64);
}

void RootCauseCursor::charge(int64_t t)
{
    if (started_ && t > lastTime_ && !stack_.empty()) {
        const uint32_t h = (*hotspotOf_)[stack_.back().value];
        if (h != kNotHotspot) sums_[h] += t - lastTime_;
    }
    if (!started_ || t > lastTime_) lastTime_ = t;
    started_ = true;
}

void RootCauseCursor::advanceTo(int64_t t)
{
    const EventStream& ev = *events_;
    const size_t n = ev.size();
    // Events at exactly t change only which region is on top, never the time charged up to t.
    while (pos_ < n && ev.time(pos_) <= t) {
        charge(ev.time(pos_));
        const EventKind kind = ev.kind(pos_);
        if (kind == EventKind::Enter) {
            stack_.push_back(ev.region(pos_));
        } else if (kind == EventKind::Leave) {
            const RegionId region = ev.region(pos_);
            size_t k = stack_.size();
            while (k > 0 && stack_[k - 1] != region)
                --k;
            if (k > 0) stack_.resize(k - 1);
        }
        ++pos_;
    }
    charge(t);
}

const std::vector<int64_t>& RootCauseCursor::intervalUntil(int64_t t)
{
    if (synced_ && t <= syncTime_) return interval_;
    advanceTo(t);
    for (size_t h = 0; h < sums_.size(); ++h) {
        interval_[h] = sums_[h] - snapshot_[h];
        snapshot_[h] = sums_[h];
    }
    syncTime_ = t;
    synced_ = true;
    return interval_;
}

} // namespace rankscope
