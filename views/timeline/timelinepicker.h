#pragma once
// Hit-testing and navigation on a timeline: what lies under a pixel (the region drawn there, so
// what you see is what you pick, or a drawn message line), the tooltip describing it, and the
// next / previous outermost MPI call of a rank. Every query touches the events near one pixel
// or one call (plus a StackCheckpoints replay), never a whole rank.

#include "model/waits/waitstates.h"
#include "views/timeline/timelineselection.h"

#include <QPoint>
#include <QString>
#include <cstddef>

namespace rankscope {

struct TimelineState;

class TimelinePicker
{
public:
    explicit TimelinePicker(TimelineState& state) : d(state) {}

    /// The region instance drawn at widget position `pos` on a single-rank row, or the message
    /// line within a few pixels of it; invalid when nothing (or a group row) is there.
    TimelineSelection itemAt(QPoint pos) const;
    /// Rich-text tooltip for what is at `pos` (also group rows); empty when nothing.
    QString toolTipAt(QPoint pos) const;

    /// The outermost MPI call of `rank` whose Enter is the first at or after event `from`
    /// (forward) or the last before it (backward); invalid when there is none.
    TimelineSelection nextCall(RankId rank, size_t from, bool forward) const;

    /// The region instance whose Enter is event `enter` of `rank`'s main location.
    TimelineSelection instance(RankId rank, uint32_t enter) const;

    /// The send call of message `id`, with the message (TimelineView::firstHighlightedMessage).
    TimelineSelection messageInstance(MessageId id) const;
    /// The first highlighted message sent in the visible range (invalid when none).
    TimelineSelection firstHighlightedMessage() const;

    /// Start and end (trace time) of a selected region instance.
    std::pair<int64_t, int64_t> extent(const TimelineSelection& s) const;

private:
    TimelineSelection messageAt(QPoint pos) const;
    RegionId drawnRegion(int row, int pixel) const;
    QString describe(const TimelineSelection& s) const;
    QString describeMessage(MessageId id) const;
    QString describeWait(const WaitState& w) const;

    TimelineState& d;
};

} // namespace rankscope
