#include "views/timeline/zoomhistory.h"

namespace rankscope {

void ZoomHistory::reset(Range r)
{
    states_.assign(1, r);
    at_ = 0;
    lastContinuousMs_.reset();
}

void ZoomHistory::moved(Range r, int64_t nowMs, bool continuous)
{
    const bool fold =
        continuous && lastContinuousMs_ && nowMs - *lastContinuousMs_ <= kGestureGapMs;
    lastContinuousMs_ = continuous ? std::optional<int64_t>(nowMs) : std::nullopt;
    if (states_.empty()) {
        reset(r);
        return;
    }
    states_.resize(at_ + 1); // a new move forgets the states ahead
    if (fold && at_ > 0) {
        states_[at_] = r;
        return;
    }
    if (states_[at_] == r) return;
    states_.push_back(r);
    if (states_.size() > kLimit) states_.erase(states_.begin());
    at_ = states_.size() - 1;
}

std::optional<ZoomHistory::Range> ZoomHistory::back()
{
    if (!canGoBack()) return std::nullopt;
    lastContinuousMs_.reset();
    return states_[--at_];
}

std::optional<ZoomHistory::Range> ZoomHistory::forward()
{
    if (!canGoForward()) return std::nullopt;
    lastContinuousMs_.reset();
    return states_[++at_];
}

} // namespace rankscope
