// The critical-path and call-tree views (offscreen): the timeline's critical-path line over a
// hand-built late-sender chain, the critical-path and call-tree item models, the rank
// distribution of a selected call path, and the main window's Show Critical Path action (key
// C) and panes on the checked-in casita-mpi-late-sender-barrier-4r trace.

#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "model/profile/calltree.h"
#include "model/waits/criticalpath.h"
#include "model/waits/waitstates.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "views/panes/calltreeitemmodel.h"
#include "views/panes/calltreepanel.h"
#include "views/panes/criticalpathitemmodel.h"
#include "views/panes/criticalpathpanel.h"
#include "views/panes/rankdistribution.h"
#include "views/timeline/criticalpathoverlay.h"
#include "views/timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr int kLoadTimeoutMs = 60000;

/// Rank 0 works [0, 100] and sends to rank 1, which waited in MPI_Recv since 10, works
/// [115, 200] and sends to rank 2, which waited since 20 and works [215, 300]; rank 2 ends last,
/// at 310. The critical path (as in tst_criticalpath) is rank 0 [0, 100], rank 1 [100, 200],
/// rank 2 [200, 310].
std::shared_ptr<const Trace> chain()
{
    HandTrace h;
    std::vector<LocationId> loc;
    for (int i = 0; i < 3; ++i)
        loc.push_back(h.addRank());
    const CommId world = h.addWorld();
    const RegionId main = h.user("main"), work = h.user("work");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const auto sendTo = [&](int r, int64_t b, int64_t e, uint32_t to) {
        h.enter(loc[r], b, send);
        h.builder().send(loc[r], b, to, world, 0, 8);
        h.leave(loc[r], e, send);
    };
    const auto recvFrom = [&](int r, int64_t b, int64_t e, uint32_t from) {
        h.enter(loc[r], b, recv);
        h.builder().recv(loc[r], e, from, world, 0, 8);
        h.leave(loc[r], e, recv);
    };
    h.enter(loc[0], 0, main);
    h.call(loc[0], work, 0, 100);
    sendTo(0, 100, 110, 1);
    h.leave(loc[0], 300, main);
    h.enter(loc[1], 0, main);
    h.call(loc[1], work, 0, 10);
    recvFrom(1, 10, 115, 0);
    h.call(loc[1], work, 115, 200);
    sendTo(1, 200, 210, 2);
    h.leave(loc[1], 300, main);
    h.enter(loc[2], 0, main);
    h.call(loc[2], work, 0, 20);
    recvFrom(2, 20, 215, 1);
    h.call(loc[2], work, 215, 300);
    h.leave(loc[2], 310, main);
    return std::make_shared<const Trace>(h.finish());
}

/// Whether some pixel within 2 px of (x, y) has the critical path's colour.
bool pathColourNear(const QImage& image, int x, int y)
{
    const QRgb want = CriticalPathOverlay::color().rgb();
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            if (image.pixel(x + dx, y + dy) == want) return true;
    return false;
}

} // namespace

class TestCriticalPathView : public QObject
{
    Q_OBJECT

private slots:
    void timelineDrawsThePath()
    {
        const auto trace = chain();
        auto path = std::make_shared<const CriticalPath>(
            computeCriticalPath(*trace, analyzeWaitStates(*trace)));
        TimelineView view;
        view.resize(900, 400);
        view.setTrace(trace,
                      std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace)));
        view.setShowWaitStates(false);
        view.setShowMessages(false);
        view.setCriticalPath(path);
        QVERIFY(!view.showCriticalPath()); // off until asked for
        view.fitToWindow();

        const auto at = [&](double t, int rank) {
            return QPoint(view.plotArea().left() + int(view.mapping().toPixel(t)),
                          view.rowRect(rank).center().y());
        };
        QImage off = view.grab().toImage();
        view.setShowCriticalPath(true);
        QImage on = view.grab().toImage();
        // On each rank's own stretch (50 on rank 0, 150 on rank 1, 250 on rank 2) and nowhere
        // else: rank 0 at 250 is off the path.
        for (const auto& [t, rank] : {std::pair{50.0, 0}, {150.0, 1}, {250.0, 2}}) {
            const QPoint p = at(t, rank);
            QVERIFY2(pathColourNear(on, p.x(), p.y()), qPrintable(QString::number(t)));
            QVERIFY(!pathColourNear(off, p.x(), p.y()));
        }
        QVERIFY(!pathColourNear(on, at(250.0, 0).x(), at(250.0, 0).y()));
        QVERIFY(!pathColourNear(on, at(50.0, 2).x(), at(50.0, 2).y()));
    }

    void criticalPathModel()
    {
        const auto trace = chain();
        auto path = std::make_shared<const CriticalPath>(
            computeCriticalPath(*trace, analyzeWaitStates(*trace)));
        CriticalPathItemModel model;
        QAbstractItemModelTester tester(&model);
        model.setPath(trace, path);
        // work 100 + 85 + 85 = 270 of 310 ns on the path (87.1 %); MPI_Recv 30; main 10.
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, CriticalPathItemModel::FunctionColumn).data().toString(),
                 QStringLiteral("work"));
        QCOMPARE(model.index(0, CriticalPathItemModel::PathColumn)
                     .data(CriticalPathItemModel::SortRole)
                     .toLongLong(),
                 270);
        QCOMPARE(model.index(0, CriticalPathItemModel::ShareColumn).data().toString(),
                 QStringLiteral("87.1 %"));
        // Exclusive work per rank 100, 95, 105: mean 100, imbalance 170.
        QCOMPARE(model.index(0, CriticalPathItemModel::ImbalanceColumn)
                     .data(CriticalPathItemModel::SortRole)
                     .toLongLong(),
                 170);
        model.setPath(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void callTreePanel()
    {
        const auto trace = chain();
        auto tree = std::make_shared<const CallTree>(computeCallTree(*trace));
        CallTreePanel panel;
        QAbstractItemModelTester tester(panel.model());
        panel.resize(900, 300);
        panel.setTree(trace, tree);
        CallTreeItemModel* m = panel.model();
        // One root, main, with children work, MPI_Recv and MPI_Send by inclusive time: work
        // 100 + 95 + 105 = 300, MPI_Recv 105 + 195 = 300 (a tie: work was entered first),
        // MPI_Send 10 + 10 = 20.
        QCOMPARE(m->rowCount(), 1);
        const QModelIndex main = m->index(0, 0);
        QCOMPARE(main.data().toString(), QStringLiteral("main"));
        QCOMPARE(m->rowCount(main), 3);
        QCOMPARE(m->index(0, 0, main).data().toString(), QStringLiteral("work"));
        QCOMPARE(m->index(2, 0, main).data().toString(), QStringLiteral("MPI_Send"));
        QCOMPARE(m->index(1, CallTreeItemModel::InclusiveColumn, main)
                     .data(CallTreeItemModel::SortRole)
                     .toLongLong(),
                 300);
        QCOMPARE(m->index(0, CallTreeItemModel::VisitsColumn, main).data().toString(),
                 QStringLiteral("5"));
        QCOMPARE(m->parent(m->index(2, 0, main)), main);
        QVERIFY(panel.view()->isExpanded(main));

        // Selecting MPI_Recv shows its inclusive time per rank: 0, 105, 195.
        panel.view()->setCurrentIndex(m->index(1, 0, main));
        QCOMPARE(panel.distribution()->values(), (std::vector<int64_t>{0, 105, 195}));
        QVERIFY(panel.distribution()->title().contains(QStringLiteral("main>MPI_Recv")));
        QVERIFY(!panel.distribution()->grab().isNull());
    }

    void mainWindowAction()
    {
        const QString anchor = traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
        MainWindow w;
        QSignalSpy opened(&w, &MainWindow::traceOpened);
        QVERIFY(w.openTrace(anchor));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
        TraceDocument* doc = w.document(0);
        QVERIFY(doc->data().criticalPath && doc->data().callTree);
        QAction* c = w.actions()->showCriticalPath();
        QCOMPARE(c->shortcut(), QKeySequence(Qt::Key_C));
        QVERIFY(!doc->timeline()->showCriticalPath());
        c->trigger();
        QVERIFY(doc->timeline()->showCriticalPath());
        c->trigger();
        QVERIFY(!doc->timeline()->showCriticalPath());
        // The call tree sits beside the flat profile.
        QCOMPARE(doc->panes()->tabText(0), QStringLiteral("Profile"));
        QCOMPARE(doc->panes()->tabText(1), QStringLiteral("Call Tree"));
        // 20038832214 ns (tst_criticalpath, from otf2-print), on ranks 0 and 1.
        QVERIFY2(
            doc->criticalPathPanel()->summary()->text().contains(QStringLiteral("20.04 s over")),
            qPrintable(doc->criticalPathPanel()->summary()->text()));
        QVERIFY(doc->criticalPathPanel()->summary()->text().contains(QStringLiteral("2 of 4")));
        QCOMPARE(doc->criticalPathPanel()->model()->index(0, 0).data().toString(),
                 QStringLiteral("foo"));
    }
};

QTEST_MAIN(TestCriticalPathView)
#include "tst_criticalpathview.moc"
