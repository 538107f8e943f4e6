#include "views/plots/histogramoverlay.h"

#include "views/panes/durationformat.h"
#include "views/plots/histogramoverlay_p.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rankscope {

namespace {

using namespace histogramoverlay;

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace

HistogramOverlay::HistogramOverlay(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setToolTip(tr("Measured (blue) and predicted (red) histograms; hover a bar for its numbers"));
}

void HistogramOverlay::setHistograms(std::optional<Histogram> measured,
                                     std::optional<Histogram> predicted)
{
    measured_ = std::move(measured);
    predicted_ = std::move(predicted);
    update();
}

void HistogramOverlay::setBand(std::optional<std::pair<double, double>> band)
{
    band_ = band;
    update();
}

void HistogramOverlay::setBandVisible(bool visible)
{
    bandVisible_ = visible;
    update();
}

void HistogramOverlay::setTitle(const QString& title)
{
    title_ = title;
    update();
}

void HistogramOverlay::setXLabel(const QString& label)
{
    xLabel_ = label;
    update();
}

void HistogramOverlay::setComparison(std::optional<double> accuracyPct,
                                     std::optional<double> w1Normalized)
{
    accuracy_ = accuracyPct;
    w1_ = w1Normalized;
    update();
}

void HistogramOverlay::setScale(HistogramAxis::Scale scale)
{
    scale_ = scale;
    update();
}

QString HistogramOverlay::headerText() const
{
    QStringList parts;
    if (!title_.isEmpty()) parts << title_;
    const auto figure = [](double v, int decimals) {
        return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("n/a");
    };
    if (accuracy_) parts << tr("accuracy %1 %").arg(figure(*accuracy_, 1));
    if (w1_) parts << tr("W1 %1").arg(figure(*w1_, 3));
    return parts.join(QStringLiteral(" · "));
}

QRect HistogramOverlay::plotArea(const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("100 %")) + 2 * kPad;
    const int top = fm.height() + 2 * kPad;
    const int bottom = 2 * fm.height() + 2 * kPad;
    return bounds.adjusted(left, top, -2 * kPad, -bottom);
}

HistogramAxis HistogramOverlay::xAxis(const QRect& bounds) const
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    double minPositive = 0;
    const auto take = [&](double v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        if (v > 0 && (minPositive == 0 || v < minPositive)) minPositive = v;
    };
    for (const auto* h : {&measured_, &predicted_}) {
        if (!hasData(*h)) continue;
        for (const HistogramBin& b : (*h)->bins) {
            take(b.lower);
            take(b.upper);
        }
    }
    if (band_ && bandVisible_) {
        take(band_->first);
        take(band_->second);
    }
    if (!std::isfinite(lo)) lo = hi = 0;
    HistogramAxis axis;
    axis.setRange(lo, hi, minPositive, scale_);
    const QRect plot = plotArea(bounds);
    axis.setPixels(plot.left(), plot.left() + plot.width());
    return axis;
}

double HistogramOverlay::frequencyTop() const
{
    double top = 0;
    for (const auto* h : {&measured_, &predicted_})
        if (hasData(*h))
            for (const HistogramBin& b : (*h)->bins)
                top = std::max(top, b.frequency);
    if (top <= 0) return 1.0;
    // Headroom for the legend, then the next multiple of a round step (not the next 1-2-5
    // value, which could leave almost half the plot empty).
    const double step = HistogramAxis::niceStep(top * 1.15 / 5);
    return std::min(1.0, std::ceil(top * 1.15 / step - 1e-9) * step);
}

double HistogramOverlay::yToPixel(double frequency, const QRect& bounds) const
{
    const QRect plot = plotArea(bounds);
    return plot.top() + plot.height() * (1 - frequency / frequencyTop());
}

void HistogramOverlay::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintTo(p, rect());
}

void HistogramOverlay::paintTo(QPainter& p, const QRect& bounds) const
{
    p.save();
    p.fillRect(bounds, palette().color(QPalette::Base));
    p.setFont(font());
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    p.setPen(palette().color(QPalette::Text));
    const QRect titleRect(bounds.left() + kPad, bounds.top() + kPad, bounds.width() - 2 * kPad,
                          fm.height());
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(headerText(), Qt::ElideRight, titleRect.width()));
    if (!hasData(measured_) && !hasData(predicted_)) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawRect(plot.adjusted(0, 0, -1, -1));
        p.drawText(plot, Qt::AlignCenter, tr("No histogram for this selection"));
        p.restore();
        return;
    }
    const HistogramAxis x = xAxis(bounds);
    paintAxes(p, bounds, x);
    p.setClipRect(plot.adjusted(0, -1, 1, 1));
    if (band_ && bandVisible_ && band_->second > band_->first) {
        QColor fill = predictedColor();
        fill.setAlpha(40);
        const double x0 = x.toPixel(band_->first);
        const double x1 = x.toPixel(band_->second);
        p.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()), fill);
        p.setPen(QPen(predictedColor(), 1, Qt::DashLine));
        p.drawLine(QPointF(x0, plot.top()), QPointF(x0, plot.bottom()));
        p.drawLine(QPointF(x1, plot.top()), QPointF(x1, plot.bottom()));
    }
    if (hasData(measured_)) paintBars(p, *measured_, measuredColor(), bounds, x);
    if (hasData(predicted_)) paintBars(p, *predicted_, predictedColor(), bounds, x);
    p.setClipping(false);
    paintLegend(p, bounds);
    p.restore();
}

QString HistogramOverlay::toCsv() const
{
    QString csv = QStringLiteral("lower_ns,upper_ns,measured_frequency,predicted_frequency\n");
    const auto rows = [&csv](const std::optional<Histogram>& h, bool measured) {
        if (!h) return;
        for (const HistogramBin& b : h->bins) {
            const QString f = number(b.frequency);
            csv += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(number(b.lower), number(b.upper), measured ? f : QString(),
                            measured ? QString() : f);
        }
    };
    rows(measured_, true);
    rows(predicted_, false);
    return csv;
}

QString HistogramOverlay::toolTipAt(QPoint pos) const
{
    const QRect plot = plotArea(rect());
    if (!plot.contains(pos)) return {};
    const HistogramAxis x = xAxis(rect());
    QStringList lines;
    const auto describe = [&](const std::optional<Histogram>& h, const QString& what) {
        if (!hasData(h)) return;
        for (const HistogramBin& b : h->bins) {
            const double x0 = x.toPixel(b.lower);
            const double x1 = std::max(x.toPixel(b.upper), x0 + 1);
            if (pos.x() < x0 - kMinBarPixels / 2 || pos.x() > x1 + kMinBarPixels / 2) continue;
            lines << tr("%1: %2 – %3, %4 % (%5 samples), mean %6")
                         .arg(what, formatDuration(b.lower), formatDuration(b.upper))
                         .arg(b.frequency * 100, 0, 'f', 1)
                         .arg(formatCount(b.count), formatDuration(b.mean));
            return;
        }
    };
    describe(measured_, tr("measured"));
    describe(predicted_, tr("predicted"));
    if (band_ && bandVisible_ && x.toPixel(band_->first) <= pos.x() &&
        pos.x() <= x.toPixel(band_->second))
        lines << tr("predicted maximum lies in %1 – %2")
                     .arg(formatDuration(band_->first), formatDuration(band_->second));
    return lines.join(QLatin1Char('\n'));
}

bool HistogramOverlay::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::showText(help->globalPos(), toolTip(), this);
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace rankscope
