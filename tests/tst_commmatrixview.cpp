// The communication-matrix heat map and pane: cells, hit-testing and tooltips on a hand-made
// matrix, grouping at 1024 ranks (aggregates worked out by hand), the rank filter, and, in a
// trace document, following the timeline's visible range and highlighting a clicked cell's
// messages on the timeline.
//
// The document's trace (times in ns, every rank in main over [0, 10000]):
//   rank 0: MPI_Send to 1 at 1000 (100 B), MPI_Recv from 2 completing at 3100 (8 B),
//           MPI_Send to 1 at 5000 (200 B)
//   rank 1: MPI_Recv from 0 completing at 1500 and at 5200
//   rank 2: MPI_Send to 0 at 3000
// Cells: 0 -> 1: 2 messages, 300 B, transfers 500 and 200 ns (mean 350, max 500);
//        2 -> 0: 1 message, 8 B, 100 ns.

#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "testsupport/handtrace.h"
#include "views/matrix/commmatrixpanel.h"
#include "views/matrix/commmatrixview.h"
#include "views/timeline/timelineview.h"

#include <QCheckBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace rankscope;

namespace {

CommMatrixCell cell(uint32_t s, uint32_t r, uint64_t count, uint64_t bytes, uint64_t timed,
                    int64_t total, int64_t max)
{
    return {s, r, count, bytes, timed, total, max};
}

std::shared_ptr<const Trace> documentTrace()
{
    test::HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank(), r2 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId main = h.user("main");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    for (LocationId l : {r0, r1, r2})
        h.enter(l, 0, main);
    auto sendAt = [&](LocationId l, int64_t t, uint32_t to, uint64_t bytes) {
        h.enter(l, t, send);
        h.builder().send(l, t, to, world, 0, bytes);
        h.leave(l, t + 10, send);
    };
    auto recvAt = [&](LocationId l, int64_t t, uint32_t from, uint64_t bytes) {
        h.enter(l, t - 50, recv);
        h.builder().recv(l, t, from, world, 0, bytes);
        h.leave(l, t, recv);
    };
    sendAt(r0, 1000, 1, 100);
    recvAt(r0, 3100, 2, 8);
    sendAt(r0, 5000, 1, 200);
    recvAt(r1, 1500, 0, 100);
    recvAt(r1, 5200, 0, 200);
    sendAt(r2, 3000, 0, 8);
    for (LocationId l : {r0, r1, r2})
        h.leave(l, 10000, main);
    return std::make_shared<const Trace>(h.finish());
}

} // namespace

class TestCommMatrixView : public QObject
{
    Q_OBJECT

private slots:
    void cellsAndTooltips()
    {
        auto m = std::make_shared<CommMatrix>();
        m->rankCount = 4;
        m->cells = {cell(0, 1, 3, 300, 3, 600, 400), cell(2, 3, 1, 16, 0, 0, 0)};
        CommMatrixView v;
        v.resize(400, 300);
        v.setMatrix(m);
        QCOMPARE(v.groupCount(), 4);
        QCOMPARE(v.groupCell(0, 1), m->cells[0]);
        QCOMPARE(v.groupCell(1, 0).count, 0u);
        for (int row = 0; row < 4; ++row)
            for (int column = 0; column < 4; ++column)
                QCOMPARE(v.cellAt(v.cellRect(row, column).center()), std::pair(row, column));
        QCOMPARE(v.cellAt(QPoint(1, 1)), std::pair(-1, -1));

        const QString tip = v.toolTipAt(v.cellRect(0, 1).center());
        QVERIFY2(tip.contains("rank 0 → rank 1"), qPrintable(tip));
        QVERIFY2(tip.contains("3 messages, 300 B"), qPrintable(tip));
        QVERIFY2(tip.contains("mean 200 ns, max 400 ns"), qPrintable(tip));
        const QString implied = v.toolTipAt(v.cellRect(2, 3).center());
        QVERIFY2(implied.contains("1 implied by collectives"), qPrintable(implied));
        QVERIFY(v.toolTipAt(v.cellRect(3, 3).center()).contains("no messages"));

        // Bytes: the largest cell is 0 -> 1; a click there reports its ranks.
        v.setMetric(CommMatrixMetric::Bytes);
        QCOMPARE(v.largestCell(), std::pair(0, 1));
        QSignalSpy clicked(&v, &CommMatrixView::cellClicked);
        v.show();
        QTest::mouseClick(&v, Qt::LeftButton, {}, v.cellRect(2, 3).center());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked[0][0].value<std::vector<RankId>>(), std::vector<RankId>{RankId(2)});
        QCOMPARE(clicked[0][1].value<std::vector<RankId>>(), std::vector<RankId>{RankId(3)});
        QCOMPARE(v.selectedCell(), std::pair(2, 3));

        // Rank filter: ranks 3 and 2 only, in that order.
        v.setRanks({RankId(3), RankId(2)});
        QCOMPARE(v.groupCount(), 2);
        QCOMPARE(v.groupCell(1, 0), m->cells[1]); // row rank 2, column rank 3
        QCOMPARE(v.groupCell(0, 0).count, 0u);
    }

    void groupsAt1024Ranks()
    {
        auto m = std::make_shared<CommMatrix>();
        m->rankCount = 1024;
        m->cells = {cell(0, 1, 2, 20, 2, 30, 20), cell(5, 22, 1, 7, 1, 90, 90),
                    cell(5, 23, 4, 4, 0, 0, 0), cell(1023, 0, 1, 1, 1, 5, 5)};
        CommMatrixView v;
        // The plot is min(300 - 44 - 110 - 8, 300 - 44 - 8) = 138 px square (labels, colour
        // bar, margins); at 3 px a cell 46 groups fit, so ranks go 23 to a group
        // (ceil(1024 / 46)): 45 groups, the last of 12 ranks (1012-1023).
        v.resize(300, 300);
        v.setMatrix(m);
        QCOMPARE(v.groupCount(), 45);
        QCOMPARE(v.groupRanks(0).size(), size_t(23));
        QCOMPARE(v.groupRanks(44).size(), size_t(12));
        QCOMPARE(v.groupRanks(44).front(), RankId(1012));
        QVERIFY(v.cellRect(0, 0).width() >= CommMatrixView::kMinCellPixels);
        // Group 0 holds ranks 0-22: 0 -> 1 and 5 -> 22 merge (3 messages, 27 B, transfers
        // 30 + 90 over 3 timed, max 90); 5 -> 23 falls in column 1.
        QCOMPARE(v.groupCell(0, 0), cell(0, 1, 3, 27, 3, 120, 90));
        QCOMPARE(v.groupCell(0, 0).meanNs(), 40.0);
        QCOMPARE(v.groupCell(0, 1), cell(5, 23, 4, 4, 0, 0, 0));
        QCOMPARE(v.groupCell(44, 0), cell(1023, 0, 1, 1, 1, 5, 5));
        const QString tip = v.toolTipAt(v.cellRect(0, 1).center());
        QVERIFY2(tip.contains("ranks 0–22 → ranks 23–45"), qPrintable(tip));
    }

    void fillsAWidePane()
    {
        // A 1,400 x 230 px pane under the timeline: the matrix takes its whole width but the
        // colour bar's 110 px, the labels' 44 px and an 8 px gap, and its height but the labels'
        // and the gap, instead of a square as high as the pane. The 256 ranks are grouped by
        // the shorter side, 178 px / kMinCellPixels (3) = 59 groups of 5 ranks (52 groups), so
        // a row is 178 / 52 px, 3 px after rounding or more.
        auto m = std::make_shared<CommMatrix>();
        m->rankCount = 256;
        m->cells = {cell(0, 255, 1, 8, 1, 10, 10)};
        CommMatrixView v;
        v.resize(1400, 230);
        v.setMatrix(m);
        const int n = v.groupCount();
        QVERIFY(n > 0);
        const QRect first = v.cellRect(0, 0), last = v.cellRect(n - 1, n - 1);
        QCOMPARE(last.right() - first.left() + 1, 1400 - 44 - 110 - 8);
        QCOMPARE(last.bottom() - first.top() + 1, 230 - 44 - 8);
        QCOMPARE(n, 52);
        QVERIFY(first.height() >= 3);
    }

    void followsTheTimelineAndHighlights()
    {
        const LoadOutcome out =
            TraceLoader::analyseNow(documentTrace(), QStringLiteral("hand"), QStringLiteral("hand"),
                                    [](double) { return true; });
        QVERIFY(out.error.isEmpty());
        TraceDocument doc(out.loaded);
        doc.resize(1200, 800);
        doc.show();
        doc.panes()->setCurrentWidget(doc.matrixPanel());
        CommMatrixPanel* panel = doc.matrixPanel();
        QTRY_VERIFY(!panel->busy());
        QTRY_VERIFY(panel->view()->matrix() != nullptr);
        QCOMPARE(panel->view()->matrix()->cells,
                 (std::vector<CommMatrixCell>{cell(0, 1, 2, 300, 2, 700, 500),
                                              cell(2, 0, 1, 8, 1, 100, 100)}));
        QVERIFY2(panel->summaryText().startsWith("3 messages · 308 B · 2 pairs"),
                 qPrintable(panel->summaryText()));

        // Zoomed in on [4000, 10000): only the send at 5000.
        QSignalSpy ready(panel, &CommMatrixPanel::matrixReady);
        doc.timeline()->setVisibleRange(4000, 10000);
        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(panel->view()->matrix()->cells,
                 (std::vector<CommMatrixCell>{cell(0, 1, 1, 200, 1, 200, 200)}));

        // Back to everything; clicking 0 -> 1 highlights both of its lines on the timeline and
        // selects the first, sent at 1000 from rank 0's MPI_Send.
        doc.timeline()->fitToWindow();
        QTRY_COMPARE(ready.count(), 2);
        const auto [row, column] = std::pair(0, 1);
        panel->view()->selectCell(row, column);
        const TimelineSelection s = doc.timeline()->selection();
        QVERIFY(s.message.valid());
        QCOMPARE(s.rank, RankId(0));
        const Message& m = out.loaded.trace->message(s.message);
        QCOMPARE(out.loaded.trace->events(m.sendLocation).time(m.sendEvent), int64_t(1000));
        doc.timeline()->grab(); // paint a frame
        QCOMPARE(doc.timeline()->highlightedMessageCount(), size_t(2));

        // A cell without messages: nothing highlighted, the selection stays.
        panel->view()->selectCell(1, 0);
        doc.timeline()->grab();
        QCOMPARE(doc.timeline()->highlightedMessageCount(), size_t(0));
        QCOMPARE(doc.timeline()->selection(), s);

        // The rank filter reaches the matrix: ranks 2 and 0.
        doc.timeline()->setRankFilter({RankId(2), RankId(0)});
        QCOMPARE(panel->view()->groupCount(), 2);
        QCOMPARE(panel->view()->groupCell(0, 1).count, 1u); // 2 -> 0

        // Cancel: the running job's result is dropped, the last matrix stays.
        const std::shared_ptr<const CommMatrix> before = panel->view()->matrix();
        panel->collectivesBox()->setChecked(true); // starts a job at once
        QVERIFY(panel->busy());
        panel->cancel();
        QVERIFY(!panel->busy());
        QVERIFY2(panel->summaryText().contains("cancelled"), qPrintable(panel->summaryText()));
        QTest::qWait(50);
        QCOMPARE(panel->view()->matrix(), before);
        QCOMPARE(ready.count(), 2);
    }
};

QTEST_MAIN(TestCommMatrixView)
#include "tst_commmatrixview.moc"
