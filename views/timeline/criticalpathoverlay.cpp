#include "views/timeline/criticalpathoverlay.h"

#include "model/waits/criticalpath.h"
#include "views/timeline/timelinestate.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace rankscope {

namespace {

/// Pieces per pixel above which the line is sampled per pixel column instead.
constexpr double kMaxPiecesPerPixel = 2.0;

} // namespace

QColor CriticalPathOverlay::color()
{
    // Bright cyan: no region role or wait pattern uses it, and on a dark casing it stands out
    // over every region colour.
    return QColor(0x00, 0xe5, 0xff);
}

void CriticalPathOverlay::setPath(std::shared_ptr<const CriticalPath> path)
{
    path_ = std::move(path);
    pieces_.clear();
    if (!path_) return;
    for (const CriticalSegment& s : path_->segments) {
        if (!pieces_.empty() && pieces_.back().rank == s.rank && pieces_.back().end == s.begin)
            pieces_.back().end = s.end;
        else
            pieces_.push_back({s.rank, s.begin, s.end});
    }
}

size_t CriticalPathOverlay::pieceAt(double t) const
{
    const auto it = std::partition_point(pieces_.begin(), pieces_.end(),
                                         [t](const Piece& p) { return double(p.end) <= t; });
    return std::min(size_t(it - pieces_.begin()), pieces_.size() - 1);
}

bool CriticalPathOverlay::onPath(RankId rank, double t) const
{
    if (pieces_.empty()) return false;
    const Piece& p = pieces_[pieceAt(t)];
    return p.rank == rank && double(p.begin) <= t && t < double(p.end);
}

void CriticalPathOverlay::paint(QPainter& p, const TimelineState& d) const
{
    if (pieces_.empty()) return;
    const double begin = d.traceTime(d.mapping.begin());
    const double end = d.traceTime(d.mapping.end());
    if (double(pieces_.back().end) <= begin || double(pieces_.front().begin) >= end) return;
    const auto yOf = [&d](RankId rank) -> double {
        const int row = d.rows.rowOf(rank);
        return row < 0 ? -1.0 : d.rowRect(row).center().y() + 0.5;
    };

    // The polyline: (x, y) points; a hidden rank breaks it.
    QPainterPath line;
    bool open = false;
    const auto addPoint = [&](double x, double y) {
        if (y < 0) {
            open = false;
            return;
        }
        if (open)
            line.lineTo(x, y);
        else
            line.moveTo(x, y);
        open = true;
    };
    const size_t first = pieceAt(begin);
    const size_t last = pieceAt(end);
    const double width = std::max(1, d.plot.width());
    if (double(last - first + 1) <= kMaxPiecesPerPixel * width) {
        for (size_t k = first; k <= last; ++k) {
            const Piece& piece = pieces_[k];
            const double x0 = std::max(d.xOf(double(piece.begin)), double(d.plot.left()) - 2);
            const double x1 = std::min(d.xOf(double(piece.end)), double(d.plot.right()) + 2);
            const double y = yOf(piece.rank);
            addPoint(x0, y);
            addPoint(x1, y);
        }
    } else {
        for (int x = d.plot.left(); x <= d.plot.right(); ++x) {
            const Piece& piece = pieces_[pieceAt(d.timeAtX(x + 0.5))];
            addPoint(x, yOf(piece.rank));
            addPoint(x + 1, yOf(piece.rank));
        }
    }

    p.save();
    p.setClipRect(d.plot);
    p.setRenderHint(QPainter::Antialiasing, true);
    const double thickness = std::clamp(d.rows.rowHeight() / 6.0, 2.0, 4.0);
    // A dark casing under the line keeps it readable over any region colour.
    p.setPen(
        QPen(QColor(20, 20, 20, 230), thickness + 3, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    p.drawPath(line);
    p.setPen(QPen(color(), thickness, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    p.drawPath(line);
    p.restore();
}

int CriticalPathOverlay::paintLegend(QPainter& p, const QRect& rect, const QColor& text) const
{
    const QFontMetrics fm(p.font());
    const QString label = QStringLiteral("critical path");
    const int y = rect.center().y();
    p.save();
    p.setPen(QPen(QColor(20, 20, 20), 7));
    p.drawLine(rect.left(), y, rect.left() + 18, y);
    p.setPen(QPen(color(), 4));
    p.drawLine(rect.left(), y, rect.left() + 18, y);
    p.setPen(text);
    p.drawText(QRect(rect.left() + 24, rect.top(), fm.horizontalAdvance(label) + 2, rect.height()),
               Qt::AlignLeft | Qt::AlignVCenter, label);
    p.restore();
    return 24 + fm.horizontalAdvance(label) + 2;
}

} // namespace rankscope
