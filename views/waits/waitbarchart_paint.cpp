// WaitBarChart's drawing: axis, legend and bars (kept apart from its geometry and input).
#include "views/timeline/timemapping.h"
#include "views/waits/waitbarchart.h"
#include "views/waits/waitpalette.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {
constexpr int kMargin = 4;
const QColor kPlotBackground(236, 236, 240); // grey, so white and yellow bars stay visible
} // namespace

void WaitBarChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect plot = plotArea();
    p.fillRect(plot, kPlotBackground);
    paintLegend(p);
    if (maxTotal_ == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("No waiting"));
        return;
    }
    paintAxis(p, plot);
    const int columns = columnCount();
    for (int c = 0; c < columns; ++c)
        paintBar(p, plot, c);
    if (hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(plot.adjusted(0, 0, -1, -1));
    }
}

void WaitBarChart::paintAxis(QPainter& p, const QRect& plot) const
{
    const QFontMetrics fm = fontMetrics();
    TimeMapping m; // reused for its 1-2-5 ticks: "time" runs up the y axis here
    m.setLimits(0, valueTop());
    m.setVisible(0, valueTop());
    m.setWidth(plot.height());
    for (const TimeMapping::Tick& t : m.ticks(std::max(24, 2 * fm.height()))) {
        if (!t.major) continue;
        const int y = plot.bottom() - int(std::lround(m.toPixel(t.ns)));
        p.setPen(QColor(255, 255, 255));
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawLine(plot.left() - 3, y, plot.left(), y);
        const QRect label(0, y - fm.height() / 2, plot.left() - kMargin - 2, fm.height());
        p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    // Rank labels: a 1-2-5 step wide enough that labels never overlap.
    const double perRank = double(plot.width()) / double(ranks_);
    const int labelWidth = fm.horizontalAdvance(QString::number(ranks_ - 1)) + 8;
    uint64_t step = 1;
    for (uint64_t decade = 1; double(step) * perRank < labelWidth; decade *= 10)
        for (uint64_t f : {1, 2, 5})
            if (double(step = f * decade) * perRank >= labelWidth) break;
    const int y = plot.bottom() + 3;
    for (uint64_t r = 0; r < ranks_; r += step) {
        const int x = plot.left() + int((double(r) + 0.5) * perRank);
        p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 2);
        QRect label(x - labelWidth / 2, y, labelWidth, fm.height());
        label.moveLeft(std::clamp(label.left(), 0, width() - labelWidth));
        p.drawText(label, Qt::AlignHCenter | Qt::AlignTop, QString::number(r));
    }
}

void WaitBarChart::paintLegend(QPainter& p) const
{
    const QFontMetrics fm = fontMetrics();
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QPoint(kMargin, kMargin + fm.ascent()), tr("Waiting per rank"));
    for (const LegendItem& item : legendLayout()) {
        const QRect swatch(item.rect.left(), item.rect.top() + (fm.height() - kSwatch) / 2, kSwatch,
                           kSwatch);
        p.fillRect(swatch, WaitPalette::color(item.pattern));
        p.setPen(QColor(80, 80, 80));
        p.drawRect(swatch.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(item.rect.adjusted(kSwatch + 4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   WaitPalette::name(item.pattern));
    }
}

void WaitBarChart::paintBar(QPainter& p, const QRect& plot, int column) const
{
    const int columns = columnCount();
    const double cw = double(plot.width()) / columns;
    const int x0 = plot.left() + int(std::lround(column * cw));
    const int x1 = plot.left() + int(std::lround((column + 1) * cw));
    const int gap = cw >= 4 ? std::max(1, int(cw * 0.15)) : 0;
    const uint32_t rank = shownRank(column);
    const bool highlighted = highlighted_.valid() && columns > 0 && [&] {
        uint32_t first = 0, last = 0;
        columnRanks(column, &first, &last);
        return first <= highlighted_.value && highlighted_.value <= last;
    }();
    if (highlighted) {
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(70);
        p.fillRect(QRect(x0, plot.top(), std::max(1, x1 - x0), plot.height()), band);
    }
    const double scale = plot.height() / valueTop();
    double below = 0;
    const QRect bar(x0 + gap / 2, 0, std::max(1, x1 - x0 - gap), 0);
    for (size_t i = 0; i < kWaitPatternCount; ++i) {
        const int64_t v = sums_[rank][i];
        if (v == 0) continue;
        const int yTop = plot.bottom() + 1 - int(std::lround((below + double(v)) * scale));
        const int yBottom = plot.bottom() + 1 - int(std::lround(below * scale));
        below += double(v);
        if (yBottom <= yTop) continue;
        const QColor c = WaitPalette::color(WaitPattern(i));
        const QRect segment(bar.left(), yTop, bar.width(), yBottom - yTop);
        p.fillRect(segment, c);
        if (bar.width() >= 4) { // outline wide bars so light colours keep an edge
            p.setPen(c.darker(150));
            p.setBrush(Qt::NoBrush);
            p.drawRect(segment.adjusted(0, 0, -1, -1));
        }
    }
    if (highlighted && totals_[rank] > 0) {
        const int yTop = plot.bottom() + 1 - int(std::lround(double(totals_[rank]) * scale));
        p.setPen(QPen(Qt::black, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(bar.left(), yTop, bar.width(), plot.bottom() + 1 - yTop));
    }
}

} // namespace rankscope
