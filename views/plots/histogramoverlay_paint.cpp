// HistogramOverlay's drawing: bars, axes with their ticks, legend (apart from data and layout).
#include "views/panes/durationformat.h"
#include "views/plots/histogramoverlay.h"
#include "views/plots/histogramoverlay_p.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rankscope {

using namespace histogramoverlay;

void HistogramOverlay::paintBars(QPainter& p, const Histogram& h, const QColor& colour,
                                 const QRect& bounds, const HistogramAxis& x) const
{
    QColor fill = colour;
    fill.setAlpha(kFillAlpha);
    const double base = yToPixel(0, bounds);
    QPen pen(colour, 1);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(fill);
    for (const HistogramBin& b : h.bins) {
        if (b.frequency <= 0) continue;
        double x0 = x.toPixel(b.lower);
        double x1 = x.toPixel(b.upper);
        if (x1 - x0 < kMinBarPixels) {
            const double c = (x0 + x1) / 2;
            x0 = c - kMinBarPixels / 2;
            x1 = c + kMinBarPixels / 2;
        }
        const double top = yToPixel(b.frequency, bounds);
        p.drawRect(QRectF(x0, top, x1 - x0, base - top));
    }
    p.setBrush(Qt::NoBrush);
}

void HistogramOverlay::paintLegend(QPainter& p, const QRect& bounds) const
{
    struct Item
    {
        QString text;
        QColor colour;
        int alpha;
    };
    std::vector<Item> items;
    if (hasData(measured_))
        items.push_back(
            {tr("measured (%1)").arg(formatCount(measured_->count)), measuredColor(), kFillAlpha});
    if (hasData(predicted_))
        items.push_back({tr("predicted (%1)").arg(formatCount(predicted_->count)), predictedColor(),
                         kFillAlpha});
    if (band_ && bandVisible_ && band_->second > band_->first)
        items.push_back({tr("interval of the predicted maximum"), predictedColor(), 40});
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    const int swatch = fm.height() - 4;
    int width = 0;
    for (const Item& i : items)
        width = std::max(width, fm.horizontalAdvance(i.text));
    const int boxW = width + swatch + 3 * kPad / 2 + kPad;
    const int boxH = int(items.size()) * fm.height() + kPad;
    // Top right, unless the top left hides less: fewer tall bars and no band under it.
    QRect box(plot.right() - boxW - kPad, plot.top() + kPad, boxW, boxH);
    const QRect leftBox(plot.left() + kPad, box.top(), boxW, boxH);
    const HistogramAxis x = xAxis(bounds);
    const auto covered = [&](const QRect& r) {
        double score = 0;
        for (const auto* h : {&measured_, &predicted_})
            if (hasData(*h))
                for (const HistogramBin& b : (*h)->bins)
                    if (x.toPixel(b.upper) >= r.left() && x.toPixel(b.lower) <= r.right())
                        score = std::max(score, b.frequency);
        if (band_ && bandVisible_ && x.toPixel(band_->second) >= r.left() &&
            x.toPixel(band_->first) <= r.right())
            score += 1;
        return score;
    };
    if (covered(leftBox) < covered(box)) box = leftBox;
    QColor back = palette().color(QPalette::Base);
    back.setAlpha(220);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(back);
    p.drawRect(box);
    int y = box.top() + kPad / 2;
    for (const Item& i : items) {
        QColor fill = i.colour;
        fill.setAlpha(i.alpha);
        p.setPen(i.colour);
        p.setBrush(fill);
        p.drawRect(box.left() + kPad / 2, y + 2, swatch, swatch);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(box.left() + kPad + swatch, y, width + kPad, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, i.text);
        y += fm.height();
    }
    p.setBrush(Qt::NoBrush);
}

void HistogramOverlay::paintAxes(QPainter& p, const QRect& bounds, const HistogramAxis& x) const
{
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    const QColor grid = palette().color(QPalette::Midlight);
    const QColor text = palette().color(QPalette::Text);
    // y: relative frequency in percent, 1-2-5 steps, with a light grid.
    const double top = frequencyTop();
    const double step =
        HistogramAxis::niceStep(top * std::max(1, 2 * fm.height()) / std::max(1, plot.height()));
    for (int k = 0; k * step <= top * (1 + 1e-9); ++k) {
        const double f = k * step;
        const int y = int(std::lround(yToPixel(f, bounds)));
        p.setPen(grid);
        if (k > 0) p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        const int decimals = step * 100 >= 1 ? 0 : 1;
        p.drawText(
            QRect(bounds.left(), y - fm.height() / 2, plot.left() - bounds.left() - 4, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("%1 %").arg(f * 100, 0, 'f', decimals));
    }
    // x: time ticks under the plot; labels that would collide with the previous one are skipped.
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    int lastRight = std::numeric_limits<int>::min();
    if (x.clampsZero()) {
        // Log axis with zeros: they sit at the left edge; mark it "0" and break the axis.
        const int x0 = plot.left();
        p.drawText(QRect(x0 - 20, plot.bottom() + 4, 40, fm.height()), Qt::AlignCenter,
                   QStringLiteral("0"));
        for (int dx : {6, 10})
            p.drawLine(x0 + dx - 2, plot.bottom() + 3, x0 + dx + 2, plot.bottom() - 3);
        lastRight = x0 + 20;
    }
    for (const HistogramAxis::Tick& t : x.ticks(std::max(60, 6 * fm.averageCharWidth()))) {
        const int px = int(std::lround(x.toPixel(t.value)));
        if (px < plot.left() || px > plot.right() + 1) continue;
        p.drawLine(px, plot.bottom(), px, plot.bottom() + (t.major ? 5 : 2));
        if (t.label.isEmpty()) continue;
        const int w = fm.horizontalAdvance(t.label);
        const QRect r(px - w / 2, plot.bottom() + 6, w, fm.height());
        if (r.left() <= lastRight + 6 || r.right() > bounds.right()) continue;
        p.drawText(r, Qt::AlignCenter, t.label);
        lastRight = r.right();
    }
    QString label = xLabel_;
    if (x.scale() == HistogramAxis::Scale::Log) label += tr(" (log scale)");
    p.drawText(QRect(plot.left(), plot.bottom() + 6 + fm.height(), plot.width(), fm.height()),
               Qt::AlignCenter, label);
}

} // namespace rankscope
