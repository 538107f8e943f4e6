#include "views/plots/log2histogramchart.h"

#include "views/panes/durationformat.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace rankscope {

Log2HistogramChart::Log2HistogramChart(Unit unit, QString title, QWidget* parent)
    : QWidget(parent), unit_(unit), title_(std::move(title))
{
    setMouseTracking(true);
}

QString Log2HistogramChart::valueText(uint64_t v) const
{
    switch (unit_) {
    case Unit::Bytes:
        return formatBytes(v);
    case Unit::Nanoseconds:
        return formatDuration(double(v));
    case Unit::BytesPerSecond:
        return formatBytes(v) + QStringLiteral("/s");
    }
    return {};
}

void Log2HistogramChart::setHistogram(const Log2Histogram& histogram)
{
    bars_.clear();
    largest_ = 0;
    const auto& c = histogram.counts;
    const auto first = std::find_if(c.begin(), c.end(), [](uint64_t n) { return n > 0; });
    for (auto it = first; it != c.end(); ++it) {
        const auto k = uint32_t(it - c.begin());
        const QString range = k == 0 ? QStringLiteral("0")
                                     : QStringLiteral("[%1, %2)")
                                           .arg(valueText(Log2Histogram::lower(k)),
                                                valueText(Log2Histogram::upper(k)));
        bars_.push_back({k, range, *it});
        largest_ = std::max(largest_, *it);
    }
    update();
}

QRectF Log2HistogramChart::plotRect() const
{
    const int line = fontMetrics().height();
    // The title above, a count over the tallest bar, a label line under the bars.
    return QRectF(6, 2.0 * line + 6, width() - 12, height() - 3.0 * line - 12);
}

QRectF Log2HistogramChart::barRect(size_t i) const
{
    const QRectF plot = plotRect();
    const double slot = plot.width() / double(std::max<size_t>(bars_.size(), 1));
    const double h = largest_ == 0 ? 0 : plot.height() * double(bars_[i].count) / double(largest_);
    const double gap = std::min(6.0, slot * 0.15);
    return QRectF(plot.left() + slot * double(i) + gap / 2, plot.bottom() - h, slot - gap, h);
}

void Log2HistogramChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int line = fontMetrics().height();
    p.setPen(palette().text().color());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(6, 2, width() - 12, line), Qt::AlignLeft | Qt::AlignVCenter, title_);
    p.setFont(font());
    if (bars_.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No messages"));
        return;
    }
    const QRectF plot = plotRect();
    const QColor fill = palette().highlight().color();
    // Label every bar when they fit, else every second or fourth: lower bounds only.
    const double slot = plot.width() / double(bars_.size());
    const int widest = fontMetrics().horizontalAdvance(valueText(Log2Histogram::lower(40))) + 8;
    const size_t every = slot >= widest ? 1 : slot * 2 >= widest ? 2 : 4;
    for (size_t i = 0; i < bars_.size(); ++i) {
        const QRectF bar = barRect(i);
        p.fillRect(bar, fill);
        if (bars_[i].count > 0 &&
            slot >= fontMetrics().horizontalAdvance(formatCount(bars_[i].count)) + 2)
            p.drawText(QRectF(bar.left() - 4, bar.top() - line, bar.width() + 8, line),
                       Qt::AlignHCenter | Qt::AlignBottom, formatCount(bars_[i].count));
        if (i % every == 0) {
            const uint32_t k = bars_[i].bin;
            const QString label = k == 0 ? QStringLiteral("0") : valueText(Log2Histogram::lower(k));
            // Centred under the bar, but kept inside the widget at both ends.
            const double w = fontMetrics().horizontalAdvance(label) + 4;
            const double x = std::clamp(bar.center().x() - w / 2, 0.0, std::max(0.0, width() - w));
            p.drawText(QRectF(x, plot.bottom() + 2, w, line), Qt::AlignHCenter | Qt::AlignTop,
                       label);
        }
    }
    p.setPen(palette().mid().color());
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
}

bool Log2HistogramChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
        const QRectF plot = plotRect();
        for (size_t i = 0; i < bars_.size(); ++i) {
            const QRectF bar = barRect(i);
            if (pos.x() >= bar.left() && pos.x() < bar.right() && pos.y() >= plot.top() - 20) {
                QToolTip::showText(
                    static_cast<QHelpEvent*>(event)->globalPos(),
                    tr("%1: %2 messages").arg(bars_[i].range, formatCount(bars_[i].count)), this);
                return true;
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace rankscope
