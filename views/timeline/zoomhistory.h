#pragma once
// The zoom and pan states a timeline went through, for Back and Forward (as a browser's
// history): every move pushes the new visible range and drops what lay ahead; a continuous
// gesture (a drag, a burst of wheel notches, a coupled view following) folds into one entry, so
// Back undoes the whole gesture. Plain C++, no Qt: the timeline gives it ranges and times.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rankscope {

class ZoomHistory
{
public:
    struct Range
    {
        double begin = 0;
        double end = 0;
        bool operator==(const Range&) const = default;
    };
    /// Entries kept; the oldest go first.
    static constexpr size_t kLimit = 200;
    /// Moves of one continuous gesture closer than this (ms) fold into one entry.
    static constexpr int64_t kGestureGapMs = 400;

    /// Forgets everything; `r` is the only state (a new trace, a new time base).
    void reset(Range r);
    /// The view moved to `r` at `nowMs`. A `continuous` move within kGestureGapMs of the last
    /// continuous one replaces the newest entry instead of pushing one.
    void moved(Range r, int64_t nowMs, bool continuous);
    /// Ends a gesture: the next continuous move starts a new entry (a new drag began).
    void endGesture() { lastContinuousMs_.reset(); }

    bool canGoBack() const { return at_ > 0; }
    bool canGoForward() const { return at_ + 1 < states_.size(); }
    /// The previous / next state, which becomes the current one; nullopt at either end.
    std::optional<Range> back();
    std::optional<Range> forward();

    size_t size() const { return states_.size(); }
    size_t position() const { return at_; }

private:
    std::vector<Range> states_;
    size_t at_ = 0;
    std::optional<int64_t> lastContinuousMs_;
};

} // namespace rankscope
