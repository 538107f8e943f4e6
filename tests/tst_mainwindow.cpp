// The main window end to end (offscreen): opening a real trace, errors, cancelling, comparison.
//
// Hand-derived expectations (otf2-print of the shared traces):
// - casita-mpi-late-sender-barrier-4r: 4 ranks, 110 events, first event 106106710797152 and last
//   106126796221779 at 1 GHz: 20085424627 ns, shown as "20.09 s". MPI_Init's Leave per rank:
//   106106850400526, ..396620, ..400262, ..396785; the latest (rank 0) minus the clock offset
//   106106710787758 is 139612768 ns.
// - pipit-ping-pong-2r: 2095197216 Hz, offset 7397466976977800; MPI_Init Leaves 7397467382698364
//   (rank 0) and 7397467382699825 (rank 1); the latest is 405722025 ticks after the offset:
//   405722025 * 1e9 / 2095197216 = 193643835.48 ns, rounded toward zero 193643835 ns.
// - stencil2d-9 (generated, checked in; otf2-print): 1 GHz, offset 0, first event 4873, last
//   139390093 (PROGRAM_END); every rank leaves MPI_Init at 2089285 and MPI_Finalize at
//   139380093.
// casita-mpi-late-sender-barrier-4r and stencil2d-9 are checked in under resources/demo/traces,
// so everything but the pipit comparison and the mg-W-8 tab order runs without ../shared.

#include "app/mainwindow.h"
#include "app/recentfiles.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "testsupport/testpaths.h"
#include "views/panes/detailspane.h"
#include "views/panes/profileitemmodel.h"
#include "views/timeline/summarystrip.h"
#include "views/timeline/timelineview.h"
#include "views/waits/rootcauseitemmodel.h"
#include "views/waits/rootcausepanel.h"
#include "views/waits/waitstatepanel.h"
#include "views/whatif/comparisonview.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>
#include <QUrl>

using namespace rankscope;

namespace {

constexpr int kLoadTimeoutMs = 60000;
constexpr int64_t kLateSenderInitEnd = 139612768;
constexpr int64_t kPingPongInitEnd = 193643835;
constexpr int64_t kStencil9InitEnd = 2089285;

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void opensRealTrace();
    void opensParaverTrace();
    void opensPajeTrace();
    void waitAndCauseTablesDriveTheTimeline();
    void tabsKeepTheOrderAskedFor();
    void tabsKeepTheOrderAskedForCheckedIn();
    void rejectsNonTraceFile();
    void reportsDamagedTrace();
    void damagedTracesOpenPartiallyFromOneBox();
    void cancelLeavesNothingOpen();
    void cancelMidLoad();
    void comparesAlignedAtEndOfMpiInit();
    void comparesCheckedInRunsAlignedAtEndOfMpiInit();
    void exportsPngAndSvg();

private:
    QString lateSender_;
    QString pingPong_;
};

void TestMainWindow::initTestCase()
{
    // Keep the user's settings (recent files) out of the tests.
    QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    RecentFiles().clear();
    lateSender_ = test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!lateSender_.isEmpty()); // checked in under resources/demo/traces
    pingPong_ = test::sharedTraceAnchor(QStringLiteral("pipit-ping-pong-2r")); // may be absent
}

void TestMainWindow::opensRealTrace()
{
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(w.openTrace(lateSender_));
    QVERIFY(w.isLoading());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(w.tabs()->count(), 1);
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QCOMPARE(w.statusText(), QStringLiteral("4 ranks · 110 events · 20.09 s"));
    QVERIFY(!w.isLoading());
    QVERIFY(!w.findChild<QToolButton*>(QStringLiteral("cancelLoadButton"))->isVisibleTo(&w));

    TraceDocument* doc = w.document(0);
    QVERIFY(doc);
    QCOMPARE(doc->data().trace->rankCount(), size_t(4));
    // 7 MPI functions plus at least main are entered.
    QVERIFY(doc->profileModel()->rowCount() >= 8);
    QCOMPARE(RecentFiles().paths().value(0), QFileInfo(lateSender_).absoluteFilePath());

    // The longest MPI call is rank 3's MPI_Recv (hand, offset 106106710787758): enter
    // 106107985107808 (1.274320050 s), leave 106118976173888: 10991066080 ns. The call before it,
    // MPI_Comm_rank, left at 106106850407152: delta 1134700656 ns. Its message came from rank 2
    // (MPI_SEND at 106118975549649 = 12.264761891 s, MPI_RECV at 106118976167345 =
    // 12.265379587 s: 617696 ns later), tag 0, 4 bytes.
    QVERIFY(doc->selectLongestMpiCall());
    DetailsPane* d = doc->details();
    QCOMPARE(d->value("MPI call", "Function"), QStringLiteral("MPI_Recv"));
    QCOMPARE(d->value("Region", "Rank"), QStringLiteral("rank 3"));
    QCOMPARE(d->value("MPI call", "Enter"), QStringLiteral("1.274320050 s"));
    QCOMPARE(d->value("MPI call", "Duration"), QStringLiteral("10.99 s"));
    QCOMPARE(d->value("MPI call", "Call site"), QStringLiteral("main>late_sender:MPI_Recv"));
    QCOMPARE(d->value("MPI call", "Delta time"), QStringLiteral("1.135 s"));
    QCOMPARE(d->value("MPI call", "Interval"),
             QStringLiteral("main:MPI_Comm_rank - main>late_sender:MPI_Recv"));
    QCOMPARE(d->value("Message", "Direction"), QStringLiteral("received from rank 2"));
    QCOMPARE(d->value("Message", "Tag"), QStringLiteral("0"));
    QCOMPARE(d->value("Message", "Bytes"), QStringLiteral("4 (4 B)"));
    QCOMPARE(d->value("Message", "Sent"), QStringLiteral("12.264761891 s"));
    QCOMPARE(d->value("Message", "Received"), QStringLiteral("12.265379587 s"));
    QCOMPARE(d->value("Message", "Send to receive"), QStringLiteral("617.7 us"));
}

void TestMainWindow::opensParaverTrace()
{
    // tests/data/paraver/hand.prv: 2 tasks, 52 events counted by hand (tst_paraverimport).
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(w.openTrace(test::testData(QStringLiteral("paraver/hand.prv"))));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("hand.prv"));
    QVERIFY2(w.statusText().startsWith(QStringLiteral("2 ranks · 52 events")),
             qPrintable(w.statusText()));
}

void TestMainWindow::opensPajeTrace()
{
    // tests/data/paje/smpi-4r.paje: SimGrid's trace of a 4-rank program (tst_pajeimport reads
    // 4 ranks and 5 messages in it). The tab is named by the file, as a Paraver trace's is.
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(w.openTrace(test::testData(QStringLiteral("paje/smpi-4r.paje"))));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("smpi-4r.paje"));
    QVERIFY2(w.statusText().startsWith(QStringLiteral("4 ranks · ")), qPrintable(w.statusText()));
}

void TestMainWindow::waitAndCauseTablesDriveTheTimeline()
{
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QVERIFY(w.openTrace(lateSender_));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    TraceDocument* doc = w.document(0);
    QVERIFY(doc->data().waits && doc->data().rootCauses && doc->data().waitSummary);
    TimelineView* timeline = doc->timeline();

    // The largest (pattern, call site, rank) row is rank 3's Late Sender, one wait of
    // 10990433990 ns (tst_waitstates works it out from otf2-print) in the MPI_Recv entered at
    // 1.274320050 s and left 10.99 s later. Selecting the row selects that call and shows it.
    doc->waitPanel()->table()->selectRow(0);
    const TimelineSelection s = timeline->selection();
    QCOMPARE(s.rank, RankId(3));
    QCOMPARE(doc->details()->value("MPI call", "Function"), QStringLiteral("MPI_Recv"));
    QCOMPARE(doc->details()->value("MPI call", "Enter"), QStringLiteral("1.274320050 s"));
    const double enter = 1274320050.0, leave = enter + 10991066080.0;
    QVERIFY(timeline->mapping().begin() <= enter && timeline->mapping().end() >= leave);
    QVERIFY(timeline->mapping().span() < 3 * (leave - enter)); // zoomed to it, not the run

    // A function-by-rank root cause selects the late function's last run on that rank before
    // the wait it caused ended.
    RootCausePanel* causes = doc->rootCausePanel();
    QVERIFY(causes->functionRankModel()->rowCount() > 0);
    QSignalSpy cause(causes, &RootCausePanel::causeRequested);
    causes->functionRankTable()->selectRow(0);
    QCOMPARE(cause.count(), 1);
    const auto function = cause.at(0).at(0).value<RegionId>();
    const auto rank = cause.at(0).at(1).value<RankId>();
    const auto wait = cause.at(0).at(2).value<WaitState>();
    const TimelineSelection late = timeline->selection();
    QCOMPARE(late.rank, rank);
    QCOMPARE(late.region, function);
    QVERIFY(doc->data().trace->rankEvents(rank).time(late.enterEvent) < wait.end);
}

void TestMainWindow::tabsKeepTheOrderAskedFor()
{
    // A 90,480-event trace asked for first and a 110-event one second: the small one usually
    // finishes loading first, yet the tabs must read in the order asked for.
    const QString large = test::sharedTraceAnchor(QStringLiteral("scorep84-npb-mg-W-8"));
    if (large.isEmpty()) QSKIP("shared trace scorep84-npb-mg-W-8 not found");
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces({large, lateSender_});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
    QCOMPARE(w.tabs()->count(), 2);
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("scorep84-npb-mg-W-8"));
    QCOMPARE(w.tabs()->tabText(1), QStringLiteral("casita-mpi-late-sender-barrier-4r"));
}

void TestMainWindow::tabsKeepTheOrderAskedForCheckedIn()
{
    // The same with the checked-in stencil2d-144 (80,352 events: otf2-print
    // resources/demo/traces/stencil2d-144/traces.otf2 | awk 'NF > 2 && $1 ~ /^[A-Z_]+$/' | wc -l)
    // asked for first.
    const QString large = test::checkedInTraceAnchor(QStringLiteral("stencil2d-144"));
    QVERIFY(!large.isEmpty());
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces({large, lateSender_});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
    QCOMPARE(w.tabs()->count(), 2);
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("stencil2d-144"));
    QCOMPARE(w.tabs()->tabText(1), QStringLiteral("casita-mpi-late-sender-barrier-4r"));
}

void TestMainWindow::rejectsNonTraceFile()
{
    QTemporaryDir dir;
    const QString notes = dir.filePath(QStringLiteral("notes.txt"));
    QFile f(notes);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a trace\n");
    f.close();

    MainWindow w;
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(!w.openTrace(notes));
    QCOMPARE(errors.count(), 1);
    const QString message = errors.front().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("notes.txt")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("not an OTF2, Paraver, Paje or SimGrid trace")),
             qPrintable(message));
    QCOMPARE(w.tabs()->count(), 0);
    QVERIFY(!w.isLoading());
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorBox"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    box->close();

    // Dropping the same file onto the window says the same (what dropEvent calls).
    w.openUrls({QUrl::fromLocalFile(notes)});
    QCOMPARE(errors.count(), 2);
    QVERIFY(errors.back().at(1).toString().contains(QStringLiteral("not an OTF2, Paraver, Paje or "
                                                                   "SimGrid trace")));
    QCOMPARE(w.tabs()->count(), 0);

    QVERIFY(!w.openTrace(dir.filePath(QStringLiteral("missing"))));
    QCOMPARE(errors.count(), 3);
    QCOMPARE(w.tabs()->count(), 0);
}

void TestMainWindow::reportsDamagedTrace()
{
    QTemporaryDir dir;
    const QString anchor = dir.filePath(QStringLiteral("traces.otf2"));
    QFile f(anchor);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("garbage, not an OTF2 anchor file\n");
    f.close();

    MainWindow w;
    w.setInteractive(false);
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QVERIFY(w.openTrace(lateSender_));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);

    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(w.openTrace(anchor)); // looks like a trace; the importer decides
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kLoadTimeoutMs);
    const QString message = errors.front().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("traces.otf2")), qPrintable(message));
    QCOMPARE(w.tabs()->count(), 1);
    QCOMPARE(w.statusText(), QStringLiteral("4 ranks · 110 events · 20.09 s"));
    QVERIFY(!w.isLoading());
}

void TestMainWindow::damagedTracesOpenPartiallyFromOneBox()
{
    // Two copies of the late-sender trace with location 3's events cut in half: both loads
    // fail (a truncated event file is damage), and one box, not two, names both and offers
    // Open Partially, which opens both marked partial (as --allow-partial would).
    QTemporaryDir a, b;
    QStringList anchors;
    for (const QTemporaryDir* dir : {&a, &b}) {
        const QString anchor =
            test::copyTrace(QStringLiteral("casita-mpi-late-sender-barrier-4r"), dir->path());
        QFile evt(QFileInfo(anchor).absolutePath() + QStringLiteral("/traces/3.evt"));
        QVERIFY(evt.open(QIODevice::ReadWrite));
        QVERIFY(evt.resize(evt.size() / 2));
        anchors << anchor;
    }
    MainWindow w;
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces(anchors);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, kLoadTimeoutMs);
    const auto boxes = w.findChildren<QMessageBox*>(QStringLiteral("errorBox"));
    QCOMPARE(boxes.size(), 1);
    for (const QString& anchor : anchors)
        QVERIFY2(boxes[0]->text().contains(QDir::toNativeSeparators(anchor)),
                 qPrintable(boxes[0]->text()));
    auto* partial = boxes[0]->findChild<QPushButton*>(QStringLiteral("openPartiallyButton"));
    QVERIFY(partial && partial->isVisibleTo(boxes[0]));
    partial->click();
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
    QCOMPARE(w.tabs()->count(), 2);
    for (int i = 0; i < 2; ++i)
        QVERIFY(w.document(i)->data().trace->diagnostics().partial);
}

void TestMainWindow::cancelLeavesNothingOpen()
{
    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QSignalSpy cancelled(w.loader(), &TraceLoader::cancelled);
    QSignalSpy errors(&w, &MainWindow::errorReported);
    QVERIFY(w.openTrace(lateSender_));
    auto* cancel = w.findChild<QToolButton*>(QStringLiteral("cancelLoadButton"));
    QVERIFY(cancel);
    QVERIFY(cancel->isVisibleTo(&w));
    // Clicked before the job's result can arrive (results come by queued signal), so whether
    // the worker is still reading or already done, the result must be dropped.
    cancel->click();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!w.isLoading());
    QVERIFY(!cancel->isVisibleTo(&w));
    QVERIFY(QThreadPool::globalInstance()->waitForDone(kLoadTimeoutMs));
    QTest::qWait(50);
    QCOMPARE(opened.count(), 0);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(w.tabs()->count(), 0);
    QCOMPARE(w.statusText(), QString());

    // The window still works afterwards.
    QVERIFY(w.openTrace(lateSender_));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(w.tabs()->count(), 1);
}

void TestMainWindow::cancelMidLoad()
{
    // A generated trace big enough that reading it takes a while (~1.3M events; smaller under
    // the sanitizers, which are slow enough anyway).
    QTemporaryDir dir;
    GeneratorOptions g;
    g.pattern = "stencil2d";
    g.ranks = 16;
    g.iterations = qEnvironmentVariableIsSet("RANKSCOPE_TEST_QUICK") ? 300 : 2000;
    const QString folder = dir.filePath(QStringLiteral("big"));
    writeOtf2(generateTrace(g), QFile::encodeName(folder).toStdString());

    MainWindow w;
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QSignalSpy cancelled(w.loader(), &TraceLoader::cancelled);
    QVERIFY(w.openTrace(folder));
    QTRY_VERIFY_WITH_TIMEOUT(w.loader()->progress() > 0 || !w.isLoading(), kLoadTimeoutMs);
    if (!w.isLoading()) QSKIP("the load finished before any progress was seen");
    // The empty window's centre says what is being read, not "Open an MPI trace".
    auto* hint = w.findChild<QLabel*>(QStringLiteral("emptyHint"));
    QVERIFY(hint);
    QVERIFY2(hint->text().contains(QLatin1String("Loading big")), qPrintable(hint->text()));
    w.findChild<QToolButton*>(QStringLiteral("cancelLoadButton"))->click();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(QThreadPool::globalInstance()->waitForDone(kLoadTimeoutMs));
    QTest::qWait(50);
    QCOMPARE(opened.count(), 0);
    QCOMPARE(w.tabs()->count(), 0);
    QTRY_VERIFY(hint->text().contains(QLatin1String("Open an MPI trace")));
}

void TestMainWindow::comparesAlignedAtEndOfMpiInit()
{
    if (pingPong_.isEmpty()) QSKIP("shared trace pipit-ping-pong-2r not available");
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces({lateSender_, pingPong_});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
    const int first = w.document(0)->data().name.startsWith(QStringLiteral("casita")) ? 0 : 1;
    QVERIFY(w.compareTabs(first, 1 - first));
    QCOMPARE(w.tabs()->count(), 3);
    ComparisonView* cmp = w.comparison(w.tabs()->currentIndex());
    QVERIFY(cmp);
    QCOMPARE(cmp->run(0).name, QStringLiteral("casita-mpi-late-sender-barrier-4r"));

    QCOMPARE(ComparisonView::endOfMpiInit(*cmp->run(0).trace), kLateSenderInitEnd);
    QCOMPARE(ComparisonView::endOfMpiInit(*cmp->run(1).trace), kPingPongInitEnd);
    QCOMPARE(cmp->alignment(), ComparisonView::Alignment::EndOfMpiInit);
    QCOMPARE(cmp->timeline(0)->timeOffset(), kLateSenderInitEnd);
    QCOMPARE(cmp->timeline(1)->timeOffset(), kPingPongInitEnd);
    // Both start at the end of MPI_Init, start-up set aside.
    QCOMPARE(cmp->timeline(0)->mapping().begin(), 0.0);
    QCOMPARE(cmp->timeline(1)->mapping().begin(), 0.0);
    cmp->setAlignment(ComparisonView::Alignment::AbsoluteTime);
    QCOMPARE(cmp->timeline(0)->timeOffset(), int64_t(0));
    QCOMPARE(cmp->timeline(1)->timeOffset(), int64_t(0));
    cmp->setAlignment(ComparisonView::Alignment::EndOfMpiInit);

    // Moving one view moves the other to the same displayed window. The runs overlap in
    // displayed time on [-139603374, 5960624] (casita starts 9394 ns after its clock offset,
    // pipit ends 199604459 - 193643835 ns after its
    // MPI_Init); each view keeps its window near its own run, so stay inside the overlap.
    cmp->timeline(0)->setVisibleRange(-100e6, 0);
    QCOMPARE(cmp->timeline(1)->mapping().begin(), -100e6);
    QCOMPARE(cmp->timeline(1)->mapping().end(), 0.0);
    cmp->timeline(1)->zoomIn();
    QCOMPARE(cmp->timeline(0)->mapping().begin(), cmp->timeline(1)->mapping().begin());
    QCOMPARE(cmp->timeline(0)->mapping().end(), cmp->timeline(1)->mapping().end());
    QVERIFY(cmp->timeline(0)->mapping().span() < 100e6);

    // Summary: run times over the span, last MPI_Init leave to last MPI_Finalize leave
    // (otf2-print). Casita at 1 GHz: 106126796220647 - 106106850400526 = 19945820121 ns.
    // Pipit, offset 7397466976977800 at 2095197216 ticks/s, each time truncated to ns:
    // floor((7397467395126352 - offset) * 1e9 / res) - floor((7397467382699825 - offset) *
    // 1e9 / res) = 5930958 ns.
    const auto& lines = cmp->findChild<SummaryStrip*>()->lines();
    QVERIFY(!lines.empty());
    QCOMPARE(lines[0].first, 19945820121.0);
    QCOMPARE(lines[0].second, 5930958.0);
    QCOMPARE(lines[0].difference(), 5930958.0 - 19945820121.0);
}

void TestMainWindow::comparesCheckedInRunsAlignedAtEndOfMpiInit()
{
    // casita-mpi-late-sender-barrier-4r against stencil2d-9, both checked in.
    const QString stencil = test::checkedInTraceAnchor(QStringLiteral("stencil2d-9"));
    QVERIFY(!stencil.isEmpty());
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    w.openTraces({lateSender_, stencil});
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kLoadTimeoutMs);
    const int first = w.document(0)->data().name.startsWith(QStringLiteral("casita")) ? 0 : 1;
    QVERIFY(w.compareTabs(first, 1 - first));
    ComparisonView* cmp = w.comparison(w.tabs()->currentIndex());
    QVERIFY(cmp);
    QCOMPARE(cmp->run(1).name, QStringLiteral("stencil2d-9"));
    QCOMPARE(ComparisonView::endOfMpiInit(*cmp->run(0).trace), kLateSenderInitEnd);
    QCOMPARE(ComparisonView::endOfMpiInit(*cmp->run(1).trace), kStencil9InitEnd);
    QCOMPARE(cmp->timeline(0)->timeOffset(), kLateSenderInitEnd);
    QCOMPARE(cmp->timeline(1)->timeOffset(), kStencil9InitEnd);
    QCOMPARE(cmp->timeline(1)->mapping().begin(), 0.0);

    // Displayed time is time minus the end of MPI_Init: stencil2d-9 spans [4873 - 2089285,
    // 139390093 - 2089285] = [-2084412, 137300808], inside casita's [-139603374, 19.9 s].
    cmp->timeline(1)->setVisibleRange(0, 100e6);
    QCOMPARE(cmp->timeline(0)->mapping().begin(), 0.0);
    QCOMPARE(cmp->timeline(0)->mapping().end(), 100e6);

    // Run times, last MPI_Init leave to last MPI_Finalize leave: casita 19945820121 ns (as
    // above), stencil2d-9 139380093 - 2089285 = 137290808 ns.
    const auto& lines = cmp->findChild<SummaryStrip*>()->lines();
    QVERIFY(!lines.empty());
    QCOMPARE(lines[0].first, 19945820121.0);
    QCOMPARE(lines[0].second, 137290808.0);
    QCOMPARE(lines[0].difference(), 137290808.0 - 19945820121.0);
}

void TestMainWindow::exportsPngAndSvg()
{
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QSignalSpy opened(&w, &MainWindow::traceOpened);
    QVERIFY(w.openTrace(lateSender_));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QTemporaryDir dir;
    QString error;
    const QString png = dir.filePath(QStringLiteral("view.png"));
    const QString svg = dir.filePath(QStringLiteral("view.svg"));
    QVERIFY2(w.exportCurrentView(png, &error), qPrintable(error));
    QVERIFY2(w.exportCurrentView(svg, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), w.document(0)->timeline()->size() * image.devicePixelRatio());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("<svg"));
    QVERIFY(!w.exportCurrentView(dir.filePath(QStringLiteral("view.bmp")), &error));
    QVERIFY(error.contains(QStringLiteral(".png")));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
