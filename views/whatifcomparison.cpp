#include "views/whatifcomparison.h"

#include "model/histogram.h"
#include "model/trace.h"
#include "views/durationformat.h"
#include "views/histogramaxis.h"
#include "views/histogramoverlay.h"
#include "views/timemapping.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

/// A difference beyond this many percent is coloured.
constexpr double kNotablePercent = 5.0;

enum SummaryColumn
{
    QuantityColumn,
    MeasuredColumn,
    PredictedColumn,
    DifferenceColumn
};

QColor slowerColor()
{
    return {190, 30, 30};
}

QColor fasterColor()
{
    return {20, 130, 50};
}

QString percentText(std::optional<double> pct)
{
    if (!pct) return QStringLiteral("n/a");
    return QStringLiteral("%1%2 %")
        .arg(*pct > 0 ? QStringLiteral("+") : QString())
        .arg(*pct, 0, 'f', 1);
}

QString signedDuration(double ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDuration(ns);
}

QStandardItem* numberItem(const QString& text)
{
    auto* item = new QStandardItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

} // namespace

WhatIfComparison::WhatIfComparison(QWidget* parent)
    : QWidget(parent), timelines_(new ComparisonView(this)), panes_(new QTabWidget(this))
{
    panes_->addTab(createSummaryPane(), tr("Summary"));
    panes_->addTab(createDeltaPane(), tr("Delta times"));
    waitChart_ = new WaitComparisonChart(panes_);
    panes_->addTab(waitChart_, tr("Wait states"));
    panes_->setDocumentMode(true);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(timelines_);
    splitter->addWidget(panes_);
    // Timelines ~60 %, panes ~40 %.
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({600, 400});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    fillSummary();
    fillSelectors();
    refreshHistogram();
    fillWaits();
}

QWidget* WhatIfComparison::createSummaryPane()
{
    auto* pane = new QWidget(panes_);
    header_ = new QLabel(pane);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summaryModel_ = new QStandardItemModel(0, 4, pane);
    summaryModel_->setHorizontalHeaderLabels(
        {tr("Quantity"), tr("Measured"), tr("Predicted"), tr("Difference")});
    summaryTable_ = new QTableView(pane);
    summaryTable_->setModel(summaryModel_);
    summaryTable_->verticalHeader()->hide();
    summaryTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    summaryTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    summaryTable_->setAlternatingRowColors(true);
    summaryTable_->setWordWrap(false);
    summaryTable_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    // Columns fit their contents, numbers close to their names (a stretched name column
    // would put a screen's width between a quantity and its values).
    QHeaderView* h = summaryTable_->horizontalHeader();
    h->setStretchLastSection(false);
    h->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("8888.88 ms")) + 16);
    for (int c : {QuantityColumn, MeasuredColumn, PredictedColumn, DifferenceColumn})
        h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    h->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    summaryModel_->horizontalHeaderItem(QuantityColumn)
        ->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    summaryModel_->horizontalHeaderItem(DifferenceColumn)
        ->setToolTip(tr("(predicted - measured) / measured; red: more than %1 % slower, "
                        "green: more than %1 % faster")
                         .arg(kNotablePercent));

    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(header_);
    layout->addWidget(summaryTable_, 1);
    return pane;
}

QWidget* WhatIfComparison::createDeltaPane()
{
    auto* pane = new QWidget(panes_);
    intervalBox_ = new QComboBox(pane);
    intervalBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    intervalBox_->setMinimumContentsLength(32);
    intervalBox_->setToolTip(tr("Execution interval: the computation between two MPI call sites"));
    rankBox_ = new QComboBox(pane);
    rankBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    logBox_ = new QCheckBox(tr("Log scale"), pane);
    logBox_->setToolTip(tr("Delta times on a log10 axis"));
    histogram_ = new HistogramOverlay(pane);
    histogram_->setXLabel(tr("Delta time (computation between consecutive MPI calls)"));

    connect(intervalBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) setDeltaSelection(intervalBox_->itemData(index).toInt(), rank_);
    });
    connect(rankBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) setDeltaSelection(interval_, rankBox_->itemData(index).toInt());
    });
    connect(logBox_, &QCheckBox::toggled, this, [this](bool on) {
        histogram_->setScale(on ? HistogramAxis::Scale::Log : HistogramAxis::Scale::Linear);
    });

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Interval:"), pane));
    controls->addWidget(intervalBox_, 1);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Rank:"), pane));
    controls->addWidget(rankBox_);
    controls->addSpacing(12);
    controls->addWidget(logBox_);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addWidget(histogram_, 1);
    return pane;
}

void WhatIfComparison::setRuns(ComparisonView::Run measured, ComparisonView::Run predicted,
                               std::shared_ptr<const ComparisonData> comparison,
                               const QString& scenarioName)
{
    scenario_ = scenarioName;
    measuredName_ = measured.name;
    predictedName_ = predicted.name;
    waitChart_->setRunNames(measuredName_, predictedName_);
    timelines_->setRuns(std::move(measured), std::move(predicted));
    setComparisonData(std::move(comparison));
}

void WhatIfComparison::setComparisonData(std::shared_ptr<const ComparisonData> comparison)
{
    data_ = std::move(comparison);
    interval_ = -1;
    rank_ = -1;
    fillSummary();
    fillSelectors();
    refreshHistogram();
    fillWaits();
}

QString WhatIfComparison::headerText() const
{
    const auto run = [this](const QString& name, int which) {
        const std::shared_ptr<const Trace>& t = timelines_->run(which).trace;
        if (!t) return name;
        return tr("%1 (%2 ranks, %3)")
            .arg(name)
            .arg(t->rankCount())
            .arg(formatDuration(double(t->duration())));
    };
    QString text = tr("Scenario: %1  —  measured: %2  —  predicted: %3")
                       .arg(scenario_.isEmpty() ? tr("(unnamed)") : scenario_,
                            run(measuredName_, 0), run(predictedName_, 1));
    if (!data_)
        text += tr("  —  computing the comparison…");
    else if (data_->cancelled)
        text += tr("  —  comparison cancelled: the numbers cover part of the runs");
    return text;
}

void WhatIfComparison::fillSummary()
{
    header_->setText(headerText());
    summaryModel_->removeRows(0, summaryModel_->rowCount());
    if (!data_) return;
    for (const ComparisonData::Quantity& q : data_->summary) {
        auto* name = new QStandardItem(q.name);
        name->setEditable(false);
        QStandardItem* m = numberItem(formatDuration(q.measuredNs));
        QStandardItem* p = numberItem(formatDuration(q.predictedNs));
        const std::optional<double> pct = q.percent();
        QStandardItem* d = numberItem(percentText(pct));
        QString tip = tr("%1 → %2: %3")
                          .arg(formatDuration(q.measuredNs), formatDuration(q.predictedNs),
                               signedDuration(q.predictedNs - q.measuredNs));
        if (!pct) tip += tr(" (no percentage: the measured value is 0)");
        d->setToolTip(tip);
        if (pct && *pct > kNotablePercent) {
            d->setForeground(slowerColor());
            d->setToolTip(tip + tr("\npredicted is slower by more than %1 %").arg(kNotablePercent));
        } else if (pct && *pct < -kNotablePercent) {
            d->setForeground(fasterColor());
            d->setToolTip(tip + tr("\npredicted is faster by more than %1 %").arg(kNotablePercent));
        }
        if (pct && std::abs(*pct) > kNotablePercent) {
            QFont f = d->font();
            f.setBold(true);
            d->setFont(f);
        }
        summaryModel_->appendRow({name, m, p, d});
    }
}

void WhatIfComparison::fillSelectors()
{
    const QSignalBlocker blockIntervals(intervalBox_);
    const QSignalBlocker blockRanks(rankBox_);
    intervalBox_->clear();
    rankBox_->clear();
    intervalBox_->addItem(tr("All intervals"), -1);
    rankBox_->addItem(tr("All ranks"), -1);
    const bool ready = bool(data_);
    intervalBox_->setEnabled(ready);
    rankBox_->setEnabled(ready);
    if (!ready) return;
    for (int i = 0; i < data_->intervals.size(); ++i) {
        intervalBox_->addItem(data_->intervals[i], i);
        intervalBox_->setItemData(i + 1, data_->intervals[i], Qt::ToolTipRole);
    }
    const uint32_t m = data_->measuredRanks;
    const uint32_t p = data_->predictedRanks;
    for (uint32_t r = 0; r < std::max(m, p); ++r) {
        QString text = tr("Rank %1").arg(r);
        if (r >= m) text += tr(" (predicted only)");
        if (r >= p) text += tr(" (measured only)");
        rankBox_->addItem(text, int(r));
    }
}

void WhatIfComparison::setDeltaSelection(int interval, int rank)
{
    const int intervals = data_ ? int(data_->intervals.size()) : 0;
    const int ranks = data_ ? int(std::max(data_->measuredRanks, data_->predictedRanks)) : 0;
    interval_ = interval >= 0 && interval < intervals ? interval : -1;
    rank_ = rank >= 0 && rank < ranks ? rank : -1;
    {
        const QSignalBlocker blockIntervals(intervalBox_);
        const QSignalBlocker blockRanks(rankBox_);
        intervalBox_->setCurrentIndex(std::max(0, intervalBox_->findData(interval_)));
        rankBox_->setCurrentIndex(std::max(0, rankBox_->findData(rank_)));
    }
    refreshHistogram();
}

void WhatIfComparison::refreshHistogram()
{
    if (!data_) {
        histogram_->setHistograms(std::nullopt, std::nullopt);
        histogram_->setTitle(tr("Delta times: computing…"));
        histogram_->setComparison(std::nullopt, std::nullopt);
        return;
    }
    auto [measured, predicted] = deltaHistograms(*data_, interval_, rank_);
    std::optional<double> w1;
    if (measured && predicted && !measured->empty() && !predicted->empty())
        w1 = wasserstein1Normalized(*predicted, *measured);
    const QString interval = interval_ < 0 ? tr("all intervals") : data_->intervals[interval_];
    const QString rank = rank_ < 0 ? tr("all ranks") : tr("rank %1").arg(rank_);
    QString title = tr("Delta times of %1, %2").arg(interval, rank);
    if (!measured) title += tr(" (not in the measured run)");
    if (!predicted) title += tr(" (not in the predicted run)");
    histogram_->setTitle(title);
    histogram_->setComparison(std::nullopt, w1);
    histogram_->setHistograms(std::move(measured), std::move(predicted));
}

void WhatIfComparison::fillWaits()
{
    std::vector<WaitComparisonChart::Group> groups;
    if (data_) {
        double m = 0;
        double p = 0;
        for (const auto& [name, values] : data_->waitTotals) {
            m += values.first;
            p += values.second;
        }
        groups.push_back({tr("All patterns"), m, p});
        for (const auto& [name, values] : data_->waitTotals)
            groups.push_back({name, values.first, values.second});
    }
    waitChart_->setGroups(std::move(groups));
}

void WhatIfComparison::showPane(const QString& name)
{
    static const QStringList kNames = {QStringLiteral("summary"), QStringLiteral("deltas"),
                                       QStringLiteral("waits")};
    const int index = int(kNames.indexOf(name));
    if (index >= 0) panes_->setCurrentIndex(index);
}

// --- WaitComparisonChart --------------------------------------------------------------------

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
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace rankscope
