// TimelineView on a hand-built 3-rank trace with known times: hit-testing at computed pixels,
// click selection, wheel and key zoom/pan, setVisibleRange without echo, row aggregation,
// filter and order, group expansion, and MPI call navigation.
//
// The trace (times in ns; every rank runs main over [0, 10000]):
//   rank 0: compute [0, 4000]  MPI_Send [4000, 5000] (send at 4500)  compute [5000, 8000]
//           MPI_Allreduce [8000, 9000]
//   rank 1: MPI_Recv [1000, 6000] (receive at 5800)  compute [6000, 8000]
//           MPI_Allreduce [8000, 9500]
//   rank 2: compute [0, 7000]  MPI_Allreduce [7000, 9500]
// Rank 0's events: 0 enter main, 1 enter compute, 2 leave compute, 3 enter MPI_Send, 4 send,
// 5 leave MPI_Send, 6 enter compute, 7 leave compute, 8 enter MPI_Allreduce, 9 leave it,
// 10 leave main. MPI time: rank 0 2000, rank 1 5000 + 1500 = 6500, rank 2 2500.

#include "model/profile/timelinesummary.h"
#include "model/trace/trace.h"
#include "model/waits/waitstates.h"
#include "testsupport/handtrace.h"
#include "views/timeline/timelinepainter.h"
#include "views/timeline/timelinestate.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timemapping.h"
#include "views/waits/waitpalette.h"

#include <QApplication>
#include <QFontMetrics>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

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

std::shared_ptr<const Trace> manyRanks(int n)
{
    HandTrace h;
    std::vector<LocationId> locs;
    for (int i = 0; i < n; ++i)
        locs.push_back(h.addRank());
    const RegionId work = h.user("work");
    for (int i = 0; i < n; ++i)
        h.call(locs[size_t(i)], work, 0, 1000 + i);
    return std::make_shared<const Trace>(h.finish());
}

std::vector<RankId> ranks(std::initializer_list<uint32_t> ids)
{
    std::vector<RankId> out;
    for (uint32_t i : ids)
        out.push_back(RankId(i));
    return out;
}

std::vector<RankId> rankRange(uint32_t first, uint32_t last)
{
    std::vector<RankId> out;
    for (uint32_t i = first; i <= last; ++i)
        out.push_back(RankId(i));
    return out;
}

/// Pixels of exactly `colour` in the column at trace time `t` within row `row` of a frame.
int colourPixels(TimelineView& view, double t, int row, const QColor& colour)
{
    const QImage frame = view.grab().toImage();
    const QRect plot = view.plotArea();
    const int x = int(plot.left() + view.mapping().toPixel(t));
    const QRect r = view.rowRect(row);
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        n += frame.pixelColor(x, y).rgb() == colour.rgb();
    return n;
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

    std::shared_ptr<const Trace> trace_ = threeRanks();
    std::shared_ptr<const TimelineSummary> summary_ =
        std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace_));

    void setUp(TimelineView& view)
    {
        view.resize(1000, 400);
        view.setTrace(trace_, summary_);
        view.setVisibleRange(0, 10000);
    }
    // Widget position of trace time `t` in the middle of row `row`.
    static QPoint at(const TimelineView& view, double t, int row)
    {
        const QRect plot = view.plotArea();
        const double x = plot.left() + view.mapping().toPixel(t);
        return QPoint(int(x), view.rowRect(row).center().y());
    }

private slots:
    void initTestCase() { QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9)); }

    void itemAt_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<double>("time");
        QTest::addColumn<QString>("region");
        QTest::addColumn<uint>("enter");
        QTest::addColumn<uint>("leave");
        QTest::newRow("rank 0 compute") << 0 << 2000.0 << "compute" << 1u << 2u;
        QTest::newRow("rank 0 send") << 0 << 4200.0 << "MPI_Send" << 3u << 5u;
        QTest::newRow("rank 0 second compute") << 0 << 6500.0 << "compute" << 6u << 7u;
        QTest::newRow("rank 0 main") << 0 << 9500.0 << "main" << 0u << 10u;
        // Rank 1: 0 enter main, 1 enter MPI_Recv, 2 recv, 3 leave MPI_Recv, 4/5 compute,
        // 6/7 MPI_Allreduce, 8 leave main.
        QTest::newRow("rank 1 recv") << 1 << 3000.0 << "MPI_Recv" << 1u << 3u;
        QTest::newRow("rank 1 main") << 1 << 500.0 << "main" << 0u << 8u;
        // Rank 2: 0 enter main, 1 enter compute, 2 leave, 3 enter MPI_Allreduce, 4 leave.
        QTest::newRow("rank 2 allreduce") << 2 << 8000.0 << "MPI_Allreduce" << 3u << 4u;
    }
    void itemAt()
    {
        QFETCH(int, row);
        QFETCH(double, time);
        QFETCH(QString, region);
        QFETCH(uint, enter);
        QFETCH(uint, leave);
        TimelineView view;
        setUp(view);
        view.setShowMessages(false);
        const TimelineSelection s = view.itemAt(at(view, time, row));
        QVERIFY(s.valid());
        QCOMPARE(s.rank, RankId(uint32_t(row)));
        QCOMPARE(QString::fromUtf8(trace_->regionName(s.region)), region);
        QCOMPARE(s.enterEvent, enter);
        QCOMPARE(s.leaveEvent, leave);
    }

    void itemAtOutsideIsInvalid()
    {
        TimelineView view;
        setUp(view);
        QVERIFY(!view.itemAt(QPoint(2, view.rowRect(0).center().y())).valid()); // label column
        QVERIFY(!view.itemAt(QPoint(view.plotArea().center().x(), 5)).valid()); // axis
    }

    void messageLine()
    {
        TimelineView view;
        setUp(view);
        (void)view.grab(); // a frame decides which message lines are drawn
        // The line runs from (4500, rank 0) to (5800, rank 1); its midpoint is at 5150.
        const QPoint a = at(view, 4500, 0), b = at(view, 5800, 1);
        const TimelineSelection s = view.itemAt((a + b) / 2);
        QVERIFY(s.message.valid());
        QCOMPARE(s.message, MessageId(0));
        QCOMPARE(s.rank, RankId(0));
        QCOMPARE(QString::fromUtf8(trace_->regionName(s.region)), QStringLiteral("MPI_Send"));
        view.setShowMessages(false);
        QVERIFY(!view.itemAt((a + b) / 2).message.valid());
    }

    void clickSelects()
    {
        TimelineView view;
        setUp(view);
        view.setShowMessages(false);
        QSignalSpy spy(&view, &TimelineView::selectionChanged);
        QTest::mouseClick(&view, Qt::LeftButton, {}, at(view, 4200, 0));
        QCOMPARE(spy.count(), 1);
        const auto s = spy.at(0).at(0).value<TimelineSelection>();
        QCOMPARE(s.rank, RankId(0));
        QCOMPARE(s.enterEvent, 3u);
        QCOMPARE(s.message, MessageId(0)); // a point-to-point call carries its message
        QCOMPARE(view.selection(), s);
        // Clicking the same instance again changes nothing.
        QTest::mouseClick(&view, Qt::LeftButton, {}, at(view, 4300, 0));
        QCOMPARE(spy.count(), 1);
    }

    void wheelZoomsAtCursor()
    {
        TimelineView view;
        setUp(view);
        QSignalSpy spy(&view, &TimelineView::visibleRangeChanged);
        const QPoint pos = at(view, 2500, 1);
        const double anchor = view.mapping().toTime(pos.x() - view.plotArea().left());
        QWheelEvent wheel(pos, view.mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QCOMPARE(spy.count(), 1);
        // One notch zooms in by 1.2 around the time under the cursor.
        QCOMPARE(view.mapping().span(), 10000 / 1.2);
        QCOMPARE(view.mapping().toTime(pos.x() - view.plotArea().left()), anchor);
        QCOMPARE(spy.at(0).at(0).toDouble(), view.mapping().begin());
        QCOMPARE(spy.at(0).at(1).toDouble(), view.mapping().end());
    }

    void keys()
    {
        TimelineView view;
        setUp(view);
        QSignalSpy spy(&view, &TimelineView::visibleRangeChanged);
        // '+' zooms in by 1.5 around the centre (5000): span 6666.67.
        QTest::keyClick(&view, Qt::Key_Plus);
        QCOMPARE(view.mapping().span(), 10000 / 1.5);
        QCOMPARE((view.mapping().begin() + view.mapping().end()) / 2, 5000.0);
        // Right arrow pans by a tenth of the window.
        const double before = view.mapping().begin();
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.mapping().begin(), before + view.mapping().span() / 10);
        // '0' fits: the run [0, 10000] plus 1% on either side.
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.mapping().begin(), -100.0);
        QCOMPARE(view.mapping().end(), 10100.0);
        QCOMPARE(spy.count(), 3);
        // Fitting again does not move, so nothing is emitted.
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(spy.count(), 3);
    }

    void setVisibleRangeDoesNotEcho()
    {
        TimelineView view;
        setUp(view);
        QSignalSpy spy(&view, &TimelineView::visibleRangeChanged);
        view.setVisibleRange(1000, 3000);
        QCOMPARE(spy.count(), 1);
        view.setVisibleRange(1000, 3000);
        QCOMPARE(spy.count(), 1);
        // Two coupled views settle after one round.
        TimelineView other;
        setUp(other);
        connect(&view, &TimelineView::visibleRangeChanged, &other, &TimelineView::setVisibleRange);
        connect(&other, &TimelineView::visibleRangeChanged, &view, &TimelineView::setVisibleRange);
        QSignalSpy otherSpy(&other, &TimelineView::visibleRangeChanged);
        view.setVisibleRange(2000, 6000);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(otherSpy.count(), 1);
        QCOMPARE(other.mapping().begin(), 2000.0);
    }

    void timeOffset()
    {
        TimelineView view;
        setUp(view);
        view.setShowMessages(false);
        // Displayed time = trace time - 1000: trace time 4200 (MPI_Send) shows at 3200.
        view.setTimeOffset(1000);
        view.setVisibleRange(-1000, 9000);
        const TimelineSelection s = view.itemAt(at(view, 3200, 0));
        QCOMPARE(QString::fromUtf8(trace_->regionName(s.region)), QStringLiteral("MPI_Send"));
    }

    void fewRanksFillTheHeight()
    {
        // Three ranks in a 400 px view share the plot's height (a third each, less than 3 px
        // left over from the division), as Vampir and Paraver lay out few processes; rows were
        // capped at 36 px, which left two thirds of this view empty.
        TimelineView view;
        setUp(view);
        const QRect plot = view.plotArea();
        QVERIFY(plot.height() > 3 * 36);
        QVERIFY(view.rowRect(0).height() >= plot.height() / 3 - 1);
        QVERIFY(view.rowRect(2).bottom() >= plot.bottom() - 3);
    }

    void deepZoomCornerLabelIsWhole()
    {
        // 1.5 us shown at 13.049751 s of a 20 s run: the tick labels are offsets from
        // 13.049751 s (tst_timemapping::offsetLabelsDeepInARun), so the corner names that time
        // with its digits and " +". It is wider than an 80 px label column: it goes over the
        // start of the axis, whole, instead of being elided to "...97510 s +".
        TimeMapping m;
        m.setLimits(0, 20e9);
        m.setWidth(600);
        m.setVisible(13.049751e9, 13.049751e9 + 1500);
        const QString text = TimelinePainter::cornerText(m);
        QVERIFY2(text.startsWith(QLatin1String("13.049751")), qPrintable(text));
        QVERIFY2(text.endsWith(QLatin1String(" s +")), qPrintable(text));
        const QFontMetrics fm(QApplication::font());
        const int w = fm.horizontalAdvance(text);
        QVERIFY(w > 80 - 10);
        const QRect over = TimelinePainter::cornerRect(w, 80, TimelineState::kAxisHeight);
        QCOMPARE(over.left(), 6);
        QVERIFY(over.width() >= w);
        QVERIFY(over.right() > 80);
        // The whole run's "span 20.09 s" keeps the corner above the row labels.
        m.fit();
        const QString span = TimelinePainter::cornerText(m);
        QVERIFY2(span.startsWith(QLatin1String("span ")), qPrintable(span));
        const QRect corner = TimelinePainter::cornerRect(fm.horizontalAdvance(span), 120,
                                                         TimelineState::kAxisHeight);
        QCOMPARE(corner, QRect(6, 2, 110, TimelineState::kAxisHeight - 6));
    }

    void timeLimitsWidenTheRun()
    {
        // The run spans [trace begin, trace end]; a stacked view may show the union with a
        // longer run: after setTimeLimits(0, 3 x end) fitting shows up to there, and an empty
        // span gives the run alone back.
        TimelineView view;
        setUp(view);
        const double end = double(trace_->endTime());
        view.setTimeLimits(0, 3 * end);
        view.fitToWindow();
        QVERIFY(view.mapping().end() >= 3 * end);
        view.setVisibleRange(2 * end, 3 * end); // past the run: allowed now
        QCOMPARE(view.mapping().begin(), 2 * end);
        view.setTimeLimits(0, 0);
        view.fitToWindow();
        QVERIFY(view.mapping().end() < 1.5 * end);
    }

    void rowsAggregateAndFilter()
    {
        TimelineView view;
        view.resize(800, 300);
        auto trace = manyRanks(256);
        view.setTrace(trace,
                      std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace)));
        // Rows area: from y 30 (under the axis) to 273 (a pixel above the 26 px legend), 244 px;
        // at 4 px per row at least, 61 rows fit; 256 ranks in 61 rows: groups of
        // ceil(256 / 61) = 5, so 51 groups of 5 (ranks 0..254) and rank 255 alone: 52 rows.
        QCOMPARE(view.plotArea().height() / 4, 61);
        auto rows = view.rows();
        QCOMPARE(rows.size(), size_t(52));
        QCOMPARE(rows[0], rankRange(0, 4));
        QCOMPARE(rows[50], rankRange(250, 254));
        QCOMPARE(rows[51], ranks({255}));

        // Double-click the first group: its 5 ranks get rows; the other 251 ranks share the
        // 56 remaining rows in groups of ceil(251 / 56) = 5: 50 groups and rank 255, 56 rows.
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.rowRect(0).center());
        rows = view.rows();
        QCOMPARE(rows.size(), size_t(56));
        QCOMPARE(rows[0], ranks({0}));
        QCOMPARE(rows[4], ranks({4}));
        QCOMPARE(rows[5], rankRange(5, 9));
        QCOMPARE(rows[55], ranks({255}));
        // Double-clicking one of its ranks collapses the group again.
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.rowRect(2).center());
        QCOMPARE(view.rows().size(), size_t(52));
        QCOMPARE(view.rows()[0], rankRange(0, 4));

        // A call revealed from elsewhere (a pane, Find) expands its group: rank 102 is in the
        // group 100..104 (row 20); after reveal ranks 100..104 have rows of their own.
        view.reveal(view.instanceAt(RankId(102), 0));
        rows = view.rows();
        QCOMPARE(rows[20], ranks({100}));
        QCOMPARE(rows[22], ranks({102}));
        QCOMPARE(rows[24], ranks({104}));
        QCOMPARE(rows[25], rankRange(105, 109));
        QTest::mouseDClick(&view, Qt::LeftButton, {}, view.rowRect(22).center());

        view.setRankFilter(ranks({5, 3, 200}));
        QCOMPARE(view.rows(),
                 (std::vector<std::vector<RankId>>{ranks({5}), ranks({3}), ranks({200})}));
        view.setRankFilter({});
        QCOMPARE(view.rows().size(), size_t(52));
    }

    void oneRankPerRowDownToFourPixels()
    {
        // 60 ranks in the 244 px rows area: 244 / 60 = 4.07 px each, so every rank gets its own
        // row (rows of 4 px); 62 ranks need 248 px and are grouped in pairs (31 rows).
        TimelineView view;
        view.resize(800, 300);
        auto trace = manyRanks(60);
        view.setTrace(trace,
                      std::make_shared<const TimelineSummary>(TimelineSummary::build(*trace)));
        QCOMPARE(view.rows().size(), size_t(60));
        QCOMPARE(view.rowRect(1).height(), 4);
        auto more = manyRanks(62);
        view.setTrace(more, std::make_shared<const TimelineSummary>(TimelineSummary::build(*more)));
        QCOMPARE(view.rows().size(), size_t(31));
        QCOMPARE(view.rows()[30], rankRange(60, 61));
    }

    void orderByMpiTime()
    {
        TimelineView view;
        setUp(view);
        QCOMPARE(view.rows(),
                 (std::vector<std::vector<RankId>>{ranks({0}), ranks({1}), ranks({2})}));
        view.setRankOrder(TimelineView::RankOrder::ByMpiTime);
        // MPI time: rank 1 6500, rank 2 2500, rank 0 2000 (most first).
        QCOMPARE(view.rows(),
                 (std::vector<std::vector<RankId>>{ranks({1}), ranks({2}), ranks({0})}));
    }

    void selectNextCall()
    {
        TimelineView view;
        setUp(view);
        QSignalSpy spy(&view, &TimelineView::selectionChanged);
        // Nothing selected: rank 0's first MPI call in view is MPI_Send (events 3..5).
        view.selectNextCall();
        QCOMPARE(view.selection().rank, RankId(0));
        QCOMPARE(view.selection().enterEvent, 3u);
        QCOMPARE(view.selection().leaveEvent, 5u);
        view.selectNextCall();
        QCOMPARE(view.selection().enterEvent, 8u); // MPI_Allreduce
        QCOMPARE(view.selection().leaveEvent, 9u);
        view.selectNextCall(); // no further call: the selection stays
        QCOMPARE(view.selection().enterEvent, 8u);
        view.selectPreviousCall();
        QCOMPARE(view.selection().enterEvent, 3u);
        QCOMPARE(spy.count(), 3);
        // On rank 2 (selected by a click), the next call after compute is MPI_Allreduce at 7000.
        view.setShowMessages(false);
        QTest::mouseClick(&view, Qt::LeftButton, {}, at(view, 3000, 2));
        QCOMPARE(view.selection().enterEvent, 1u);
        QTest::keyClick(&view, Qt::Key_N);
        QCOMPARE(view.selection().rank, RankId(2));
        QCOMPARE(view.selection().enterEvent, 3u);
        // Rank 2 has no MPI call before its MPI_Allreduce: the selection and window stay.
        view.setVisibleRange(0, 1000);
        QTest::keyClick(&view, Qt::Key_P);
        QCOMPARE(view.selection().enterEvent, 3u);
        QCOMPARE(view.mapping().begin(), 0.0);
        view.setSelection({});
        view.setVisibleRange(0, 1000);
        // No selection: rank 0's first call from the window's start is MPI_Send [4000, 5000],
        // out of view; it is centred (4500) and, 1000 ns wide, gets a 1.25 x 1000 ns window.
        view.selectNextCall();
        QCOMPARE(view.selection().enterEvent, 3u);
        QCOMPARE(view.mapping().begin(), 4500 - 625.0);
        QCOMPARE(view.mapping().end(), 4500 + 625.0);
    }

    void waitStatesDrawnOverTheirSpans()
    {
        // Rank 1's MPI_Recv [1000, 6000] waits for the send entered at 4000: Late Sender
        // [1000, 4000). (The MPI_Allreduce calls record no collective events: no wait there.)
        TimelineView view;
        setUp(view);
        auto waits = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*trace_));
        QCOMPARE(waits->waits.size(), size_t(1));
        view.setWaitStates(waits);
        const QColor lateSender = WaitPalette::color(WaitPattern::LateSender);
        // Zoomed out (10 ns per pixel, summary buckets of 1 ns): bars in the pattern colour.
        QVERIFY(colourPixels(view, 2500, 1, lateSender) > 0);
        QCOMPARE(colourPixels(view, 5000, 1, lateSender), 0); // receiving, not waiting
        QCOMPARE(colourPixels(view, 2500, 0, lateSender), 0);
        // Zoomed in below a bucket per pixel: the wait's own span, up to its end at 4000.
        view.setVisibleRange(3900, 4100);
        QVERIFY(colourPixels(view, 3950, 1, lateSender) > 0);
        QCOMPARE(colourPixels(view, 4050, 1, lateSender), 0);
        // Toggled off: nothing.
        view.setShowWaitStates(false);
        QCOMPARE(colourPixels(view, 3950, 1, lateSender), 0);
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
