#pragma once
// TimelineView's private state, shared by its two source files: timelineview.cpp (drawing,
// input, options) and timelinenavigation.cpp (zoom history, find, go to time).

#include "views/timeline/timelinepicker.h"
#include "views/timeline/timelinestate.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/zoomhistory.h"

#include <QElapsedTimer>
#include <limits>

namespace rankscope {

struct TimelineView::Private : TimelineState
{
    explicit Private(TimelineView* view) : q(view) { clock.start(); }

    void updateDisplayedRanks();
    void ensureLayout();
    /// Adopts `m`; emits visibleRangeChanged only when the range moved, and records the move
    /// in the history (a `continuous` one folds into the gesture it belongs to).
    void applyMapping(const TimeMapping& m, bool continuous = false);
    /// Shows [begin, end) of displayed time, as one step of the history.
    void showRange(double begin, double end, bool continuous);
    void zoomBy(double factor, double anchorPixel, bool continuous = false);
    void panBy(double pixels, bool continuous = false);
    void selectCall(bool forward);
    /// Starts the history over at the current range (a new trace or time base).
    void resetHistory();

    TimelineView* q;
    TimelinePicker picker{*this};
    ZoomHistory history;
    QElapsedTimer clock;
    bool replaying = false; ///< Back/Forward is moving the view: not a new state
    /// Displayed time marked by Go to Time (a vertical line); NaN when none.
    double marker = std::numeric_limits<double>::quiet_NaN();
};

} // namespace rankscope
