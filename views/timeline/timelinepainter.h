#pragma once
// Paints one frame of a TimelineView: time axis with grid, row labels, region cells (one fill
// per colour for the whole frame), message lines, the selection, the zoom rubber band and the
// legend. Its cost is O(pixels x rows) plus the events of the window when zoomed in.

#include "model/trace/ids.h"

#include <QSize>
#include <QString>
#include <vector>

class QPainter;
class QPalette;

namespace rankscope {

struct TimelineState;

class TimelinePainter
{
public:
    TimelinePainter(TimelineState& d, const QPalette& palette, QSize size);

    void paint(QPainter& p);

    /// Label of a row: "Rank 3", or "Ranks 0-12" for a group.
    static QString rowLabel(const std::vector<RankId>& ranks);

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
