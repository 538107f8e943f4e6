#include "views/whatif/whatifcomparison.h"

#include "model/deltas/histogram.h"
#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"
#include "views/plots/histogramaxis.h"
#include "views/plots/histogramoverlay.h"
#include "views/whatif/networkview.h"
#include "views/whatif/whatifcomparison_p.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rankscope {

using namespace whatifcomparison;

namespace {

enum SummaryColumn
{
    QuantityColumn,
    MeasuredColumn,
    BaselineColumn,
    PredictedColumn,
    EffectColumn,
    ErrorColumn,
    SummaryColumns
};

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
    splitter_ = splitter;
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
    effect_ = new QLabel(pane);
    effect_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = effect_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    effect_->setFont(big);
    effect_->hide();
    runs_ = new QLabel(pane);
    runs_->setWordWrap(true);
    runs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runs_->hide();
    answerNotes_ = new QLabel(pane);
    answerNotes_->setObjectName(QStringLiteral("answerNotes"));
    answerNotes_->setWordWrap(true);
    answerNotes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    answerNotes_->hide();
    engines_ = new QLabel(pane);
    engines_->setObjectName(QStringLiteral("engines"));
    engines_->setWordWrap(true);
    engines_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    engines_->setToolTip(tr("The same action program replayed on the same edited spec by "
                            "Rankscope and by SimGrid's smpirun -replay; run times from the "
                            "program's start to the last rank's end"));
    engines_->hide();
    summaryModel_ = new QStandardItemModel(0, SummaryColumns, pane);
    summaryModel_->setHorizontalHeaderLabels({tr("Quantity"), tr("Measured"), tr("Baseline replay"),
                                              tr("Edited replay"), tr("Edited vs baseline"),
                                              tr("Prediction vs measured")});
    summaryTable_ = new QTableView(pane);
    summaryTable_->setModel(summaryModel_);
    ItemViewText::install(summaryTable_);
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
    for (int c = 0; c < SummaryColumns; ++c)
        h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    h->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    summaryModel_->horizontalHeaderItem(QuantityColumn)
        ->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    summaryModel_->horizontalHeaderItem(BaselineColumn)
        ->setToolTip(tr("The same trace replayed on the unedited spec (the file with its "
                        "calibration): what the edit is measured against"));
    summaryModel_->horizontalHeaderItem(PredictedColumn)
        ->setToolTip(tr("The prediction: the replay with the edits (a scale prediction: the "
                        "synthesised run)"));
    summaryModel_->horizontalHeaderItem(EffectColumn)
        ->setToolTip(tr("The effect of the edit: (edited - baseline) / baseline; red when "
                        "slower, green when faster"));
    summaryModel_->horizontalHeaderItem(ErrorColumn)
        ->setToolTip(tr("The prediction's error: (predicted - measured) / measured. Its sign "
                        "is neither good nor bad: bold when more than %1 % off")
                         .arg(kNotablePercent));

    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(header_);
    layout->addWidget(effect_);
    layout->addWidget(runs_);
    layout->addWidget(answerNotes_);
    layout->addWidget(engines_);
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

void WhatIfComparison::setEffect(std::optional<whatif::ScenarioOutcome> effect)
{
    if (!effect || effect->edited.empty()) {
        effect_->hide();
        runs_->hide();
        return;
    }
    const whatif::EditedRun& e = effect->edited.front();
    const QString pct =
        e.effectPct ? QStringLiteral(" (%1)").arg(percentText(e.effectPct)) : QString();
    QString verdict = tr("the same run time as the baseline replay");
    QPalette palette = effect_->palette();
    palette.setColor(QPalette::WindowText, this->palette().color(QPalette::WindowText));
    if (e.effectNs > 0) {
        verdict = tr("slower than the baseline replay");
        palette.setColor(QPalette::WindowText, slowerColor());
    } else if (e.effectNs < 0) {
        verdict = tr("faster than the baseline replay");
        palette.setColor(QPalette::WindowText, fasterColor());
    }
    effect_->setPalette(palette);
    effect_->setText(
        tr("Effect of the change: %1%2, %3").arg(signedDuration(double(e.effectNs)), pct, verdict));
    effect_->setToolTip(tr("Edited replay - baseline replay (the same trace on the unedited "
                           "spec), from the end of MPI_Init to the end of MPI_Finalize"));
    const auto run = [](const whatif::RunTimes& t) {
        return tr("%1 (MPI %2)")
            .arg(formatDuration(double(t.runNs)), formatDuration(double(t.mpiNs)));
    };
    QString text = tr("Measured %1  ·  baseline replay %2  ·  edited replay %3")
                       .arg(run(effect->measured), run(effect->baseline), run(e.edited));
    if (effect->calibrationErrorPct)
        text += tr("\nCalibration error of the baseline replay: %1 against the measured run "
                   "(\"Calibrate to this trace\" in the what-if panel fits the spec)")
                    .arg(percentText(effect->calibrationErrorPct));
    runs_->setText(text);
    effect_->show();
    runs_->show();
}

QString WhatIfComparison::enginesText(const Engines& e)
{
    return tr("SimGrid (smpirun): %1, %2%3 % against Rankscope's %4 (%5 model)\n"
              "Wall-clock: Rankscope %6 s  ·  SimGrid %7 s (smpirun %8 s)")
        .arg(formatDuration(double(e.simgridNs)))
        .arg(e.differencePercent > 0 ? QStringLiteral("+") : QString())
        .arg(e.differencePercent, 0, 'f', 2)
        .arg(formatDuration(double(e.rankscopeNs)), e.model)
        .arg(e.rankscopeWallSeconds, 0, 'f', 3)
        .arg(e.simgridWallSeconds, 0, 'f', 3)
        .arg(e.smpirunSeconds, 0, 'f', 3);
}

void WhatIfComparison::setEngines(std::optional<Engines> engines)
{
    engines_->setVisible(engines.has_value());
    engines_->setText(engines ? enginesText(*engines) : QString());
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

void WhatIfComparison::setAnswer(std::shared_ptr<const whatif::WhatIfResult> answer)
{
    answer_ = std::move(answer);
    // What the pipeline says besides the numbers: the calibration used and why, and warnings
    // (an edit that cannot change the answer, say).
    QStringList lines;
    if (answer_ && answer_->calibration) {
        const whatif::WhatIfCalibration& c = *answer_->calibration;
        lines << tr("Calibration to %1 (%2 ranks): its replay %3 % on the spec, %4 % calibrated: "
                    "%5")
                     .arg(QFileInfo(QString::fromStdString(c.source)).fileName())
                     .arg(c.sourceRanks)
                     .arg(c.uncalibratedErrorPct, 0, 'f', 1)
                     .arg(c.calibratedErrorPct, 0, 'f', 1)
                     .arg(c.applied ? (c.partial ? tr("applied in part") : tr("applied"))
                                    : tr("not applied (it replays its trace worse)"));
    }
    if (answer_)
        for (const std::string& w : answer_->warnings)
            lines << tr("Warning: %1").arg(QString::fromStdString(w));
    answerNotes_->setText(lines.join(QLatin1Char('\n')));
    answerNotes_->setVisible(!lines.isEmpty());
    fillSummary();
}

void WhatIfComparison::fillSummary()
{
    header_->setText(headerText());
    summaryModel_->removeRows(0, summaryModel_->rowCount());
    if (!data_) return;
    // The baseline replay's figures come from the what-if pipeline (the run and MPI time over
    // the span, and its wait time); the other rows have no baseline replay to show.
    std::optional<whatif::RunTimes> baseline;
    std::optional<int64_t> baselineWait;
    if (answer_) {
        baseline = answer_->baseline;
        baselineWait = answer_->baselineWaitNs;
        if (!baseline && !answer_->runs.empty()) baseline = answer_->runs.front().baseline;
    }
    const auto baselineOf = [&](size_t row) -> std::optional<double> {
        if (row == 0 && baseline) return double(baseline->runNs);
        if (row == 1 && baseline) return double(baseline->mpiNs);
        if (row == 3 && baselineWait) return double(*baselineWait);
        return std::nullopt;
    };
    for (size_t row = 0; row < data_->summary.size(); ++row) {
        const ComparisonData::Quantity& q = data_->summary[row];
        auto* name = new QStandardItem(QString::fromStdString(q.name));
        name->setEditable(false);
        QStandardItem* m = numberItem(formatDuration(q.measuredNs));
        const std::optional<double> base = baselineOf(row);
        QStandardItem* b = numberItem(base ? formatDuration(*base) : QStringLiteral("—"));
        if (!base) b->setToolTip(tr("The baseline replay gives no such figure"));
        QStandardItem* p = numberItem(formatDuration(q.predictedNs));
        // Edited vs baseline: the effect; red when slower, green when faster.
        QStandardItem* e = numberItem(QStringLiteral("—"));
        if (base) {
            const double b0 = *base;
            std::optional<double> effect;
            if (b0 > 0) effect = 100.0 * (q.predictedNs - b0) / b0;
            e->setText(percentText(effect));
            e->setToolTip(tr("%1 → %2: %3 (edited - baseline)")
                              .arg(formatDuration(*base), formatDuration(q.predictedNs),
                                   signedDuration(q.predictedNs - *base)));
            if (q.predictedNs > *base)
                e->setForeground(slowerColor());
            else if (q.predictedNs < *base)
                e->setForeground(fasterColor());
        }
        // Prediction vs measured: the error, never coloured as good or bad.
        const std::optional<double> pct = q.percent();
        QStandardItem* d = numberItem(percentText(pct));
        QString tip = tr("%1 → %2: %3 (predicted - measured)")
                          .arg(formatDuration(q.measuredNs), formatDuration(q.predictedNs),
                               signedDuration(q.predictedNs - q.measuredNs));
        if (!pct) tip += tr(" (no percentage: the measured value is 0)");
        if (pct && std::abs(*pct) > kNotablePercent) {
            QFont f = d->font();
            f.setBold(true);
            d->setFont(f);
            tip +=
                tr("\nthe prediction is more than %1 % off the measured run").arg(kNotablePercent);
        }
        d->setToolTip(tip);
        summaryModel_->appendRow({name, m, b, p, e, d});
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
    for (int i = 0; i < int(data_->intervals.size()); ++i) {
        const QString name = QString::fromStdString(data_->intervals[size_t(i)]);
        intervalBox_->addItem(name, i);
        intervalBox_->setItemData(i + 1, name, Qt::ToolTipRole);
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
    const QString interval = interval_ < 0
                                 ? tr("all intervals")
                                 : QString::fromStdString(data_->intervals[size_t(interval_)]);
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
            groups.push_back({QString::fromStdString(name), values.first, values.second});
    }
    waitChart_->setGroups(std::move(groups));
}

void WhatIfComparison::showPane(const QString& name)
{
    static const QStringList kNames = {QStringLiteral("summary"), QStringLiteral("deltas"),
                                       QStringLiteral("waits")};
    const int index = int(kNames.indexOf(name));
    if (index >= 0) panes_->setCurrentIndex(index);
    if (name == QLatin1String("network") && network_) {
        panes_->setCurrentWidget(network_);
        // The network wants room: timelines ~35 %, the pane ~65 %.
        splitter_->setSizes({350, 650});
    }
}

void WhatIfComparison::setNetwork(std::shared_ptr<const netsim::NetworkPicture> picture)
{
    if (!picture) {
        if (network_) {
            panes_->removeTab(panes_->indexOf(network_));
            network_->deleteLater();
            network_ = nullptr;
        }
        return;
    }
    if (!network_) {
        network_ = new NetworkView(panes_);
        panes_->addTab(network_, tr("Network"));
        panes_->setTabToolTip(panes_->indexOf(network_),
                              tr("The simulated network, its links coloured by load"));
        // The predicted run's timeline (the replay's trace, whose times the figures share):
        // its visible range is a window the view can follow, and a listed message is
        // selected on it.
        TimelineView* predicted = timelines_->timeline(1);
        connect(predicted, &TimelineView::visibleRangeChanged, network_,
                [this, predicted](double b, double e) {
                    const double offset = double(predicted->timeOffset());
                    network_->setTimelineRange(b + offset, e + offset);
                });
        connect(network_, &NetworkView::messageChosen, predicted, [predicted](quint32 id) {
            predicted->reveal(predicted->messageSelection(MessageId{id}));
        });
    }
    network_->setPicture(std::move(picture));
    TimelineView* predicted = timelines_->timeline(1);
    const double offset = double(predicted->timeOffset());
    network_->setTimelineRange(predicted->mapping().begin() + offset,
                               predicted->mapping().end() + offset);
}

} // namespace rankscope
