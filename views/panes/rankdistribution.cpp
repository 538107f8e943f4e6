#include "views/panes/rankdistribution.h"

#include "views/panes/durationformat.h"

#include <QPainter>
#include <algorithm>
#include <numeric>

namespace rankscope {

RankDistribution::RankDistribution(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(160, 120);
}

void RankDistribution::setValues(std::vector<int64_t> values, const QString& title)
{
    values_ = std::move(values);
    title_ = title;
    update();
}

QSize RankDistribution::sizeHint() const
{
    return {320, 200};
}

void RankDistribution::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm(font());
    const QColor text = palette().color(QPalette::Text);
    const int line = fm.height();
    p.setPen(text);
    if (values_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Select a call path to see it per rank"));
        return;
    }
    const QRect titleRect(6, 4, width() - 12, line);
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title_, Qt::ElideMiddle, titleRect.width()));

    const int64_t maxValue =
        std::max<int64_t>(1, *std::max_element(values_.begin(), values_.end()));
    const double mean = double(std::accumulate(values_.begin(), values_.end(), int64_t(0))) /
                        double(values_.size());
    const QString maxText = formatDuration(double(maxValue));
    const int axis = fm.horizontalAdvance(maxText) + 10;
    const QRect plot(axis, titleRect.bottom() + 8, std::max(10, width() - axis - 8),
                     std::max(10, height() - titleRect.bottom() - 8 - line - 8));
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.setPen(text);
    p.drawText(QRect(0, plot.top() - line / 2, axis - 4, line), Qt::AlignRight | Qt::AlignVCenter,
               maxText);
    p.drawText(QRect(0, plot.bottom() - line / 2, axis - 4, line),
               Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    const size_t n = values_.size();
    p.drawText(QRect(plot.left(), plot.bottom() + 2, plot.width(), line),
               Qt::AlignLeft | Qt::AlignTop, tr("rank 0"));
    p.drawText(QRect(plot.left(), plot.bottom() + 2, plot.width(), line),
               Qt::AlignRight | Qt::AlignTop, tr("rank %1").arg(n - 1));

    // Bars: one per rank, or per pixel column (the largest of its ranks) when ranks outnumber
    // the pixels.
    const QColor bar = palette().color(QPalette::Highlight);
    const double perRank = double(plot.width()) / double(n);
    const auto yOf = [&](double v) { return plot.bottom() - v / double(maxValue) * plot.height(); };
    if (perRank >= 1.0) {
        const double gap = perRank >= 4.0 ? 1.0 : 0.0;
        for (size_t r = 0; r < n; ++r) {
            const double x0 = plot.left() + double(r) * perRank;
            const QRectF b(QPointF(x0 + gap, yOf(double(values_[r]))),
                           QPointF(x0 + perRank, plot.bottom()));
            p.fillRect(b, bar);
        }
    } else {
        for (int x = 0; x < plot.width(); ++x) {
            const size_t a = size_t(double(x) / perRank);
            const size_t b = std::min(n, std::max(a + 1, size_t(double(x + 1) / perRank)));
            const int64_t v =
                *std::max_element(values_.begin() + ptrdiff_t(a), values_.begin() + ptrdiff_t(b));
            p.fillRect(QRectF(QPointF(plot.left() + x, yOf(double(v))),
                              QPointF(plot.left() + x + 1, plot.bottom())),
                       bar);
        }
    }
    p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
    const double my = yOf(mean);
    p.drawLine(QPointF(plot.left(), my), QPointF(plot.right(), my));
    p.drawText(QRect(plot.left() + 4, int(my) - line - 1, plot.width() - 8, line),
               Qt::AlignRight | Qt::AlignBottom, tr("mean %1").arg(formatDuration(mean)));
}

} // namespace rankscope
