#include "views/metrics/metricrateview.h"

#include "views/panes/durationformat.h"
#include "views/panes/tooltipevent.h"

#include <QHelpEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kLabelWidth = 64;
constexpr int kMaxRowHeight = 24;

/// White (0) to a dark orange (1), the usual heat ramp for counters.
QColor heat(double f)
{
    f = std::clamp(f, 0.0, 1.0);
    const QColor lo(255, 247, 236), mid(252, 141, 89), hi(127, 39, 4);
    const auto mix = [](const QColor& a, const QColor& b, double t) {
        return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                                float(a.greenF() + (b.greenF() - a.greenF()) * t),
                                float(a.blueF() + (b.blueF() - a.blueF()) * t));
    };
    return f < 0.5 ? mix(lo, mid, f * 2) : mix(mid, hi, (f - 0.5) * 2);
}

QString rateText(double perSecond)
{
    static const char* prefixes[] = {"", "k", "M", "G", "T"};
    int k = 0;
    while (std::abs(perSecond) >= 1000 && k < 4) {
        perSecond /= 1000;
        ++k;
    }
    return QStringLiteral("%1 %2")
        .arg(perSecond, 0, 'f', perSecond < 10 ? 2 : 1)
        .arg(QString::fromLatin1(prefixes[k]));
}

} // namespace

MetricRateView::MetricRateView(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(60);
    setMouseTracking(true);
}

void MetricRateView::setTrace(std::shared_ptr<const Trace> trace)
{
    trace_ = std::move(trace);
    metric_ = trace_ && !trace_->metrics().empty() ? MetricId(0) : MetricId();
    rows_.clear();
    if (trace_) {
        for (uint32_t r = 0; r < trace_->rankCount(); ++r)
            rows_.push_back({RankId(r)});
        begin_ = trace_->beginTime();
        end_ = std::max(trace_->endTime(), begin_ + 1);
    }
    update();
}

void MetricRateView::setMetric(MetricId metric)
{
    metric_ = metric;
    update();
}

void MetricRateView::setRows(std::vector<std::vector<RankId>> rows)
{
    rows_ = std::move(rows);
    updateGeometry();
    update();
}

void MetricRateView::setTimeRange(int64_t begin, int64_t end)
{
    begin_ = begin;
    end_ = std::max(end, begin + 1);
    update();
}

QSize MetricRateView::sizeHint() const
{
    const int rows = int(std::min<size_t>(rows_.size(), 16));
    return {600, fontMetrics().height() + 8 + std::max(2, rows) * kMaxRowHeight};
}

QRect MetricRateView::plotArea() const
{
    const int legend = fontMetrics().height() + 6;
    return rect().adjusted(kLabelWidth, legend, -4, -2);
}

void MetricRateView::setAxis(std::function<std::pair<int, int>()> axis)
{
    axis_ = std::move(axis);
    update();
}

MetricRateView::Drawn MetricRateView::drawn() const
{
    const QRect base = plotArea();
    if (!axis_) return {base, begin_, end_};
    const auto [globalLeft, globalRight] = axis_();
    const int l = mapFromGlobal(QPoint(globalLeft, 0)).x();
    const int r = mapFromGlobal(QPoint(globalRight, 0)).x();
    if (r <= l) return {base, begin_, end_};
    const double nsPerPixel = double(end_ - begin_) / double(r - l);
    const int left = std::max(base.left(), l);
    const int right = std::min(base.left() + base.width(), r); // exclusive
    if (right <= left) return {QRect(), begin_, begin_};
    return {QRect(left, base.top(), right - left, base.height()),
            begin_ + int64_t(std::llround((left - l) * nsPerPixel)),
            begin_ + int64_t(std::llround((right - l) * nsPerPixel))};
}

bool MetricRateView::valueAt(const MetricColumn& c, int64_t t, double& v) const
{
    if (c.times.empty() || t < c.times.front() || t > c.times.back()) return false;
    const MetricValueType type = trace_->metric(c.metric).type;
    const auto it = std::upper_bound(c.times.begin(), c.times.end(), t);
    const size_t hi = size_t(it - c.times.begin());
    if (hi >= c.times.size()) {
        v = metricValue(c.raw.back(), type);
        return true;
    }
    const size_t lo = hi - 1;
    const double a = metricValue(c.raw[lo], type), b = metricValue(c.raw[hi], type);
    const double span = double(c.times[hi] - c.times[lo]);
    v = span <= 0 ? b : a + (b - a) * double(t - c.times[lo]) / span;
    return true;
}

bool MetricRateView::rowRate(size_t row, int64_t t0, int64_t t1, double& rate,
                             double& increase) const
{
    if (!trace_ || !metric_.valid() || row >= rows_.size() || t1 <= t0) return false;
    const bool accumulated = isAccumulated(trace_->metric(metric_).mode);
    double sumRate = 0, sumIncrease = 0;
    size_t n = 0;
    for (RankId r : rows_[row]) {
        const MetricColumn* c = trace_->metricColumn(trace_->rank(r).mainLocation, metric_);
        if (!c) continue;
        double a = 0, b = 0;
        if (!valueAt(*c, t0, a) || !valueAt(*c, t1, b)) continue;
        if (accumulated) {
            sumIncrease += b - a;
            sumRate += (b - a) / (double(t1 - t0) * 1e-9);
        } else {
            sumRate += (a + b) / 2;
        }
        ++n;
    }
    if (n == 0) return false;
    rate = sumRate / double(n);
    increase = sumIncrease / double(n);
    return true;
}

void MetricRateView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!trace_ || !metric_.valid() || rows_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("This trace records no metrics"));
        return;
    }
    const Drawn d = drawn();
    const QRect area = d.area;
    const int rows = int(rows_.size());
    const double rowHeight = std::min<double>(kMaxRowHeight, double(plotArea().height()) / rows);
    const int width = std::max(1, area.width());
    const double nsPerPixel = double(d.end - d.begin) / width;

    // Rates first, then the colour scale over what is in view.
    std::vector<double> rates(size_t(rows) * size_t(width), -1.0);
    double maxRate = 0;
    for (int r = 0; r < rows; ++r)
        for (int x = 0; x < width; ++x) {
            const auto t0 = int64_t(double(d.begin) + x * nsPerPixel);
            const auto t1 = std::max(t0 + 1, int64_t(double(d.begin) + (x + 1) * nsPerPixel));
            double rate = 0, increase = 0;
            if (area.isEmpty() || !rowRate(size_t(r), t0, t1, rate, increase)) continue;
            rates[size_t(r) * size_t(width) + size_t(x)] = rate;
            maxRate = std::max(maxRate, rate);
        }
    scaleMax_ = maxRate;
    QImage image(width, rows, QImage::Format_RGB32);
    image.fill(palette().color(QPalette::Window));
    for (int r = 0; r < rows; ++r)
        for (int x = 0; x < width; ++x) {
            const double v = rates[size_t(r) * size_t(width) + size_t(x)];
            if (v >= 0) image.setPixelColor(x, r, heat(maxRate > 0 ? v / maxRate : 0));
        }
    if (!area.isEmpty())
        p.drawImage(QRectF(area.left(), area.top(), width, rowHeight * rows), image);

    p.setPen(palette().color(QPalette::Text));
    const QFontMetrics fm = fontMetrics();
    const int labelEvery = std::max(1, int(std::ceil(fm.height() / rowHeight)));
    for (int r = 0; r < rows; r += labelEvery) {
        const auto& ranks = rows_[size_t(r)];
        const QString label = ranks.size() == 1
                                  ? tr("rank %1").arg(ranks.front().value)
                                  : tr("%1-%2").arg(ranks.front().value).arg(ranks.back().value);
        p.drawText(
            QRectF(2, plotArea().top() + r * rowHeight, kLabelWidth - 6, rowHeight * labelEvery),
            Qt::AlignRight | Qt::AlignVCenter, label);
    }
    const Metric& m = trace_->metric(metric_);
    const bool accumulated = isAccumulated(m.mode);
    const QString name = QString::fromStdString(std::string(trace_->metricName(metric_)));
    const QString what = accumulated ? tr("%1 per second").arg(name) : name;
    const QString legend = tr("%1: 0 to %2").arg(what, rateText(maxRate));
    const int barX = kLabelWidth;
    const int barW = 120;
    QLinearGradient g(barX, 0, barX + barW, 0);
    for (double f : {0.0, 0.5, 1.0})
        g.setColorAt(f, heat(f));
    p.fillRect(QRect(barX, 3, barW, fm.height() - 2), g);
    p.drawText(QPoint(barX + barW + 8, 2 + fm.ascent()), legend);
}

QString MetricRateView::toolTipAt(QPoint pos) const
{
    const Drawn d = drawn();
    const QRect area = d.area;
    if (!trace_ || !metric_.valid() || rows_.empty() || !area.contains(pos)) return {};
    const double rowHeight =
        std::min<double>(kMaxRowHeight, double(area.height()) / double(rows_.size()));
    const auto row = size_t((pos.y() - area.top()) / rowHeight);
    if (row >= rows_.size()) return {};
    const double nsPerPixel = double(d.end - d.begin) / std::max(1, area.width());
    const int x = pos.x() - area.left();
    const auto t0 = int64_t(double(d.begin) + x * nsPerPixel);
    const auto t1 = std::max(t0 + 1, int64_t(double(d.begin) + (x + 1) * nsPerPixel));
    double rate = 0, increase = 0;
    const auto& ranks = rows_[row];
    const QString who = ranks.size() == 1 ? tr("Rank %1").arg(ranks.front().value)
                                          : tr("Ranks %1-%2 (mean of %3)")
                                                .arg(ranks.front().value)
                                                .arg(ranks.back().value)
                                                .arg(ranks.size());
    const QString name = QString::fromStdString(std::string(trace_->metricName(metric_)));
    const QString span = tr("%1 to %2")
                             .arg(formatTimestamp(t0 - trace_->beginTime()),
                                  formatTimestamp(t1 - trace_->beginTime()));
    if (!rowRate(row, t0, t1, rate, increase)) return tr("%1\n%2\nno samples").arg(who, span);
    if (!isAccumulated(trace_->metric(metric_).mode))
        return tr("%1\n%2\n%3: %4").arg(who, span, name, QString::number(rate, 'g', 6));
    return tr("%1\n%2\n%3: %4/s, +%5 in this span")
        .arg(who, span, name, rateText(rate), QString::number(increase, 'f', 1));
}

bool MetricRateView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        showToolTipText(this, help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(event);
}

} // namespace rankscope
