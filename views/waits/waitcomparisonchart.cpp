#include "views/waits/waitcomparisonchart.h"

#include "views/panes/durationformat.h"
#include "views/panes/tooltipevent.h"
#include "views/plots/histogramaxis.h"
#include "views/plots/histogramoverlay.h"
#include "views/timeline/timemapping.h"
#include "views/whatif/whatifcomparison_p.h"

#include <QHelpEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace rankscope {

using namespace whatifcomparison;

namespace {

constexpr int kPad = 8;
constexpr int kBarAlpha = 200;
/// A bar holds at most this share of its group's width; two bars and a gap fill the rest.
constexpr double kBarShare = 0.34;

} // namespace

WaitComparisonChart::WaitComparisonChart(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
}

void WaitComparisonChart::setRunNames(const QString& measured, const QString& predicted)
{
    measuredName_ = measured;
    predictedName_ = predicted;
    update();
}

void WaitComparisonChart::setGroups(std::vector<Group> groups)
{
    groups_ = std::move(groups);
    update();
}

QRect WaitComparisonChart::plotArea(const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("888.8 ms")) + 2 * kPad;
    const int top = fm.height() + 2 * kPad; // the legend line
    QRect plot = bounds.adjusted(left, top, -2 * kPad, 0);
    // Group names (one line, or two when one of them needs it) and the difference below.
    const int bottom = (nameLines(plot.width()) + 1) * fm.height() + 2 * kPad;
    plot.setBottom(bounds.bottom() - bottom);
    return plot;
}

int WaitComparisonChart::nameLines(int plotWidth) const
{
    if (groups_.empty()) return 1;
    const QFontMetrics fm = fontMetrics();
    const int width = plotWidth / int(groups_.size()) - 4;
    for (const Group& g : groups_)
        if (fm.horizontalAdvance(g.name) > width) return 2;
    return 1;
}

double WaitComparisonChart::valueTop() const
{
    return valueTop(rect());
}

double WaitComparisonChart::valueTop(const QRect& bounds) const
{
    double top = 0;
    for (const Group& g : groups_)
        top = std::max({top, g.measuredNs, g.predictedNs});
    if (top <= 0) return 1;
    // Room above the highest bar for two staggered value labels.
    const QRect plot = plotArea(bounds);
    const double lines = 2.5 * fontMetrics().height();
    const double scale = plot.height() > lines * 2 ? plot.height() / (plot.height() - lines) : 1.3;
    const double want = top * scale;
    const double step = HistogramAxis::niceStep(want / 5);
    return std::ceil(want / step - 1e-9) * step;
}

QRectF WaitComparisonChart::barRect(int group, int run, const QRect& bounds) const
{
    if (group < 0 || size_t(group) >= groups_.size()) return {};
    const QRect plot = plotArea(bounds);
    const double groupWidth = double(plot.width()) / double(groups_.size());
    const double barWidth = std::min(groupWidth * kBarShare, 90.0);
    const double centre = plot.left() + groupWidth * (group + 0.5);
    const double left = run == 0 ? centre - barWidth - 1 : centre + 1;
    const Group& g = groups_[size_t(group)];
    const double value = run == 0 ? g.measuredNs : g.predictedNs;
    const double height = plot.height() * std::max(0.0, value) / valueTop(bounds);
    // A non-zero wait stays visible as at least one pixel.
    const double shown = value > 0 ? std::max(1.0, height) : 0.0;
    return {left, plot.bottom() + 1 - shown, barWidth, shown};
}

void WaitComparisonChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintTo(p, rect());
}

void WaitComparisonChart::paintTo(QPainter& p, const QRect& bounds) const
{
    p.save();
    p.fillRect(bounds, palette().color(QPalette::Base));
    p.setFont(font());
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    const bool any = std::any_of(groups_.begin(), groups_.end(), [](const Group& g) {
        return g.measuredNs > 0 || g.predictedNs > 0;
    });
    if (!any) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawRect(plot.adjusted(0, 0, -1, -1));
        p.drawText(plot, Qt::AlignCenter,
                   groups_.empty() ? tr("No wait-state comparison yet")
                                   : tr("No wait states in either run"));
        p.restore();
        return;
    }
    paintAxis(p, bounds);
    paintLegend(p, bounds);
    const double groupWidth = double(plot.width()) / double(groups_.size());
    for (int g = 0; g < int(groups_.size()); ++g) {
        const Group& group = groups_[size_t(g)];
        const QRectF bars[2] = {barRect(g, 0, bounds), barRect(g, 1, bounds)};
        const QColor colours[2] = {HistogramOverlay::measuredColor(),
                                   HistogramOverlay::predictedColor()};
        const double values[2] = {group.measuredNs, group.predictedNs};
        QRectF labels[2];
        for (int r = 0; r < 2; ++r) {
            QColor fill = colours[r];
            fill.setAlpha(kBarAlpha);
            p.setPen(colours[r]);
            p.setBrush(fill);
            if (bars[r].height() > 0) p.drawRect(bars[r]);
            const QString text = formatDuration(values[r]);
            const double w = fm.horizontalAdvance(text) + 4;
            labels[r] = QRectF(bars[r].center().x() - w / 2, bars[r].top() - fm.height() - 2, w,
                               fm.height());
        }
        p.setBrush(Qt::NoBrush);
        // Labels wider than their bars would collide: stack them over the group's centre above
        // the taller bar, measured on top, so each stays next to its own colour. Labels wider
        // than the group are left out (the tooltip has the values).
        if (labels[0].right() + 2 > labels[1].left()) {
            const double top = std::min(bars[0].top(), bars[1].top()) - 2;
            const double centre = (bars[0].left() + bars[1].right()) / 2;
            for (QRectF& l : labels)
                l.moveLeft(centre - l.width() / 2);
            labels[1].moveBottom(top);
            labels[0].moveBottom(top - fm.height());
        }
        const bool fits = std::max(labels[0].width(), labels[1].width()) <= groupWidth - 2;
        for (int r = 0; r < 2 && fits; ++r) {
            p.setPen(colours[r].darker(115));
            p.drawText(labels[r], Qt::AlignCenter, formatDuration(values[r]));
        }
        // Group name and the change under the axis.
        const int lines = nameLines(plot.width());
        const QRect nameRect(int(plot.left() + groupWidth * g) + 2, plot.bottom() + 4,
                             int(groupWidth) - 4, lines * fm.height());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(nameRect, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                   lines == 1 ? group.name
                              : fm.elidedText(group.name, Qt::ElideRight, 2 * nameRect.width()));
        QString change;
        if (group.measuredNs > 0) {
            const double pct = 100 * (group.predictedNs - group.measuredNs) / group.measuredNs;
            change = QStringLiteral("%1%2 %")
                         .arg(pct > 0 ? QStringLiteral("+") : QString())
                         .arg(pct, 0, 'f', 1);
            p.setPen(pct > kNotablePercent    ? slowerColor()
                     : pct < -kNotablePercent ? fasterColor()
                                              : palette().color(QPalette::Text));
        } else {
            change = group.predictedNs > 0 ? tr("new") : QString();
        }
        p.drawText(QRect(nameRect.left(), nameRect.bottom() + 1, nameRect.width(), fm.height()),
                   Qt::AlignCenter, change);
    }
    p.restore();
}

void WaitComparisonChart::paintAxis(QPainter& p, const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotArea(bounds);
    const double top = valueTop(bounds);
    const double step =
        HistogramAxis::niceStep(top * std::max(1, 2 * fm.height()) / std::max(1, plot.height()));
    const QColor grid = palette().color(QPalette::Midlight);
    const QColor text = palette().color(QPalette::Text);
    for (int k = 0; k * step <= top * (1 + 1e-9); ++k) {
        const double v = k * step;
        const int y = int(std::lround(plot.bottom() + 1 - plot.height() * v / top));
        p.setPen(grid);
        if (k > 0) p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        p.drawText(
            QRect(bounds.left(), y - fm.height() / 2, plot.left() - bounds.left() - 6, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, TimeMapping::formatTime(v, step));
    }
    p.setPen(text);
    p.drawLine(plot.left(), plot.bottom() + 1, plot.right(), plot.bottom() + 1);
    p.drawLine(plot.left(), plot.top(), plot.left(), plot.bottom() + 1);
}

void WaitComparisonChart::paintLegend(QPainter& p, const QRect& bounds) const
{
    const QFontMetrics fm = fontMetrics();
    const QString names[2] = {measuredName_.isEmpty() ? tr("measured") : measuredName_,
                              predictedName_.isEmpty() ? tr("predicted") : predictedName_};
    const QColor colours[2] = {HistogramOverlay::measuredColor(),
                               HistogramOverlay::predictedColor()};
    const int swatch = fm.height() - 4;
    const QString title = tr("Waiting time per pattern, summed over ranks");
    p.setPen(palette().color(QPalette::Text));
    const QRect titleRect(bounds.left() + kPad, bounds.top() + kPad, bounds.width() / 2,
                          fm.height());
    int x = bounds.right() - kPad;
    for (int r = 1; r >= 0; --r) {
        const QString text = fm.elidedText(names[r], Qt::ElideMiddle, bounds.width() / 5);
        x -= fm.horizontalAdvance(text);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x, bounds.top() + kPad, fm.horizontalAdvance(text), fm.height()),
                   Qt::AlignVCenter, text);
        x -= swatch + 4;
        QColor fill = colours[r];
        fill.setAlpha(kBarAlpha);
        p.setPen(colours[r]);
        p.setBrush(fill);
        p.drawRect(x, bounds.top() + kPad + 2, swatch, swatch);
        p.setBrush(Qt::NoBrush);
        x -= 16;
    }
    p.setPen(palette().color(QPalette::Text));
    p.drawText(
        titleRect.adjusted(0, 0, std::min(0, x - titleRect.right() - kPad), 0),
        Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(title, Qt::ElideRight,
                      std::max(0, std::min(titleRect.width(), x - titleRect.left() - kPad))));
}

QString WaitComparisonChart::toolTipAt(QPoint pos) const
{
    const QRect bounds = rect();
    const QRect plot = plotArea(bounds);
    if (groups_.empty() || pos.x() < plot.left() || pos.x() > plot.right() ||
        pos.y() < plot.top() || pos.y() > bounds.bottom())
        return {};
    const QString names[2] = {measuredName_.isEmpty() ? tr("measured") : measuredName_,
                              predictedName_.isEmpty() ? tr("predicted") : predictedName_};
    for (int g = 0; g < int(groups_.size()); ++g) {
        for (int r = 0; r < 2; ++r) {
            QRectF bar = barRect(g, r, bounds);
            // Short bars are hard to hit: the column above a bar counts as the bar.
            bar.setTop(plot.top());
            if (!bar.contains(pos)) continue;
            const Group& group = groups_[size_t(g)];
            return tr("%1\n%2: %3")
                .arg(group.name, names[r],
                     formatDuration(r == 0 ? group.measuredNs : group.predictedNs));
        }
    }
    const double groupWidth = double(plot.width()) / double(groups_.size());
    const int g = std::clamp(int((pos.x() - plot.left()) / groupWidth), 0, int(groups_.size()) - 1);
    const Group& group = groups_[size_t(g)];
    QString text = tr("%1\n%2: %3\n%4: %5")
                       .arg(group.name, names[0], formatDuration(group.measuredNs), names[1],
                            formatDuration(group.predictedNs));
    if (group.measuredNs > 0)
        text +=
            tr("\ndifference: %1 (%2)")
                .arg(signedDuration(group.predictedNs - group.measuredNs),
                     percentText(100 * (group.predictedNs - group.measuredNs) / group.measuredNs));
    return text;
}

bool WaitComparisonChart::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        showToolTipText(this, help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(e);
}

} // namespace rankscope
