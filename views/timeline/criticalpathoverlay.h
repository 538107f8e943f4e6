#pragma once
// Draws the critical path (model/waits/criticalpath.h) over a timeline frame: a thick cyan line on
// a dark casing along the middle of the row of the rank the path is on, and a vertical step where
// it jumps to another rank. The segments are folded into pieces (maximal runs on one rank) when
// the path is set. Zoomed in (at most a few pieces per pixel in the window) each piece is drawn;
// zoomed out the line is sampled once per pixel column (the rank the path is on at that time,
// one binary search each), so a frame costs O(pixels) or O(pieces in the window), never the
// whole path.

#include "model/trace/ids.h"

#include <QColor>
#include <QRect>
#include <memory>
#include <vector>

class QPainter;

namespace rankscope {

struct CriticalPath;
struct TimelineState;

class CriticalPathOverlay
{
public:
    /// The line's colour (also in the legend).
    static QColor color();

    void setPath(std::shared_ptr<const CriticalPath> path);
    const std::shared_ptr<const CriticalPath>& path() const { return path_; }
    bool empty() const { return pieces_.empty(); }

    /// Paints the path over the rows of `d` (clipped to d.plot).
    void paint(QPainter& p, const TimelineState& d) const;
    /// One legend swatch; returns the width used.
    int paintLegend(QPainter& p, const QRect& rect, const QColor& text) const;
    /// Whether the path is on `rank` at trace time `t`.
    bool onPath(RankId rank, double t) const;

private:
    struct Piece
    {
        RankId rank;
        int64_t begin = 0;
        int64_t end = 0;
    };
    /// Index of the piece holding trace time `t` (clamped to the first / last).
    size_t pieceAt(double t) const;

    std::shared_ptr<const CriticalPath> path_;
    std::vector<Piece> pieces_; ///< in time order, contiguous
};

} // namespace rankscope
