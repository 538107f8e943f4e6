#pragma once
// Paints one frame of a TimelineView: time axis with grid, row labels, region cells (one fill
// per colour for the whole frame), message lines, the selection, the zoom rubber band and the
// legend. Its cost is O(pixels x rows) plus the events of the window when zoomed in.

#include "model/trace/ids.h"

#include <QRect>
#include <QSize>
#include <QString>
#include <vector>

class QPainter;
class QPalette;

namespace rankscope {

class TimeMapping;
struct TimelineState;

class TimelinePainter
{
public:
    TimelinePainter(TimelineState& d, const QPalette& palette, QSize size);

    void paint(QPainter& p);

    /// Label of a row: "Rank 3", or "Ranks 0-12" for a group.
    static QString rowLabel(const std::vector<RankId>& ranks);
    /// The axis's corner text: "span 15.00 ms", or at deep zoom the time the tick labels count
    /// from, with every digit it needs ("62.4640 ms +").
    static QString cornerText(const TimeMapping& mapping);
    /// Where the corner text goes: in the corner above the row labels when it fits there, else
    /// from the same left edge over the start of the axis, whole (the tick labels it covers are
    /// left out), never elided: the absolute time matters most when zoomed in deepest.
    static QRect cornerRect(int textWidth, int labelWidth, int axisHeight);

private:
    void paintAxis(QPainter& p);
    void paintLabels(QPainter& p);
    void paintCells(QPainter& p);
    void paintMessages(QPainter& p);
    void paintHighlightedMessages(QPainter& p);
    void paintSelection(QPainter& p);
    void paintOverlays(QPainter& p);
    void paintSummaryNote(QPainter& p);
    int rowCenter(RankId rank) const;

    TimelineState& d;
    const QPalette& palette_;
    QSize size_;
};

} // namespace rankscope
