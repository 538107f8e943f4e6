#include "views/extrap/extrapfitplot.h"

#include "views/extrap/extrapcurve.h"
#include "views/extrap/extrapformat.h"
#include "views/plots/histogramaxis.h"
#include "views/plots/histogramoverlay.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kPad = 6;
constexpr int kCurvePoints = 48;

} // namespace

ExtrapFitPlot::ExtrapFitPlot(QWidget* parent) : QWidget(parent)
{
    setToolTip(tr("Samples at the small scales (blue dots), the chosen model (red line) and its "
                  "prediction at the target with the uncertainty interval"));
}

std::vector<double> ExtrapFitPlot::curveNs() const
{
    std::vector<double> ns;
    if (!fit_ || fit_->points.empty()) return ns;
    double lo = target_;
    for (const extrap::FitPoint& p : fit_->points)
        lo = std::min(lo, p.n);
    const double hi = std::max(target_, lo);
    for (int i = 0; i < kCurvePoints; ++i)
        ns.push_back(lo * std::pow(hi / lo, double(i) / (kCurvePoints - 1)));
    return ns;
}

void ExtrapFitPlot::setSeries(std::optional<extrap::SeriesFit> fit, double target,
                              std::optional<double> measuredAtTarget)
{
    fit_ = std::move(fit);
    target_ = target;
    measured_ = measuredAtTarget;
    candidate_ = -1;
    chosenCurve_.reset();
    candidateCurve_.reset();
    if (fit_ && fit_->chosen >= 0 && target_ > 0)
        chosenCurve_ = evaluateCandidate(*fit_, fit_->chosen, curveNs());
    update();
}

void ExtrapFitPlot::setCandidate(int model)
{
    candidate_ = fit_ && model != fit_->chosen ? model : -1;
    candidateCurve_.reset();
    if (candidate_ >= 0) candidateCurve_ = evaluateCandidate(*fit_, candidate_, curveNs());
    update();
}

void ExtrapFitPlot::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintTo(p, rect());
}

void ExtrapFitPlot::paintTo(QPainter& p, const QRect& bounds) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(bounds, palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::Text);
    if (!fit_ || fit_->points.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(bounds, Qt::AlignCenter, tr("No fitted series here"));
        p.restore();
        return;
    }
    const extrap::SeriesFit& f = *fit_;
    const SeriesUnit unit = seriesUnit(f.quantity);
    // Value range over everything drawn.
    double lo = f.low, hi = f.high;
    const auto take = [&](double v) {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    take(f.prediction);
    for (const extrap::FitPoint& pt : f.points)
        take(pt.value);
    for (const auto* c : {&chosenCurve_, &candidateCurve_})
        if (*c)
            for (double v : **c)
                take(v);
    if (measured_) take(*measured_);
    lo = std::min(lo, 0.0);
    if (hi <= lo) hi = lo + 1;
    const QString header =
        tr("%1 — %2, prediction %3")
            .arg(QString::fromStdString(f.quantity),
                 f.chosen >= 0 ? QString::fromStdString(f.chosenName()) : tr("no model"),
                 formatWithInterval(f.prediction, f.low, f.high, unit));
    p.setPen(text);
    p.drawText(bounds.adjusted(kPad, kPad, -kPad, 0), Qt::AlignLeft | Qt::AlignTop,
               fm.elidedText(header, Qt::ElideRight, bounds.width() - 2 * kPad));
    const int left = fm.horizontalAdvance(formatSeriesValue(hi, unit)) + 3 * kPad;
    const QRect plot =
        bounds.adjusted(left, fm.height() + 2 * kPad, -3 * kPad,
                        -(fm.height() * (f.clamped || !chosenCurve_ ? 2 : 1) + 2 * kPad));
    // x: log2 of n, from a little below the smallest scale to a little beyond the target.
    double nMin = target_, nMax = target_;
    for (const extrap::FitPoint& pt : f.points) {
        nMin = std::min(nMin, pt.n);
        nMax = std::max(nMax, pt.n);
    }
    const double l0 = std::log2(std::max(nMin, 1e-9)) - 0.3, l1 = std::log2(nMax) + 0.3;
    const auto px = [&](double n) {
        return plot.left() + (std::log2(n) - l0) / (l1 - l0) * plot.width();
    };
    const auto py = [&](double v) { return plot.bottom() - (v - lo) / (hi - lo) * plot.height(); };
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot);
    // y ticks (1-2-5), x ticks at the sample scales and the target.
    const double step =
        HistogramAxis::niceStep((hi - lo) * 2 * fm.height() / std::max(1, plot.height()));
    for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) {
        const int y = int(std::lround(py(v)));
        p.setPen(text);
        p.drawText(QRect(bounds.left(), y - fm.height() / 2, plot.left() - bounds.left() - kPad,
                         fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, formatSeriesValue(v, unit));
    }
    std::vector<double> scales;
    for (const extrap::FitPoint& pt : f.points)
        scales.push_back(pt.n);
    scales.push_back(target_);
    int lastRight = bounds.left() - 100;
    for (double n : scales) {
        const int x = int(std::lround(px(n)));
        const QString label = QString::number(n, 'g', 6);
        const int w = fm.horizontalAdvance(label);
        p.setPen(text);
        p.drawLine(x, plot.bottom(), x, plot.bottom() + 3);
        if (x - w / 2 > lastRight + 4) {
            p.drawText(QRect(x - w / 2, plot.bottom() + 4, w, fm.height()), Qt::AlignCenter, label);
            lastRight = x + w / 2;
        }
    }
    const QColor red = HistogramOverlay::predictedColor();
    const QColor blue = HistogramOverlay::measuredColor();
    p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
    p.drawLine(QPointF(px(target_), plot.top()), QPointF(px(target_), plot.bottom()));
    const std::vector<double> ns = curveNs();
    const auto drawCurve = [&](const std::vector<double>& values, const QPen& pen) {
        QPainterPath path;
        for (size_t i = 0; i < ns.size() && i < values.size(); ++i) {
            const QPointF q(px(ns[i]), py(values[i]));
            if (i == 0)
                path.moveTo(q);
            else
                path.lineTo(q);
        }
        p.strokePath(path, pen);
    };
    p.setClipRect(plot);
    if (candidateCurve_)
        drawCurve(*candidateCurve_, QPen(QColor(110, 110, 110), 1.5, Qt::DashLine));
    if (chosenCurve_) {
        drawCurve(*chosenCurve_, QPen(red, 2));
    } else if (!f.points.empty()) {
        const extrap::FitPoint& last = f.points.back();
        p.setPen(QPen(red, 1.5, Qt::DotLine));
        p.drawLine(QPointF(px(last.n), py(last.value)), QPointF(px(target_), py(f.prediction)));
    }
    p.setClipping(false);
    p.setPen(Qt::NoPen);
    p.setBrush(blue);
    for (const extrap::FitPoint& pt : f.points)
        p.drawEllipse(QPointF(px(pt.n), py(pt.value)), 4, 4);
    // The prediction with its interval as an error bar.
    const double tx = px(target_);
    p.setPen(QPen(red, 2));
    p.drawLine(QPointF(tx, py(f.low)), QPointF(tx, py(f.high)));
    for (double v : {f.low, f.high})
        p.drawLine(QPointF(tx - 5, py(v)), QPointF(tx + 5, py(v)));
    p.setBrush(red);
    p.drawEllipse(QPointF(tx, py(f.prediction)), 4.5, 4.5);
    if (measured_) {
        p.setPen(QPen(blue, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(tx - 5, py(*measured_) - 5, 10, 10));
    }
    QStringList notes;
    if (!chosenCurve_ && f.chosen >= 0)
        notes << tr("The model's curve cannot be evaluated here: dotted line from the last sample "
                    "to the prediction");
    if (f.clamped) notes << tr("negative prediction clamped to 0");
    if (!notes.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(bounds.left() + kPad, bounds.bottom() - fm.height() - kPad / 2,
                         bounds.width() - 2 * kPad, fm.height()),
                   Qt::AlignLeft,
                   fm.elidedText(notes.join(QStringLiteral("; ")), Qt::ElideRight,
                                 bounds.width() - 2 * kPad));
    }
    p.restore();
}

} // namespace rankscope
