// The what-if result layout: ComparisonData (summary, intervals, delta-time samples, wait
// totals) on two hand-built runs, and the WhatIfComparison widget showing them.
//
// Hand-built runs (times in ns; every call at the top level, so call sites are the function
// names and an interval is printed "MPI_Init - MPI_Send"):
//
// Measured, 2 ranks:
//   rank 0: Init [0,10]  Send->1 [100,110]               Finalize [300,310]
//   rank 1: Init [0,10]  Recv<-0 [50,120]                Finalize [300,310]
//   delta times: r0 90 (Init-Send), 190 (Send-Finalize); r1 40 (Init-Recv), 180 (Recv-Fin.)
//   computation 90 + 190 + 40 + 180 = 500; MPI time r0 10+10+10 = 30, r1 10+70+10 = 90: 120
//   run time 310; Late Sender: rank 1 enters Recv at 50, the send starts at 100: 50
//
// Predicted, 3 ranks:
//   rank 0: Init [0,10]  Send->1 [200,210]  Barrier [300,360]  Finalize [400,410]
//   rank 1: Init [0,10]  Recv<-0 [50,220]   Barrier [340,360]  Finalize [400,410]
//   rank 2: Init [0,10]                     Barrier [350,360]  Finalize [400,410]
//   delta times: r0 190, 90, 40; r1 40, 120, 40; r2 340, 40 (8 in all)
//   computation 190+90+40 + 40+120+40 + 340+40 = 900
//   MPI time r0 10+10+60+10 = 90, r1 10+170+20+10 = 210, r2 10+10+10 = 30: 330
//   run time 410; Late Sender 200 - 50 = 150; Wait at Barrier (last enters at 350):
//   r0 350-300 = 50, r1 350-340 = 10: 60; all patterns 210
//
// Summary in percent: run time 100/310 = +32.26 %, MPI 210/120 = +175 %, computation
// 400/500 = +80 %, wait 160/50 = +320 %, Late Sender +200 %, Wait at Barrier: measured 0, n/a.

#include "model/analysis/comparisondata.h"
#include "model/generator/tracegenerator.h"
#include "model/profile/profile.h"
#include "model/profile/timelinesummary.h"
#include "model/waits/waitstates.h"
#include "testsupport/handworld.h"
#include "views/panes/durationformat.h"
#include "views/plots/histogramoverlay.h"
#include "views/whatif/networkview.h"
#include "views/whatif/whatifcomparison.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <numeric>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr uint64_t kSmall = 100; // below the eager limit

using World = rankscope::test::HandWorld;

/// One rank: Init [0,10], then 1000 MPI_Comm_rank calls of 1 ns each, the i-th (from 0) after a
/// gap of i + 1 ns, then Finalize 5 ns after the last. Intervals: Init - Comm_rank {1},
/// Comm_rank - Comm_rank {2, 3, ..., 1000} (999 samples, mean 501), Comm_rank - Finalize {5}.
Trace loopTrace()
{
    World w(1);
    w.bytes = kSmall;
    w.call(0, "MPI_Init", 0, 10);
    int64_t t = 10;
    for (int i = 0; i < 1000; ++i) {
        t += i + 1;
        w.call(0, "MPI_Comm_rank", t, t + 1);
        t += 1;
    }
    w.call(0, "MPI_Finalize", t + 5, t + 6);
    return w.h.finish();
}

uint64_t binTotal(const Histogram& h)
{
    return std::accumulate(h.bins.begin(), h.bins.end(), uint64_t(0),
                           [](uint64_t s, const HistogramBin& b) { return s + b.count; });
}

ComparisonView::Run run(const QString& name, std::shared_ptr<const Trace> trace,
                        std::shared_ptr<const WaitStateAnalysis> waits)
{
    ComparisonView::Run r;
    r.name = name;
    r.trace = trace;
    r.summary = std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace));
    r.profile = std::make_shared<const Profile>(computeProfile(*trace));
    r.waits = std::move(waits);
    return r;
}

} // namespace

class TestWhatIfComparison : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void percent();
    void summaryRows();
    void intervalsOfBothRuns();
    void histogramsPerSelection();
    void samplingKeepsCountsExact();
    void deterministicAndCancellable();
    void summaryTable();
    void differenceColours();
    void deltaSelectionChangesHistogram();
    void waitChart();
    void render();
    void networkPaneFollowsAndSelects();

private:
    std::shared_ptr<const Trace> measured_;
    std::shared_ptr<const Trace> predicted_;
    std::shared_ptr<const WaitStateAnalysis> measuredWaits_;
    std::shared_ptr<const WaitStateAnalysis> predictedWaits_;
    std::shared_ptr<const ComparisonData> data_;
};

void TestWhatIfComparison::initTestCase()
{
    // A fixed font: the geometry does not depend on the machine's fonts and DPI.
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    measured_ = std::make_shared<const Trace>(rankscope::test::comparedRunA(kSmall));
    predicted_ = std::make_shared<const Trace>(rankscope::test::comparedRunB(kSmall));
    measuredWaits_ = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*measured_));
    predictedWaits_ = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*predicted_));
    data_ = buildComparisonData(*measured_, *measuredWaits_, *predicted_, *predictedWaits_);
    QVERIFY(data_);
}

void TestWhatIfComparison::percent()
{
    QCOMPARE(*(ComparisonData::Quantity{std::string(), 200, 250}.percent()), 25.0);
    QCOMPARE(*(ComparisonData::Quantity{std::string(), 200, 100}.percent()), -50.0);
    QVERIFY(!(ComparisonData::Quantity{std::string(), 0, 100}.percent()));
}

void TestWhatIfComparison::summaryRows()
{
    const std::vector<ComparisonData::Quantity> expected = {
        // Run time from the end of MPI_Init (10) to the end of MPI_Finalize (310, 410); MPI
        // time after MPI_Init: 10 + 10 + 70 + 10 and 10 + 60 + 10 + 170 + 20 + 10 + 10 + 10.
        {"Run time", 300, 400},
        {"MPI time (sum over ranks)", 100, 300},
        {"Computation time (sum over ranks)", 500, 900},
        {"Wait time (all patterns)", 50, 210},
        {"Wait: Late Sender", 50, 150},
        {"Wait: Wait at Barrier", 0, 60},
    };
    QCOMPARE(data_->summary, expected);
    QCOMPARE(*data_->summary[0].percent(), 100.0 * 100 / 300);
    QCOMPARE(*data_->summary[1].percent(), 200.0);
    QCOMPARE(*data_->summary[2].percent(), 80.0);
    QCOMPARE(*data_->summary[3].percent(), 320.0);
    QCOMPARE(*data_->summary[4].percent(), 200.0);
    QVERIFY(!data_->summary[5].percent());
    QCOMPARE(data_->waitTotals.size(), size_t(2));
    QCOMPARE(data_->waitTotals[0].first, std::string("Late Sender"));
    QCOMPARE(data_->waitTotals[0].second, std::make_pair(50.0, 150.0));
    QCOMPARE(data_->waitTotals[1].first, std::string("Wait at Barrier"));
    QCOMPARE(data_->waitTotals[1].second, std::make_pair(0.0, 60.0));
    QCOMPARE(data_->measuredRanks, 2u);
    QCOMPARE(data_->predictedRanks, 3u);
    QVERIFY(!data_->cancelled);
}

void TestWhatIfComparison::intervalsOfBothRuns()
{
    const std::vector<std::string> expected = {
        "MPI_Barrier - MPI_Finalize", "MPI_Init - MPI_Barrier",  "MPI_Init - MPI_Recv",
        "MPI_Init - MPI_Send",        "MPI_Recv - MPI_Barrier",  "MPI_Recv - MPI_Finalize",
        "MPI_Send - MPI_Barrier",     "MPI_Send - MPI_Finalize",
    };
    QCOMPARE(data_->intervals, expected);
    QCOMPARE(data_->measuredDeltas.count, uint64_t(4));
    QCOMPARE(data_->predictedDeltas.count, uint64_t(8));
}

void TestWhatIfComparison::histogramsPerSelection()
{
    // All intervals, all ranks: every delta time once.
    auto [m, p] = deltaHistograms(*data_, -1, -1);
    QVERIFY(m && p);
    QCOMPARE(m->count, uint64_t(4));
    QCOMPARE(p->count, uint64_t(8));
    QCOMPARE(binTotal(*m), uint64_t(4));
    QCOMPARE(binTotal(*p), uint64_t(8));
    QCOMPARE(m->min, 40.0);
    QCOMPARE(m->max, 190.0);
    QCOMPARE(m->mean, 125.0);
    QCOMPARE(p->mean, 112.5);

    // Rank 2 exists only in the predicted run: {340, 40}.
    auto [m2, p2] = deltaHistograms(*data_, -1, 2);
    QVERIFY(!m2);
    QVERIFY(p2);
    QCOMPARE(p2->count, uint64_t(2));
    QCOMPARE(p2->min, 40.0);
    QCOMPARE(p2->max, 340.0);

    // Rank 0, all intervals: measured {90, 190}: 20 bins of width 5, one sample at each end.
    auto [m0, p0] = deltaHistograms(*data_, -1, 0);
    QCOMPARE(m0->bins.size(), size_t(20));
    QCOMPARE(m0->bins.front().count, uint64_t(1));
    QCOMPARE(m0->bins.back().count, uint64_t(1));
    QCOMPARE(m0->bins[0].upper, 95.0);
    QCOMPARE(p0->count, uint64_t(3)); // 190, 90, 40

    // "MPI_Barrier - MPI_Finalize" (index 0): not measured; predicted 40 on every rank.
    auto [mb, pb] = deltaHistograms(*data_, 0, -1);
    QVERIFY(mb && mb->empty());
    QCOMPARE(pb->count, uint64_t(3));
    QCOMPARE(pb->bins[0].count, uint64_t(3));
    QCOMPARE(pb->bins[0].lower, 40.0);

    // "MPI_Init - MPI_Recv" (index 2) on rank 1: 40 in both runs.
    auto [mr, pr] = deltaHistograms(*data_, 2, 1);
    QCOMPARE(mr->count, uint64_t(1));
    QCOMPARE(pr->count, uint64_t(1));
    QCOMPARE(mr->mean, 40.0);
    // ... and on rank 0 it does not occur.
    QVERIFY(deltaHistograms(*data_, 2, 0).first->empty());
    // Bin count is honoured.
    QCOMPARE(deltaHistograms(*data_, -1, -1, 7).second->bins.size(), size_t(7));
}

void TestWhatIfComparison::samplingKeepsCountsExact()
{
    const Trace loop = loopTrace();
    const WaitStateAnalysis none = analyzeWaitStates(loop);
    // Whole: the loop interval's 999 delta times 2..1000, all kept.
    const auto whole = buildComparisonData(loop, none, loop, none);
    QCOMPARE(whole->intervals.front(), std::string("MPI_Comm_rank - MPI_Comm_rank"));
    const auto& cells = whole->measuredDeltas.cells[0];
    QCOMPARE(cells.size(), size_t(1));
    QCOMPARE(cells[0].count, uint64_t(999));
    QCOMPARE(cells[0].kept, size_t(999));
    std::vector<double> all(999);
    std::iota(all.begin(), all.end(), 2.0);
    QCOMPARE(*deltaHistograms(*whole, 0, -1).first, makeHistogram(all));

    // A budget of 90 samples for one rank with 3 intervals: 30 kept per interval.
    const auto sampled = buildComparisonData(loop, none, loop, none, {}, 90);
    const auto& cell = sampled->measuredDeltas.cells[0][0];
    QCOMPARE(cell.count, uint64_t(999));
    QCOMPARE(cell.kept, size_t(30));
    QCOMPARE(sampled->measuredDeltas.samples.size(), size_t(30 + 1 + 1));
    for (size_t i = cell.first; i < cell.first + cell.kept; ++i) {
        const double x = sampled->measuredDeltas.samples[i];
        QVERIFY(x >= 2 && x <= 1000 && x == std::floor(x));
    }
    const Histogram h = *deltaHistograms(*sampled, 0, -1).first;
    QCOMPARE(h.count, uint64_t(999));
    QCOMPARE(h.min, 2.0);
    QCOMPARE(h.max, 1000.0);
    QCOMPARE(h.mean, 501.0);
    double frequencies = 0;
    for (const HistogramBin& b : h.bins)
        frequencies += b.frequency;
    QVERIFY(std::abs(frequencies - 1) < 1e-9);
    // Each of the 30 samples stands for 999 / 30 = 33.3 delta times; rounding per bin may
    // move the bin total by at most half a count per bin.
    QVERIFY(std::abs(double(binTotal(h)) - 999) <= 10);
    // All intervals on the sampled run: 999 + 1 + 1 delta times.
    QCOMPARE(deltaHistograms(*sampled, -1, -1).first->count, uint64_t(1001));
    // Computation time stays exact: 1 + (2 + ... + 1000) + 5.
    QCOMPARE(sampled->summary[2].measuredNs, 1.0 + 500499.0 + 5.0);
}

void TestWhatIfComparison::deterministicAndCancellable()
{
    const Trace loop = loopTrace();
    const WaitStateAnalysis none = analyzeWaitStates(loop);
    const auto a = buildComparisonData(loop, none, loop, none, {}, 90);
    const auto b = buildComparisonData(loop, none, loop, none, {}, 90);
    QVERIFY(*a == *b);

    int calls = 0;
    const auto cancelled =
        buildComparisonData(loop, none, loop, none, [&calls](double) { return ++calls < 3; });
    QVERIFY(cancelled->cancelled);
    double last = -1;
    bool monotone = true;
    const auto full = buildComparisonData(loop, none, loop, none, [&](double f) {
        monotone = monotone && f >= last && f <= 1;
        last = f;
        return true;
    });
    QVERIFY(!full->cancelled);
    QVERIFY(monotone);
    QCOMPARE(last, 1.0);
}

void TestWhatIfComparison::summaryTable()
{
    WhatIfComparison w;
    w.setRuns(run("measured.otf2", measured_, measuredWaits_),
              run("predicted.otf2", predicted_, predictedWaits_), data_,
              QStringLiteral("slow network"));
    const QAbstractItemModel* m = w.summaryTable()->model();
    QCOMPARE(m->rowCount(), 6);
    // Quantity | Measured | Baseline replay | Edited replay | Edited vs baseline | Prediction vs
    // measured: what each difference compares is in its header.
    QCOMPARE(m->columnCount(), 6);
    QCOMPARE(m->headerData(2, Qt::Horizontal).toString(), QStringLiteral("Baseline replay"));
    QCOMPARE(m->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Edited replay"));
    QCOMPARE(m->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Edited vs baseline"));
    QCOMPARE(m->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Prediction vs measured"));
    const auto cell = [m](int r, int c) { return m->index(r, c).data().toString(); };
    QCOMPARE(cell(0, 0), QStringLiteral("Run time"));
    QCOMPARE(cell(0, 1), formatDuration(300));
    QCOMPARE(cell(0, 1), QStringLiteral("300 ns"));
    QCOMPARE(cell(0, 2), QStringLiteral("—")); // no pipeline answer given: no baseline
    QCOMPARE(cell(0, 3), QStringLiteral("400 ns"));
    QCOMPARE(cell(0, 5), QStringLiteral("+33.3 %"));
    QCOMPARE(cell(1, 0), QStringLiteral("MPI time (sum over ranks)"));
    QCOMPARE(cell(1, 5), QStringLiteral("+200.0 %"));
    QCOMPARE(cell(2, 1), QStringLiteral("500 ns"));
    QCOMPARE(cell(2, 3), QStringLiteral("900 ns"));
    QCOMPARE(cell(3, 0), QStringLiteral("Wait time (all patterns)"));
    QCOMPARE(cell(3, 3), QStringLiteral("210 ns"));
    QCOMPARE(cell(5, 0), QStringLiteral("Wait: Wait at Barrier"));
    QCOMPARE(cell(5, 1), QStringLiteral("0 ns"));
    QCOMPARE(cell(5, 5), QStringLiteral("n/a"));
    const int align = m->index(0, 1).data(Qt::TextAlignmentRole).toInt();
    QVERIFY(align & Qt::AlignRight);
    const QString header = w.headerText();
    QVERIFY(header.contains(QStringLiteral("slow network")));
    QVERIFY(header.contains(QStringLiteral("measured.otf2 (2 ranks")));
    QVERIFY(header.contains(QStringLiteral("predicted.otf2 (3 ranks")));
    QCOMPARE(w.panes()->count(), 3);
    QCOMPARE(w.panes()->tabText(0), QStringLiteral("Summary"));
    QCOMPARE(w.panes()->tabText(1), QStringLiteral("Delta times"));
    QCOMPARE(w.panes()->tabText(2), QStringLiteral("Wait states"));
    w.showPane(QStringLiteral("waits"));
    QCOMPARE(w.panes()->currentIndex(), 2);
    w.showPane(QStringLiteral("deltas"));
    QCOMPARE(w.panes()->currentIndex(), 1);
    QVERIFY(w.timelines()->timeline(0)->trace() == measured_);
    QVERIFY(w.timelines()->timeline(1)->trace() == predicted_);
}

void TestWhatIfComparison::differenceColours()
{
    auto data = std::make_shared<ComparisonData>();
    data->summary = {{"Run time", 100, 106}, {"MPI time", 100, 94}, {"Computation", 100, 104}};
    WhatIfComparison w;
    w.setComparisonData(data);
    const QAbstractItemModel* m = w.summaryTable()->model();
    QCOMPARE(m->rowCount(), 3);
    const auto colour = [m](int r, int c) {
        return m->index(r, c).data(Qt::ForegroundRole).value<QBrush>().color();
    };
    // The error (prediction vs measured) is never coloured as good or bad: a prediction 6 %
    // below the measured run is as wrong as one 6 % above (it was green for being negative).
    QCOMPARE(m->index(0, 5).data().toString(), QStringLiteral("+6.0 %"));
    QCOMPARE(m->index(1, 5).data().toString(), QStringLiteral("-6.0 %"));
    for (int r = 0; r < 3; ++r)
        QVERIFY(!m->index(r, 5).data(Qt::ForegroundRole).isValid());
    QVERIFY(m->index(1, 5).data(Qt::FontRole).value<QFont>().bold()); // more than 5 % off
    QVERIFY(!m->index(2, 5).data(Qt::FontRole).value<QFont>().bold());
    // The effect (edited vs baseline), from the pipeline's baseline replay: red when slower,
    // green when faster. Baseline run 110 ns, MPI 90 ns: run 106 is faster, MPI 94 slower.
    auto answer = std::make_shared<whatif::WhatIfResult>();
    answer->baseline = whatif::RunTimes{110, 90};
    w.setAnswer(answer);
    QCOMPARE(m->index(0, 2).data().toString(), QStringLiteral("110 ns"));
    QCOMPARE(m->index(0, 4).data().toString(), QStringLiteral("-3.6 %")); // (106-110)/110
    QCOMPARE(m->index(1, 4).data().toString(), QStringLiteral("+4.4 %")); // (94-90)/90
    QVERIFY(colour(0, 4).green() > 100 && colour(0, 4).red() < 80);       // green: faster
    QVERIFY(colour(1, 4).red() > 150 && colour(1, 4).green() < 80);       // red: slower
    QCOMPARE(m->index(2, 4).data().toString(), QStringLiteral("—"));      // no baseline figure
}

void TestWhatIfComparison::deltaSelectionChangesHistogram()
{
    WhatIfComparison w;
    w.setRuns(run("measured", measured_, measuredWaits_),
              run("predicted", predicted_, predictedWaits_), data_, QStringLiteral("s"));
    QCOMPARE(w.intervalBox()->count(), 1 + 8);
    QCOMPARE(w.rankBox()->count(), 1 + 3);
    QVERIFY(w.rankBox()->itemText(3).contains(QStringLiteral("predicted only")));
    HistogramOverlay* h = w.histogram();
    QCOMPARE(h->measured()->count, uint64_t(4));
    QCOMPARE(h->predicted()->count, uint64_t(8));
    QVERIFY(h->headerText().contains(QStringLiteral("W1")));

    w.setDeltaSelection(-1, 2);
    QVERIFY(!h->measured());
    QCOMPARE(binTotal(*h->predicted()), uint64_t(2));
    QCOMPARE(w.rankBox()->currentIndex(), 3);
    QVERIFY(!h->headerText().contains(QStringLiteral("W1")));

    w.setDeltaSelection(0, -1); // MPI_Barrier - MPI_Finalize
    QVERIFY(h->measured()->empty());
    QCOMPARE(binTotal(*h->predicted()), uint64_t(3));
    QCOMPARE(w.intervalBox()->currentIndex(), 1);
    QVERIFY(h->headerText().contains(QStringLiteral("MPI_Barrier - MPI_Finalize")));

    // The combos drive the selection too: "MPI_Init - MPI_Recv" (item 3), rank 1.
    w.intervalBox()->setCurrentIndex(3);
    w.rankBox()->setCurrentIndex(2);
    QCOMPARE(w.deltaInterval(), 2);
    QCOMPARE(w.deltaRank(), 1);
    QCOMPARE(binTotal(*h->measured()), uint64_t(1));
    QCOMPARE(h->measured()->mean, 40.0);
    QCOMPARE(h->predicted()->mean, 40.0);

    w.logScaleBox()->setChecked(true);
    QCOMPARE(h->scale(), HistogramAxis::Scale::Log);

    // Out-of-range selections fall back to "all".
    w.setDeltaSelection(99, 99);
    QCOMPARE(w.deltaInterval(), -1);
    QCOMPARE(w.deltaRank(), -1);
    QCOMPARE(binTotal(*h->measured()), uint64_t(4));
}

void TestWhatIfComparison::waitChart()
{
    WhatIfComparison w;
    w.setRuns(run("measured", measured_, measuredWaits_),
              run("predicted", predicted_, predictedWaits_), data_, QStringLiteral("s"));
    WaitComparisonChart* chart = w.waitChart();
    QCOMPARE(chart->groups().size(), size_t(3));
    QCOMPARE(chart->groups()[0].name, QStringLiteral("All patterns"));
    QCOMPARE(chart->groups()[0].measuredNs, 50.0);
    QCOMPARE(chart->groups()[0].predictedNs, 210.0);
    QCOMPARE(chart->groups()[2].name, QStringLiteral("Wait at Barrier"));
    chart->resize(700, 300);
    // Bars are proportional: 150 / 50 = 3.
    const QRectF m = chart->barRect(1, 0, chart->rect());
    const QRectF p = chart->barRect(1, 1, chart->rect());
    QVERIFY(std::abs(p.height() / m.height() - 3) < 0.05);
    QVERIFY(m.right() <= p.left());
    QCOMPARE(chart->barRect(2, 0, chart->rect()).height(), 0.0);
    const QString tip = chart->toolTipAt(p.center().toPoint());
    QVERIFY2(tip.contains(QStringLiteral("Late Sender")) &&
                 tip.contains(QStringLiteral("150 ns")) &&
                 tip.contains(QStringLiteral("predicted")),
             qPrintable(tip));
    QVERIFY(chart->toolTipAt(QPoint(1, 1)).isEmpty());

    // Seven groups on a narrow chart: the value labels no longer fit their bars and stack.
    WaitComparisonChart narrow;
    narrow.setRunNames(QStringLiteral("measured"), QStringLiteral("predicted"));
    narrow.setGroups({{QStringLiteral("All patterns"), 3.2e9, 4.1e9},
                      {QStringLiteral("Late Sender"), 1.5e9, 2.2e9},
                      {QStringLiteral("Late Receiver"), 2e8, 1e8},
                      {QStringLiteral("Wait at Barrier"), 9e8, 9.1e8},
                      {QStringLiteral("Wait at N x N"), 6e8, 8.9e8},
                      {QStringLiteral("Late Broadcast"), 0, 1e6},
                      {QStringLiteral("Early Reduce"), 1.2e3, 0}});
    narrow.resize(600, 280);
    const QImage image = narrow.grab().toImage();
    QCOMPARE(image.size(), QSize(600, 280));
    const QString dir = qEnvironmentVariable("RANKSCOPE_SHOT_DIR");
    if (!dir.isEmpty()) QVERIFY(image.save(dir + QStringLiteral("/whatif-waits-narrow.png")));
}

void TestWhatIfComparison::networkPaneFollowsAndSelects()
{
    // The predicted run's message 0 is rank 0's send to rank 1 (MPI_Send [200, 210]). Both runs
    // are aligned at the end of MPI_Init (10 ns), so the predicted timeline's displayed
    // [100, 300) is trace time [110, 310), the window the network view follows.
    WhatIfComparison w;
    w.resize(1400, 900);
    w.setRuns(run("measured.otf2", measured_, measuredWaits_),
              run("predicted.otf2", predicted_, predictedWaits_), data_,
              QStringLiteral("slow network"));
    auto picture = std::make_shared<netsim::NetworkPicture>();
    picture->layouts = netsim::layoutNetworks(
        netsim::NetworkSpec::fromString("nodes: 3\nlinks:\n  l: {latency: 1us, bandwidth: 1GB/s}\n"
                                        "networks:\n  x: {topology: crossbar, link: l}\n",
                                        "test"));
    picture->figures.links.resize(6);
    picture->figures.windowNs = 10;
    picture->figures.windowBusyNs.assign(6 * netsim::LinkRecorder::kWindows, 0.0);
    w.setNetwork(picture);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    NetworkView* view = w.networkView();
    QVERIFY(view);
    view->windowBox()->setCurrentIndex(int(NetworkView::WindowMode::Timeline));
    TimelineView* predicted = w.timelines()->timeline(1);
    QCOMPARE(predicted->timeOffset(), int64_t(10));
    predicted->setVisibleRange(100, 300);
    QCOMPARE(view->window(), (std::pair{110.0, 310.0}));
    emit view->messageChosen(0);
    const TimelineSelection s = predicted->selection();
    QCOMPARE(s.message, MessageId(0));
    QCOMPARE(s.rank, RankId(0));
}

void TestWhatIfComparison::render()
{
    // A realistic pair: a 16-rank 2D stencil, and the same program on a 40x slower network.
    GeneratorOptions o;
    o.ranks = 16;
    o.iterations = 20;
    const auto base = std::make_shared<const Trace>(generateTrace(o));
    // The prediction: a 40x slower network and more load imbalance.
    o.latencyNs = 60000;
    o.bandwidthBytesPerSecond = 1e9;
    o.imbalance = 0.2;
    o.noise = 0.05;
    const auto slow = std::make_shared<const Trace>(generateTrace(o));
    const auto baseWaits = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*base));
    const auto slowWaits = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*slow));
    WhatIfComparison w;
    w.setRuns(run("stencil2d-16r.otf2", base, baseWaits),
              run("stencil2d-16r, 60 us, 1 GB/s, imbalance 0.2", slow, slowWaits),
              buildComparisonData(*base, *baseWaits, *slow, *slowWaits),
              QStringLiteral("slow network"));
    w.resize(1400, 800);
    const QString dir = qEnvironmentVariable("RANKSCOPE_SHOT_DIR");
    for (const QString& pane :
         {QStringLiteral("summary"), QStringLiteral("deltas"), QStringLiteral("waits")}) {
        w.showPane(pane);
        const QImage image = w.grab().toImage();
        QCOMPARE(image.size(), QSize(1400, 800));
        if (!dir.isEmpty()) QVERIFY(image.save(dir + QStringLiteral("/whatif-%1.png").arg(pane)));
    }
}

QTEST_MAIN(TestWhatIfComparison)

#include "tst_whatifcomparison.moc"
