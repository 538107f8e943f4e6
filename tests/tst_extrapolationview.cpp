// The extrapolation GUI on generated traces: stencil2d at 4, 9, 16 and 25 ranks extrapolated to
// 64, with a measured run at 64. Expected values come from the engine's result structs (the
// view must show what the result says) and from the definitions: the list order is the
// predicted total time, mean x count x target ranks, largest first.
//
// Set RANKSCOPE_EXTRAP_SCREENSHOT=out.png to also save the main window with the extrapolation
// tab at 1600x1000.

#include "app/extrapolatedialog.h"
#include "app/extrapolationjob.h"
#include "app/mainwindow.h"
#include "app/recentfiles.h"
#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "views/extrap/extrapfititemmodel.h"
#include "views/extrap/extrapintervalitemmodel.h"
#include "views/extrap/extrapolationview.h"
#include "views/extrap/fitdetails.h"
#include "views/panes/durationformat.h"
#include "views/plots/histogramoverlay.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>

using namespace rankscope;
using extrap::Method;

namespace {

constexpr int kTimeoutMs = 120000;
constexpr uint32_t kScales[] = {4, 9, 16, 25};
constexpr uint32_t kTarget = 64;

std::shared_ptr<const Trace> stencil(uint32_t ranks)
{
    GeneratorOptions o;
    o.pattern = "stencil2d";
    o.ranks = ranks;
    o.iterations = 4;
    o.seed = 3;
    return std::make_shared<const Trace>(generateTrace(o));
}

LoadedTrace loaded(const QString& name, std::shared_ptr<const Trace> trace)
{
    LoadedTrace t;
    t.path = QStringLiteral("/t/") + name;
    t.name = name;
    t.trace = std::move(trace);
    return t;
}

} // namespace

class TestExtrapolationView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void listsSumsThenIntervalsByTotalTime();
    void methodSwitchShowsTheOtherResult();
    void modelDetailsListEveryCandidate();
    void exportsPngSvgAndCsv();
    void cancelLeavesNoTab();
    void automaticRunShowsTheWinnerFirst();
    void dialogRefusesTwoScales();
    void dialogPicksTheMeasuredTrace();
    void mainWindowOpensResultNextToMeasured();

private:
    ExtrapolationRequest request() const;
    std::vector<std::shared_ptr<const Trace>> small_;
    std::shared_ptr<const Trace> measured_;
    ExtrapolationRun run_;
};

void TestExtrapolationView::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_extrapolationview"));
    for (uint32_t n : kScales)
        small_.push_back(stencil(n));
    measured_ = stencil(kTarget);
    const ExtrapolationOutcome out = ExtrapolationJob::runNow(request(), {});
    QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
    run_ = out.run;
    QVERIFY(run_.rankscope && run_.classic);
    QVERIFY(run_.rankscope->intervals.size() >= 3);
}

ExtrapolationRequest TestExtrapolationView::request() const
{
    ExtrapolationRequest r;
    r.traces = small_;
    for (uint32_t n : kScales)
        r.names << QStringLiteral("s%1").arg(n);
    r.measured = measured_;
    r.measuredName = QStringLiteral("s64");
    r.target = kTarget;
    r.automatic = false; // both methods side by side; automaticRunShowsTheWinnerFirst covers auto
    return r;
}

void TestExtrapolationView::listsSumsThenIntervalsByTotalTime()
{
    ExtrapolationView view;
    view.setRun(run_);
    const ExtrapIntervalItemModel* m = view.intervalModel();
    const auto& intervals = run_.rankscope->intervals;
    QCOMPARE(m->rowCount(), int(intervals.size()) + 1);
    QCOMPARE(m->index(0, 0).data().toString(), QStringLiteral("Per-rank sums"));
    double previous = std::numeric_limits<double>::infinity();
    QStringList seen;
    for (int row = 1; row < m->rowCount(); ++row) {
        const QString name = m->intervalName(row);
        const auto it = std::find_if(intervals.begin(), intervals.end(), [&](const auto& p) {
            return QString::fromStdString(p.name) == name;
        });
        QVERIFY(it != intervals.end());
        const double total = it->predictedMean * it->predictedCount * kTarget;
        QVERIFY2(total <= previous, qPrintable(name));
        previous = total;
        seen << name;
        QCOMPARE(m->index(row, ExtrapIntervalItemModel::MeanColumn).data().toString(),
                 formatDuration(it->predictedMean));
    }
    QCOMPARE(seen.size(), qsizetype(intervals.size()));
    QCOMPARE(view.currentRow(), 0);
    QCOMPARE(*view.overlay()->predicted(), run_.rankscope->predictedSums);
    QCOMPARE(*view.overlay()->measured(), *run_.rankscope->measuredSums);
    QVERIFY(view.overlay()->headerText().contains(
        QStringLiteral("accuracy %1 %").arg(*run_.rankscope->accuracyPct, 0, 'f', 1)));
    QVERIFY(view.summaryText().contains(QStringLiteral("Target 64 ranks from 4, 9, 16, 25")));
}

void TestExtrapolationView::methodSwitchShowsTheOtherResult()
{
    ExtrapolationView view;
    view.setRun(run_);
    QCOMPARE(view.method(), Method::Rankscope);
    view.selectRow(1);
    const QString name = view.intervalModel()->intervalName(1);
    const auto find = [&](const extrap::ExtrapolationResult& r) {
        for (const auto& p : r.intervals)
            if (QString::fromStdString(p.name) == name) return p;
        return extrap::IntervalPrediction{};
    };
    const extrap::IntervalPrediction rs = find(*run_.rankscope);
    const extrap::IntervalPrediction cl = find(*run_.classic);
    QCOMPARE(view.overlay()->predicted()->mean, rs.predicted.mean);
    QVERIFY(view.overlay()->headerText().startsWith(name + QStringLiteral(", Rankscope")));
    view.classicAction()->trigger();
    QCOMPARE(view.method(), Method::Classic);
    QCOMPARE(view.currentRow(), 1);
    QCOMPARE(*view.overlay()->predicted(), cl.predicted);
    QCOMPARE(view.intervalModel()->index(1, ExtrapIntervalItemModel::MeanColumn).data().toString(),
             formatDuration(cl.predictedMean));
    QVERIFY(view.overlay()->predicted()->mean != rs.predicted.mean);
    view.selectRow(0);
    QCOMPARE(*view.overlay()->predicted(), run_.classic->predictedSums);
    view.rankscopeAction()->trigger();
    QCOMPARE(*view.overlay()->predicted(), run_.rankscope->predictedSums);
    view.logAction()->trigger();
    QCOMPARE(view.overlay()->scale(), HistogramAxis::Scale::Log);
}

void TestExtrapolationView::modelDetailsListEveryCandidate()
{
    ExtrapolationView view;
    view.setRun(run_);
    view.selectRow(1);
    const extrap::IntervalPrediction* p = view.intervalModel()->interval(1);
    QVERIFY(p);
    size_t candidates = 0;
    for (const extrap::SeriesFit& f : p->fits)
        candidates += f.models.size();
    QCOMPARE(view.details()->model()->rowCount(), int(candidates));
    // The plot starts on the "mean" series, whose chosen model is the interval's.
    const int series = view.details()->currentSeries();
    QVERIFY(series >= 0);
    QCOMPARE(p->fits[size_t(series)].quantity, std::string("mean"));
    QCOMPARE(p->fits[size_t(series)].chosenName(), p->chosenModel);
}

void TestExtrapolationView::exportsPngSvgAndCsv()
{
    QTemporaryDir dir;
    ExtrapolationView view;
    view.setRun(run_);
    QString error;
    const QString png = dir.filePath(QStringLiteral("h.png"));
    const QString svg = dir.filePath(QStringLiteral("h.svg"));
    const QString csv = dir.filePath(QStringLiteral("h.csv"));
    QVERIFY2(view.exportPlot(png, &error, QSize(900, 500)), qPrintable(error));
    QVERIFY2(view.exportPlot(svg, &error, QSize(900, 500)), qPrintable(error));
    QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
    QCOMPARE(QImage(png).size(), QSize(900, 500));
    QVERIFY(QFileInfo(svg).size() > 0);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(f.readAll());
    QCOMPARE(text, view.overlay()->toCsv());
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), qsizetype(1 + run_.rankscope->measuredSums->bins.size() +
                                     run_.rankscope->predictedSums.bins.size()));
    QVERIFY(!view.exportPlot(dir.filePath(QStringLiteral("h.txt")), &error));
}

void TestExtrapolationView::cancelLeavesNoTab()
{
    MainWindow w;
    w.setInteractive(false);
    QSignalSpy finished(w.extrapolationJob(), &ExtrapolationJob::finished);
    QSignalSpy cancelled(w.extrapolationJob(), &ExtrapolationJob::cancelled);
    w.extrapolationJob()->start(request());
    QVERIFY(w.extrapolationJob()->busy());
    auto* cancel = w.findChild<QToolButton*>(QStringLiteral("cancelExtrapolationButton"));
    QVERIFY(cancel && cancel->isVisibleTo(&w));
    cancel->click();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!w.extrapolationJob()->busy());
    QVERIFY(QThreadPool::globalInstance()->waitForDone(kTimeoutMs));
    QTest::qWait(50);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(w.tabs()->count(), 0);
    QVERIFY(!cancel->isVisibleTo(&w));
}

void TestExtrapolationView::automaticRunShowsTheWinnerFirst()
{
    ExtrapolationRequest r = request();
    r.automatic = true;
    const ExtrapolationOutcome out = ExtrapolationJob::runNow(r, {});
    QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
    const ExtrapolationRun& run = out.run;
    QVERIFY(run.autoChosen.has_value());
    QCOMPARE(run.candidates.size(), size_t(3));
    QVERIFY(run.rankscope && run.classic); // the winner and the other method, to switch to
    const extrap::ExtrapolationResult* winner = run.result(*run.autoChosen);
    QVERIFY(winner && winner->autoChosen);
    QCOMPARE(run.primary(), winner);
    QCOMPARE(run.candidates.front().method, *run.autoChosen);
    ExtrapolationView view;
    view.setRun(run);
    QCOMPARE(view.method(), *run.autoChosen);
    QVERIFY2(view.summaryText().contains(QStringLiteral("Auto chose")),
             qPrintable(view.summaryText()));
    QVERIFY(view.findChild<QLabel*>() != nullptr);
}

void TestExtrapolationView::dialogRefusesTwoScales()
{
    ExtrapolateDialog d(nullptr, nullptr);
    auto* message = d.findChild<QLabel*>(QStringLiteral("validationMessage"));
    QVERIFY(message);
    for (size_t i = 0; i < 2; ++i)
        d.addTrace(loaded(QStringLiteral("s%1").arg(kScales[i]), small_[i]));
    QVERIFY(!d.canStart());
    QVERIFY(!d.startButton()->isEnabled());
    QVERIFY(message->isVisibleTo(&d));
    QCOMPARE(d.message(),
             QStringLiteral("Choose traces at 3 or more different scales (now 2: 4, 9 ranks)."));
    QVERIFY(!d.start());
    // A repeated scale is named; a third distinct one makes it valid.
    d.addTrace(loaded(QStringLiteral("again"), small_[1]));
    QCOMPARE(d.message(), QStringLiteral("s9 and again both have 9 ranks: keep one of them."));
    d.setTraceChecked(2, false);
    d.addTrace(loaded(QStringLiteral("s16"), small_[2]));
    QVERIFY(d.canStart());
    QVERIFY(!message->isVisibleTo(&d));
    QCOMPARE(d.target(), 32u); // 2 x the largest chosen scale
    d.setTarget(12);
    QVERIFY(!d.canStart()); // the engine refuses it: say so before it runs
    QVERIFY(d.message().startsWith(QStringLiteral("The target (12 ranks) must be above")));
}

void TestExtrapolationView::dialogPicksTheMeasuredTrace()
{
    ExtrapolateDialog d(nullptr, nullptr);
    for (size_t i = 0; i < 4; ++i)
        d.addTrace(loaded(QStringLiteral("s%1").arg(kScales[i]), small_[i]));
    d.addTrace(loaded(QStringLiteral("s64"), measured_));
    QCOMPARE(d.target(), 128u);
    d.setTraceChecked(4, false);
    d.setTarget(64);
    const ExtrapolationRequest r = d.request();
    QCOMPARE(r.traces.size(), size_t(4));
    QCOMPARE(r.measured, measured_);
    QCOMPARE(r.measuredName, QStringLiteral("s64"));
    QVERIFY(r.automatic); // default: the automatic choice
    QCOMPARE(d.methodBox()->currentIndex(), 0);
    d.measuredBox()->setCurrentIndex(0); // "None"
    QVERIFY(!d.request().measured);
}

void TestExtrapolationView::mainWindowOpensResultNextToMeasured()
{
    QTemporaryDir dir;
    QStringList folders;
    // The measured run is opened second, so its tab is not the last one.
    for (const auto& t : {small_[0], measured_, small_[1], small_[2], small_[3]}) {
        folders << dir.filePath(QStringLiteral("s%1").arg(t->rankCount()));
        writeOtf2(*t, QFile::encodeName(folders.back()).toStdString());
    }
    MainWindow w;
    w.setInteractive(false);
    w.resize(1600, 1000);
    w.show();
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == QStringLiteral("E&xtrapolate…")) action = a;
    QVERIFY(action);
    QVERIFY(!action->isEnabled());
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces(folders);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 5, kTimeoutMs);
    QVERIFY(action->isEnabled());
    QCOMPARE(w.tabs()->tabText(1), QStringLiteral("s64"));

    ExtrapolateDialog* d = w.showExtrapolateDialog();
    QCOMPARE(d->traceCount(), 5);
    d->setTraceChecked(1, false);
    d->setTarget(kTarget);
    QCOMPARE(d->request().measuredName, QStringLiteral("s64"));
    QSignalSpy finished(w.extrapolationJob(), &ExtrapolationJob::finished);
    QVERIFY(d->start());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(w.tabs()->count(), 6);
    QCOMPARE(w.tabs()->tabText(2), QStringLiteral("Extrapolation to 64 ranks"));
    QCOMPARE(w.tabs()->currentIndex(), 2);
    ExtrapolationView* view = w.extrapolation(2);
    QVERIFY(view);
    QCOMPARE(view->run().measuredName, QStringLiteral("s64"));
    QVERIFY(view->run().rankscope && view->run().rankscope->accuracyPct);
    QCOMPARE(view->run().traceNames, QStringList({"s4", "s9", "s16", "s25"}));

    const QString shot = qEnvironmentVariable("RANKSCOPE_EXTRAP_SCREENSHOT");
    if (!shot.isEmpty()) {
        view->selectRow(0);
        QTest::qWait(100);
        QVERIFY(w.grab().save(shot, "PNG"));
        view->selectRow(1);
        QTest::qWait(100);
        QVERIFY(w.grab().save(
            QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-interval.png")), "PNG"));
    }
}

QTEST_MAIN(TestExtrapolationView)
#include "tst_extrapolationview.moc"
