#include "views/whatif/sweepplot.h"

#include "views/panes/durationformat.h"
#include "views/panes/tooltipevent.h"
#include "views/timeline/timemapping.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rankscope {

namespace {

constexpr int kPad = 8;
constexpr double kMarker = 4;      // marker radius, px
constexpr double kLogXRatio = 20;  // max / min x from which the x axis is log10
constexpr double kHeadroom = 1.08; // of the highest value, before rounding to a step

/// A number in few characters: 0.25, 20, 1500, 12k, 2.5M.
QString compactNumber(double v)
{
    const double a = std::abs(v);
    static constexpr std::pair<double, char> kSuffixes[] = {
        {1e12, 'T'}, {1e9, 'G'}, {1e6, 'M'}, {1e4, 'k'}};
    for (const auto& [scale, suffix] : kSuffixes) {
        if (a >= scale) {
            const double s = scale == 1e4 ? 1e3 : scale;
            return QString::number(v / s, 'g', 4) + QLatin1Char(suffix);
        }
    }
    return QString::number(v, 'g', 6);
}

void drawMarker(QPainter& p, QPointF c, const QColor& colour, bool filled, bool square)
{
    p.setPen(QPen(colour, 1.5));
    p.setBrush(filled ? QBrush(colour) : QBrush(Qt::white));
    if (square)
        p.drawRect(
            QRectF(c.x() - kMarker + 0.5, c.y() - kMarker + 0.5, 2 * kMarker - 1, 2 * kMarker - 1));
    else
        p.drawEllipse(c, kMarker, kMarker);
    p.setBrush(Qt::NoBrush);
}

void drawCross(QPainter& p, QPointF c, const QColor& colour)
{
    p.setPen(QPen(colour, 2));
    p.drawLine(c + QPointF(-kMarker, -kMarker), c + QPointF(kMarker, kMarker));
    p.drawLine(c + QPointF(-kMarker, kMarker), c + QPointF(kMarker, -kMarker));
}

} // namespace

SweepPlot::SweepPlot(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
}

void SweepPlot::setParameter(const QString& name, const QString& unit)
{
    parameter_ = name;
    unit_ = unit;
    update();
}

void SweepPlot::setPoints(std::vector<Point> points)
{
    points_ = std::move(points);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const Point& pt : points_) {
        lo = std::min(lo, pt.x);
        hi = std::max(hi, pt.x);
    }
    logX_ = !points_.empty() && lo > 0 && hi / lo >= kLogXRatio * (1 - 1e-12);
    hovered_ = -1;
    update();
}

void SweepPlot::setPoint(int index, Point point)
{
    if (index < 0 || size_t(index) >= points_.size()) return;
    points_[size_t(index)] = std::move(point);
    update();
}

void SweepPlot::setBaseline(std::optional<double> runtimeNs, std::optional<double> mpiNs)
{
    baselineRun_ = runtimeNs;
    baselineMpi_ = mpiNs;
    update();
}

void SweepPlot::setLogX(bool on)
{
    logX_ = on;
    update();
}

QString SweepPlot::valueText(double x) const
{
    const QString n = compactNumber(x);
    return unit_.isEmpty() ? n : n + QLatin1Char(' ') + unit_;
}

QString SweepPlot::pointLabel(int index) const
{
    if (index < 0 || size_t(index) >= points_.size()) return {};
    const Point& pt = points_[size_t(index)];
    return pt.label.isEmpty() ? valueText(pt.x) : pt.label;
}

QRect SweepPlot::plotArea(const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("888.8 ms")) + 2 * kPad;
    const int top = fm.height() + 2 * kPad + 4;        // legend
    const int bottom = 2 * fm.height() + 2 * kPad + 6; // tick labels and axis title
    const int right = 2 * kPad + fm.horizontalAdvance(QStringLiteral("888 ms")) / 2;
    return bounds.adjusted(left, top, -right, -bottom);
}

HistogramAxis SweepPlot::xAxis(const QRect& bounds) const
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    double minPositive = 0;
    for (const Point& pt : points_) {
        lo = std::min(lo, pt.x);
        hi = std::max(hi, pt.x);
        if (pt.x > 0 && (minPositive == 0 || pt.x < minPositive)) minPositive = pt.x;
    }
    if (!std::isfinite(lo)) lo = hi = 0;
    HistogramAxis axis;
    axis.setRange(lo, hi, minPositive,
                  logX_ ? HistogramAxis::Scale::Log : HistogramAxis::Scale::Linear);
    const QRect plot = plotArea(bounds);
    axis.setPixels(plot.left(), plot.left() + plot.width());
    return axis;
}

double SweepPlot::valueTop() const
{
    double top = 0;
    for (const Point& pt : points_) {
        if (pt.runtimeNs) top = std::max(top, *pt.runtimeNs);
        if (pt.waitNs) top = std::max(top, *pt.waitNs);
        if (pt.mpiNs) top = std::max(top, *pt.mpiNs);
    }
    for (const auto& b : {baselineRun_, baselineMpi_})
        if (b) top = std::max(top, *b);
    if (top <= 0) return 1e6; // nothing finished yet: an empty millisecond
    const double step = HistogramAxis::niceStep(top * kHeadroom / 5);
    return std::ceil(top * kHeadroom / step - 1e-9) * step;
}

double SweepPlot::yToPixel(double ns, const QRect& bounds) const
{
    const QRect plot = plotArea(bounds);
    return plot.top() + plot.height() * (1 - ns / valueTop());
}

QPointF SweepPlot::pointPosition(int index, const QRect& bounds) const
{
    if (index < 0 || size_t(index) >= points_.size()) return {};
    const Point& pt = points_[size_t(index)];
    const double x = xAxis(bounds).toPixel(pt.x);
    const double y = pt.runtimeNs ? yToPixel(*pt.runtimeNs, bounds) : yToPixel(0, bounds);
    return {x, y};
}

std::optional<QPointF> SweepPlot::waitPosition(int index, const QRect& bounds) const
{
    if (index < 0 || size_t(index) >= points_.size() || !points_[size_t(index)].waitNs)
        return std::nullopt;
    const Point& pt = points_[size_t(index)];
    return QPointF(xAxis(bounds).toPixel(pt.x), yToPixel(*pt.waitNs, bounds));
}

int SweepPlot::pointAt(QPoint pos) const
{
    return pointAt(pos, rect());
}

int SweepPlot::pointAt(QPoint pos, const QRect& bounds) const
{
    int best = -1;
    double bestDistance = kHitRadius + 1e-9;
    const auto consider = [&](int i, QPointF c) {
        const double d = std::hypot(c.x() - pos.x(), c.y() - pos.y());
        if (d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    };
    for (int i = 0; i < int(points_.size()); ++i) {
        consider(i, pointPosition(i, bounds));
        if (const auto w = waitPosition(i, bounds)) consider(i, *w);
    }
    return best;
}

std::vector<int> SweepPlot::finishedInXOrder() const
{
    std::vector<int> order;
    for (int i = 0; i < int(points_.size()); ++i)
        if (points_[size_t(i)].runtimeNs && !points_[size_t(i)].failed()) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [this](int a, int b) { return points_[size_t(a)].x < points_[size_t(b)].x; });
    return order;
}

void SweepPlot::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintTo(p, rect());
}

void SweepPlot::paintTo(QPainter& p, const QRect& bounds) const
{
    p.save();
    p.fillRect(bounds, palette().color(QPalette::Base));
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing);
    const QRect plot = plotArea(bounds);
    if (points_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawRect(plot.adjusted(0, 0, -1, -1));
        p.drawText(plot, Qt::AlignCenter, tr("No sweep points"));
        p.restore();
        return;
    }
    const HistogramAxis x = xAxis(bounds);
    paintAxes(p, bounds, x);
    paintSeries(p, bounds);
    paintLegend(p, bounds);
    p.restore();
}

void SweepPlot::paintAxes(QPainter& p, const QRect& bounds, const HistogramAxis& x) const
{
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    const QColor grid = palette().color(QPalette::Midlight);
    const QColor text = palette().color(QPalette::Text);
    const bool anyValue = finishedInXOrder().size() > 0 ||
                          std::any_of(points_.begin(), points_.end(),
                                      [](const Point& pt) { return pt.waitNs.has_value(); });
    // y: time from 0, 1-2-5 steps, labels as the timeline's ruler writes them.
    const double top = valueTop();
    const double step =
        HistogramAxis::niceStep(top * std::max(1, 2 * fm.height()) / std::max(1, plot.height()));
    for (int k = 0; anyValue && k * step <= top * (1 + 1e-9); ++k) {
        const double v = k * step;
        const int y = int(std::lround(yToPixel(v, bounds)));
        p.setPen(grid);
        if (k > 0) p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        p.drawText(
            QRect(bounds.left(), y - fm.height() / 2, plot.left() - bounds.left() - 6, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, TimeMapping::formatTime(v, step));
    }
    // x: the parameter's values with its unit; colliding labels are skipped.
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    const int spacing = std::max(60, fm.horizontalAdvance(valueText(x.upper())) + 16);
    int lastRight = std::numeric_limits<int>::min();
    for (const HistogramAxis::Tick& t : x.ticks(spacing)) {
        const int px = int(std::lround(x.toPixel(t.value)));
        if (px < plot.left() || px > plot.right() + 1) continue;
        p.setPen(t.major ? grid : text);
        if (t.major) p.drawLine(px, plot.top(), px, plot.bottom());
        p.setPen(text);
        p.drawLine(px, plot.bottom(), px, plot.bottom() + (t.major ? 5 : 2));
        if (!t.major) continue;
        const QString label = valueText(t.value);
        const int w = fm.horizontalAdvance(label);
        const QRect r(px - w / 2, plot.bottom() + 6, w, fm.height());
        if (r.left() <= lastRight + 8 || r.right() > bounds.right()) continue;
        p.drawText(r, Qt::AlignCenter, label);
        lastRight = r.right();
    }
    QString title = parameter_.isEmpty() ? tr("Parameter") : parameter_;
    if (!unit_.isEmpty()) title += QStringLiteral(" (%1)").arg(unit_);
    if (x.scale() == HistogramAxis::Scale::Log) title += tr(", log scale");
    p.drawText(QRect(plot.left(), plot.bottom() + 8 + fm.height(), plot.width(), fm.height()),
               Qt::AlignCenter, title);
    if (!anyValue) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, tr("Waiting for the first point to finish…"));
    }
}

void SweepPlot::paintSeries(QPainter& p, const QRect& bounds) const
{
    const std::vector<int> order = finishedInXOrder();
    // Wait time first (dashed), so the run time line lies on top where they meet.
    QPainterPath waitLine;
    bool started = false;
    for (int i : order) {
        if (const auto w = waitPosition(i, bounds)) {
            started ? waitLine.lineTo(*w) : waitLine.moveTo(*w);
            started = true;
        }
    }
    p.setPen(QPen(waitColor(), 2, Qt::DashLine));
    p.drawPath(waitLine);
    QPainterPath mpiLine;
    started = false;
    for (int i : order) {
        const Point& pt = points_[size_t(i)];
        if (!pt.mpiNs) continue;
        const QPointF c(pointPosition(i, bounds).x(), yToPixel(*pt.mpiNs, bounds));
        started ? mpiLine.lineTo(c) : mpiLine.moveTo(c);
        started = true;
        drawMarker(p, c, mpiColor(), false, true);
    }
    p.setPen(QPen(mpiColor(), 2, Qt::DotLine));
    p.drawPath(mpiLine);
    // The baseline replay: what the unedited spec gives, for reading each point's effect.
    const QRect plot = plotArea(bounds);
    const QFontMetrics fm = fontMetrics();
    std::optional<double> labelled; // the run time line's y, labelled above it
    for (const auto& [value, what] : {std::pair{baselineRun_, tr("baseline run time")},
                                      std::pair{baselineMpi_, tr("baseline MPI time")}}) {
        if (!value) continue;
        const double y = yToPixel(*value, bounds);
        p.setPen(QPen(baselineColor(), 1.5, Qt::DashDotLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(baselineColor());
        // Two lines close together: the second label goes below its line.
        const bool below = labelled && std::abs(*labelled - y) < fm.height() + 2;
        p.drawText(QRectF(plot.left() + 4, below ? y + 1 : y - fm.height() - 1, plot.width() - 8,
                          fm.height()),
                   Qt::AlignRight | (below ? Qt::AlignTop : Qt::AlignBottom), what);
        labelled = y;
    }
    QPainterPath runLine;
    for (size_t k = 0; k < order.size(); ++k) {
        const QPointF c = pointPosition(order[k], bounds);
        k == 0 ? runLine.moveTo(c) : runLine.lineTo(c);
    }
    p.setPen(QPen(runtimeColor(), 2));
    p.drawPath(runLine);

    for (int i = 0; i < int(points_.size()); ++i) {
        const Point& pt = points_[size_t(i)];
        const QPointF c = pointPosition(i, bounds);
        if (pt.failed()) {
            drawCross(p, c, errorColor());
        } else if (pt.pending()) {
            drawMarker(p, c, palette().color(QPalette::Dark), false, false);
        } else {
            if (const auto w = waitPosition(i, bounds)) drawMarker(p, *w, waitColor(), true, true);
            drawMarker(p, c, runtimeColor(), true, false);
        }
        if (i == hovered_) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawEllipse(c, kMarker + 4, kMarker + 4);
        }
    }
}

void SweepPlot::paintLegend(QPainter& p, const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    struct Item
    {
        QString text;
        int kind; // 0 run time, 1 wait, 2 pending, 3 failed, 4 MPI, 5 baseline
    };
    std::vector<Item> items{{tr("Predicted run time"), 0}, {tr("Wait time (mean per rank)"), 1}};
    if (std::any_of(points_.begin(), points_.end(), [](const Point& pt) { return pt.mpiNs; }))
        items.push_back({tr("MPI time (mean per rank)"), 4});
    if (baselineRun_ || baselineMpi_) items.push_back({tr("Baseline replay"), 5});
    if (std::any_of(points_.begin(), points_.end(), [](const Point& pt) { return pt.pending(); }))
        items.push_back({tr("pending"), 2});
    if (std::any_of(points_.begin(), points_.end(), [](const Point& pt) { return pt.failed(); }))
        items.push_back({tr("failed"), 3});
    constexpr int kSample = 28; // line sample with its marker
    int width = 0;
    for (const Item& it : items)
        width += kSample + 6 + fm.horizontalAdvance(it.text) + 16;
    int x = std::max(bounds.left() + kPad, bounds.right() - kPad - width + 16);
    const double cy = bounds.top() + kPad + fm.height() / 2.0;
    for (const Item& it : items) {
        const QPointF c(x + kSample / 2.0, cy);
        switch (it.kind) {
        case 0:
            p.setPen(QPen(runtimeColor(), 2));
            p.drawLine(QPointF(x, cy), QPointF(x + kSample, cy));
            drawMarker(p, c, runtimeColor(), true, false);
            break;
        case 1:
            p.setPen(QPen(waitColor(), 2, Qt::DashLine));
            p.drawLine(QPointF(x, cy), QPointF(x + kSample, cy));
            drawMarker(p, c, waitColor(), true, true);
            break;
        case 2:
            drawMarker(p, c, palette().color(QPalette::Dark), false, false);
            break;
        case 4:
            p.setPen(QPen(mpiColor(), 2, Qt::DotLine));
            p.drawLine(QPointF(x, cy), QPointF(x + kSample, cy));
            drawMarker(p, c, mpiColor(), false, true);
            break;
        case 5:
            p.setPen(QPen(baselineColor(), 1.5, Qt::DashDotLine));
            p.drawLine(QPointF(x, cy), QPointF(x + kSample, cy));
            break;
        default:
            drawCross(p, c, errorColor());
            break;
        }
        p.setPen(palette().color(QPalette::Text));
        const int w = fm.horizontalAdvance(it.text);
        p.drawText(QRect(x + kSample + 6, bounds.top() + kPad, w, fm.height()), Qt::AlignVCenter,
                   it.text);
        x += kSample + 6 + w + 16;
    }
}

QString SweepPlot::toolTipAt(QPoint pos) const
{
    const int i = pointAt(pos);
    if (i < 0) return {};
    const Point& pt = points_[size_t(i)];
    QString name = parameter_.isEmpty() ? tr("value") : parameter_;
    QString text = QStringLiteral("%1 = %2").arg(name, pointLabel(i));
    if (pt.failed()) return text + tr("\nfailed: %1").arg(pt.error);
    if (pt.pending()) return text + tr("\npending");
    text += tr("\nrun time: %1").arg(formatDuration(*pt.runtimeNs));
    text +=
        tr("\nwait time per rank: %1").arg(pt.waitNs ? formatDuration(*pt.waitNs) : tr("unknown"));
    if (pt.mpiNs) text += tr("\nMPI time per rank: %1").arg(formatDuration(*pt.mpiNs));
    if (baselineRun_)
        text += tr("\neffect: %1 against the baseline replay")
                    .arg((*pt.runtimeNs >= *baselineRun_ ? QStringLiteral("+") : QString()) +
                         formatDuration(*pt.runtimeNs - *baselineRun_));
    return text;
}

bool SweepPlot::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        showToolTipText(this, help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(e);
}

void SweepPlot::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton) {
        const int i = pointAt(e->position().toPoint());
        if (i >= 0) {
            emit pointClicked(i);
            return;
        }
    }
    QWidget::mousePressEvent(e);
}

void SweepPlot::mouseMoveEvent(QMouseEvent* e)
{
    const int i = pointAt(e->position().toPoint());
    if (i != hovered_) {
        hovered_ = i;
        if (i >= 0)
            setCursor(Qt::PointingHandCursor);
        else
            unsetCursor();
        update();
    }
    QWidget::mouseMoveEvent(e);
}

void SweepPlot::leaveEvent(QEvent* e)
{
    if (hovered_ >= 0) {
        hovered_ = -1;
        unsetCursor();
        update();
    }
    QWidget::leaveEvent(e);
}

} // namespace rankscope
