// Navigation on the timeline and in the main window: the zoom history (Back / Forward over zoom
// and pan states, by keys, actions and the mouse's back button), Find (a function, a call site,
// a rank; next / previous occurrence in time), Go to Time, the main window's shortcuts from
// wherever the focus is, and the Help menu's sheet and About box.
//
// The hand-built trace (times in ns): rank 0 runs MPI_Send over [4000, 5000] (call site
// solver.c:42) and MPI_Allreduce over [8000, 9000]; rank 1 MPI_Recv over [1000, 6000] and
// MPI_Allreduce over [8000, 9500]; rank 2 MPI_Allreduce over [7000, 9500]. Allreduce in time
// order: rank 2 at 7000, rank 0 at 8000, rank 1 at 8000 (ties go by rank).

#include "app/helpdialogs.h"
#include "app/mainactions.h"
#include "app/mainnavigation.h"
#include "app/mainwindow.h"
#include "app/shortcutfallback.h"
#include "app/tracedocument.h"
#include "testsupport/handtrace.h"
#include "views/timeline/timelinefindbar.h"
#include "views/timeline/timelinefinder.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/zoomhistory.h"

#include <QAction>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace {

std::shared_ptr<const Trace> threeRanks()
{
    HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank(), r2 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId main = h.user("main"), compute = h.user("compute");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    h.enter(r0, 0, main);
    h.call(r0, compute, 0, 4000);
    h.enter(r0, 4000, send);
    h.builder().attachSourceLocation(r0, {h.builder().intern("solver.c"), 42});
    h.builder().send(r0, 4500, 1, world, 7, 4096);
    h.leave(r0, 5000, send);
    h.call(r0, compute, 5000, 8000);
    h.call(r0, allreduce, 8000, 9000);
    h.leave(r0, 10000, main);
    h.enter(r1, 0, main);
    h.enter(r1, 1000, recv);
    h.builder().recv(r1, 5800, 0, world, 7, 4096);
    h.leave(r1, 6000, recv);
    h.call(r1, compute, 6000, 8000);
    h.call(r1, allreduce, 8000, 9500);
    h.leave(r1, 10000, main);
    h.enter(r2, 0, main);
    h.call(r2, compute, 0, 7000);
    h.call(r2, allreduce, 7000, 9500);
    h.leave(r2, 10000, main);
    return std::make_shared<const Trace>(h.finish());
}

std::vector<RankId> all3()
{
    return {RankId(0), RankId(1), RankId(2)};
}

QString name(const Trace& t, const TimelineSelection& s)
{
    return QString::fromUtf8(t.regionName(s.region).data(),
                             qsizetype(t.regionName(s.region).size()));
}

} // namespace

class TestTimelineNavigation : public QObject
{
    Q_OBJECT
private slots:
    void historyFoldsGestures()
    {
        ZoomHistory h;
        h.reset({0, 100});
        h.moved({10, 60}, 0, false);   // a key zoom
        h.moved({20, 70}, 1000, true); // a drag: three moves 100 ms apart are one step
        h.moved({25, 75}, 1100, true);
        h.moved({30, 80}, 1200, true);
        QCOMPARE(h.size(), size_t(3));
        h.moved({31, 81}, 2000, true); // a pause: a new step
        QCOMPARE(h.size(), size_t(4));
        QCOMPARE(h.back()->begin, 30.0);
        QCOMPARE(h.back()->begin, 10.0);
        QCOMPARE(h.back()->begin, 0.0);
        QVERIFY(!h.back());
        QCOMPARE(h.forward()->begin, 10.0);
        // A move after going back drops what lay ahead.
        h.moved({40, 50}, 3000, false);
        QVERIFY(!h.canGoForward());
        QCOMPARE(h.size(), size_t(3));
        QCOMPARE(h.back()->begin, 10.0);
    }

    void finderVisitsOccurrencesInTimeOrder()
    {
        const auto trace = threeRanks();
        const TimelineFinder f(*trace, "allreduce");
        QVERIFY(f.valid());
        QCOMPARE(f.description(), QString("MPI_Allreduce"));
        // From before the run: rank 2 at 7000, then ranks 0 and 1 at 8000.
        TimelineFinder::Hit at{RankId(), 0, -1};
        std::vector<std::pair<uint32_t, int64_t>> seen;
        while (auto hit = f.next(at, true, all3())) {
            seen.emplace_back(hit->rank.value, hit->time);
            at = *hit;
        }
        QCOMPARE(seen,
                 (std::vector<std::pair<uint32_t, int64_t>>{{2, 7000}, {0, 8000}, {1, 8000}}));
        // And back again.
        seen.clear();
        while (auto hit = f.next(at, false, all3())) {
            seen.emplace_back(hit->rank.value, hit->time);
            at = *hit;
        }
        QCOMPARE(seen, (std::vector<std::pair<uint32_t, int64_t>>{{0, 8000}, {2, 7000}}));
        // Only displayed ranks are searched.
        QCOMPARE(f.next({RankId(), 0, -1}, true, {RankId(1)})->time, int64_t(8000));

        const TimelineFinder site(*trace, "solver.c:4");
        QVERIFY(site.valid());
        const auto s = site.next({RankId(), 0, -1}, true, all3());
        QVERIFY(s);
        QCOMPARE(s->rank.value, 0u);
        QCOMPARE(s->time, int64_t(4000));
        QVERIFY(!site.next(*s, true, all3()));

        const TimelineFinder rank(*trace, "rank 1");
        QCOMPARE(rank.rank()->value, 1u);
        QCOMPARE(rank.next({RankId(), 0, -1}, true, all3())->time, int64_t(1000)); // MPI_Recv
        QVERIFY(!TimelineFinder(*trace, "rank 3").valid());
        QCOMPARE(TimelineFinder(*trace, "7").description(), QString("there is no rank 7 (0 to 2)"));
        QVERIFY(!TimelineFinder(*trace, "MPI_Bcast").valid());
    }

    void viewFindsBacksAndGoesToTime()
    {
        TimelineView view;
        view.resize(900, 300);
        const auto trace = threeRanks();
        view.setTrace(trace, nullptr);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const double b0 = view.mapping().begin(), e0 = view.mapping().end();
        QVERIFY(!view.canGoBack());
        // Zoom in with the keyboard twice, then drag-pan: three steps.
        QTest::keyClick(&view, Qt::Key_Plus);
        QTest::keyClick(&view, Qt::Key_Plus);
        const double b2 = view.mapping().begin(), e2 = view.mapping().end();
        const QPoint mid = view.plotArea().center();
        QTest::mousePress(&view, Qt::LeftButton, {}, mid);
        for (int dx = 10; dx <= 100; dx += 10)
            QTest::mouseMove(&view, mid + QPoint(dx, 0));
        QTest::mouseRelease(&view, Qt::LeftButton, {}, mid + QPoint(100, 0));
        QVERIFY(view.mapping().begin() < b2);
        // Back undoes the whole drag, then the second zoom, ...
        view.goBack();
        QCOMPARE(view.mapping().begin(), b2);
        QCOMPARE(view.mapping().end(), e2);
        view.goBack();
        view.goBack();
        QCOMPARE(view.mapping().begin(), b0);
        QCOMPARE(view.mapping().end(), e0);
        QVERIFY(!view.canGoBack());
        view.goForward();
        QVERIFY(view.mapping().span() < e0 - b0);
        // The mouse's back button goes back too.
        QTest::mouseClick(&view, Qt::BackButton, {}, mid);
        QCOMPARE(view.mapping().begin(), b0);

        // Find from nothing selected: the first Allreduce is rank 2's at 7000.
        bool found = false;
        QString status = view.find("allreduce", true, &found);
        QVERIFY(found);
        QCOMPARE(view.selection().rank.value, 2u);
        QCOMPARE(name(*trace, view.selection()), QString("MPI_Allreduce"));
        QVERIFY2(status.startsWith("MPI_Allreduce on rank 2 at"), qPrintable(status));
        // Three Allreduce calls in all (the header): this is the first of them.
        QVERIFY2(status.endsWith("(1 of 3)"), qPrintable(status));
        status = view.find("allreduce", true, &found);
        QCOMPARE(view.selection().rank.value, 0u);
        QVERIFY2(status.endsWith("(2 of 3)"), qPrintable(status));
        status = view.find("allreduce", true, &found);
        QCOMPARE(view.selection().rank.value, 1u);
        QVERIFY2(status.endsWith("(3 of 3)"), qPrintable(status));
        status = view.find("allreduce", true, &found);
        QVERIFY(!found);
        QVERIFY(status.startsWith("No later occurrence"));
        QCOMPARE(view.selection().rank.value, 1u); // kept
        status = view.find("allreduce", false, &found);
        QCOMPARE(view.selection().rank.value, 0u);
        QVERIFY2(status.endsWith("(2 of 3)"), qPrintable(status));

        // Go to Time centres the view on the time, keeping the zoom.
        view.zoomIn();
        const double span = view.mapping().span();
        view.goToTime(5000);
        QCOMPARE(view.markedTime(), 5000.0);
        QCOMPARE((view.mapping().begin() + view.mapping().end()) / 2, 5000.0);
        QCOMPARE(view.mapping().span(), span);
    }

    void findZoomsInOnATinyCall()
    {
        // One rank, main over [0, 1 s], MPI_Barrier over [500 ms, 500 ms + 1 us]. On 1000 px the
        // whole run is 1 ms a pixel: the barrier is a thousandth of one, so Find zooms in until
        // it takes a tenth of the width, centred: [500 ms - 4.5 us, 500 ms + 5.5 us].
        HandTrace h;
        const LocationId r0 = h.addRank();
        h.addWorld();
        const RegionId main = h.user("main");
        const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::MpiCollective);
        h.enter(r0, 0, main);
        h.call(r0, barrier, 500'000'000, 500'001'000);
        h.leave(r0, 1'000'000'000, main);
        const auto trace = std::make_shared<const Trace>(h.finish());
        TimelineView view;
        view.resize(1000, 200);
        view.setTrace(trace, nullptr);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitToWindow();
        bool found = false;
        const QString status = view.find("barrier", true, &found);
        QVERIFY(found);
        QVERIFY2(status.endsWith("(1 of 1)"), qPrintable(status));
        QCOMPARE(view.mapping().span(), 10'000.0);
        QCOMPARE((view.mapping().begin() + view.mapping().end()) / 2, 500'000'500.0);
    }

    void parsesTimes()
    {
        QCOMPARE(*MainNavigation::parseTime("13.04975 s"), 13.04975e9);
        QCOMPARE(*MainNavigation::parseTime("250ms"), 250e6);
        QCOMPARE(*MainNavigation::parseTime(" 2.5 "), 2.5e9);
        QVERIFY(!MainNavigation::parseTime("soon"));
    }

    void shortcutsWorkWhereverTheFocusIs()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        w.openTrace(QStringLiteral(RANKSCOPE_SOURCE_DIR
                                   "/resources/demo/traces/casita-mpi-late-sender-barrier-4r"));
        QVERIFY(opened.wait(30000));
        TraceDocument* doc = w.document(0);
        MainActions* a = w.actions();
        // Extrapolate needs three traces; here its shortcut must at least reach it, so enable it.
        a->extrapolate()->setEnabled(true);
        const std::vector<std::pair<QAction*, QKeyCombination>> keys = {
            {a->extrapolate(), Qt::CTRL | Qt::SHIFT | Qt::Key_X},
            {a->saveSessionAs(), Qt::CTRL | Qt::SHIFT | Qt::Key_S},
            {a->quit(), Qt::CTRL | Qt::Key_Q},
            {a->find(), Qt::CTRL | Qt::Key_F},
            {a->back(), Qt::ALT | Qt::Key_Left}};
        // What the actions do (dialogs, quitting) is not the point here: only that they fire.
        for (const auto& [action, key] : keys)
            QObject::disconnect(action, &QAction::triggered, nullptr, nullptr);
        QList<QWidget*> focusTargets{doc->timeline(), doc->profileTable(), w.tabs()->tabBar()};
        for (QWidget* target : focusTargets) {
            for (const auto& [action, key] : keys) {
                target->setFocus();
                QSignalSpy fired(action, &QAction::triggered);
                QTest::keyClick(target, key.key(), key.keyboardModifiers());
                QVERIFY2(fired.count() == 1,
                         qPrintable(QString("%1 from %2")
                                        .arg(action->text(), target->metaObject()->className())));
            }
        }
        // The fallback for a window that is not active (no window manager) finds the action.
        QKeyEvent ctrlQ(QEvent::KeyPress, Qt::Key_Q, Qt::ControlModifier);
        QCOMPARE(ShortcutFallback::match(a->allActions(), ctrlQ), a->quit());
        QKeyEvent plainM(QEvent::KeyPress, Qt::Key_M, Qt::NoModifier);
        QCOMPARE(ShortcutFallback::match(a->allActions(), plainM), a->showMessages());
    }

    void findBarDrivesTheTimeline()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        w.openTrace(QStringLiteral(RANKSCOPE_SOURCE_DIR
                                   "/resources/demo/traces/casita-mpi-late-sender-barrier-4r"));
        QVERIFY(opened.wait(30000));
        TraceDocument* doc = w.document(0);
        QTest::keyClick(doc->timeline(), Qt::Key_F, Qt::ControlModifier);
        TimelineFindBar* bar = doc->findBar();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->field()->hasFocus());
        // MPI_Barrier is entered once per rank (otf2-print): rank 1 first, then 2, 3 and 0.
        QTest::keyClicks(bar->field(), "MPI_Barrier");
        QTest::keyClick(bar->field(), Qt::Key_Return);
        const TimelineSelection first = doc->timeline()->selection();
        QVERIFY(first.valid());
        QCOMPARE(name(*doc->data().trace, first), QString("MPI_Barrier"));
        QCOMPARE(first.rank.value, 1u);
        QTest::keyClick(bar->field(), Qt::Key_F3);
        const TimelineSelection second = doc->timeline()->selection();
        QCOMPARE(second.rank.value, 2u);
        QTest::keyClick(bar->field(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(doc->timeline()->selection(), first);
        QTest::keyClick(bar->field(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
    }

    void helpSheetAndAbout()
    {
        MainWindow w;
        const QString sheet = HelpDialogs::shortcutsHtml(w.actions());
        for (const char* entry : {"Save Session As", "Extrapolate", "Quit", "Back", "Find"})
            QVERIFY2(sheet.contains(entry), entry);
        QVERIFY(sheet.contains(
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X).toString(QKeySequence::NativeText)));
        const QString about = HelpDialogs::aboutHtml();
        QVERIFY(about.contains("LICENSE-casita.txt"));
        QVERIFY(about.contains("LICENSE-tracer.txt"));
        QVERIFY(about.contains("Lawrence Livermore National Security")); // the TraceR licence
        QVERIFY(about.contains(QString::fromLatin1(qVersion())));
    }
};

QTEST_MAIN(TestTimelineNavigation)
#include "tst_timelinenavigation.moc"
