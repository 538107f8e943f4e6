// SweepPlot and SweepView on a latency sweep of five points, x = 1, 2, 5, 10, 20 ms.
//
// Hand-derived geometry: the values span 20x, so the x axis is log10 over [1 / 1.25, 20 * 1.25]
// = [0.8, 25] (HistogramAxis pads a log range by 1.25 each side); x = 5 sits at
// log10(5 / 0.8) / log10(25 / 0.8) of the plot width. Run times 1.2, 1.3, 1.6, 2.1, 3.1 s and
// wait times 0.1, 0.2, 0.5, 1.0, 2.0 s: the highest value 3.1 s times 1.08 headroom = 3.348 s,
// rounded up to a multiple of the 1-2-5 step above a fifth of it (1 s): the axis ends at 4 s,
// so the run time 1.6 s of point 2 sits at 1 - 1.6 / 4 = 0.6 of the plot height from the top.

#include "views/panes/durationformat.h"
#include "views/whatif/sweepview.h"

#include <QApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <cmath>

using namespace rankscope;

namespace {

std::vector<SweepPlot::Point> latencySweep()
{
    const double xs[] = {1, 2, 5, 10, 20};
    const double run[] = {1.2e9, 1.3e9, 1.6e9, 2.1e9, 3.1e9};
    const double wait[] = {0.1e9, 0.2e9, 0.5e9, 1.0e9, 2.0e9};
    std::vector<SweepPlot::Point> points;
    for (int i = 0; i < 5; ++i) {
        SweepPlot::Point p;
        p.x = xs[i];
        p.runtimeNs = run[i];
        p.waitNs = wait[i];
        points.push_back(p);
    }
    return points;
}

std::vector<SweepPlot::Point> pendingSweep()
{
    std::vector<SweepPlot::Point> points = latencySweep();
    for (SweepPlot::Point& p : points) {
        p.runtimeNs.reset();
        p.waitNs.reset();
    }
    return points;
}

} // namespace

class TestSweepView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9)); }
    void logXChosenForWideRanges_data();
    void logXChosenForWideRanges();
    void valueLabels();
    void mapping();
    void clickEmitsOnce();
    void setPointChangesOnePoint();
    void toolTips();
    void viewTableFollowsPoints();
    void viewActivation();
    void baselineReference();
    void render();
};

void TestSweepView::baselineReference()
{
    // The baseline replay sits on the axis with the points: its 5 s run time raises the top to
    // 5 s x 1.08 = 5.4 s rounded up to a 1-2-5 step of a fifth of it (1 s): 6 s.
    SweepPlot plot;
    std::vector<SweepPlot::Point> points = latencySweep();
    points[0].mpiNs = 0.4e9;
    plot.setPoints(points);
    QCOMPARE(plot.valueTop(), 4e9); // 3.1 s x 1.08 = 3.35 s, steps of 1 s (0.67 s -> 1 s)
    plot.setBaseline(5e9, 1e9);
    QCOMPARE(*plot.baselineRuntime(), 5e9);
    QCOMPARE(*plot.baselineMpi(), 1e9);
    QCOMPARE(plot.valueTop(), 6e9);
    plot.resize(640, 360);
    const QString tip = plot.toolTipAt(plot.pointPosition(0, plot.rect()).toPoint());
    QVERIFY2(tip.contains(QStringLiteral("MPI time per rank: 400.0 ms")), qPrintable(tip));
    // 1.2 s against the 5 s baseline.
    QVERIFY2(tip.contains(QStringLiteral("effect: -3.800 s")), qPrintable(tip));
}

void TestSweepView::logXChosenForWideRanges_data()
{
    QTest::addColumn<std::vector<double>>("xs");
    QTest::addColumn<bool>("log");
    QTest::newRow("1..20: 20x") << std::vector<double>{1, 2, 5, 10, 20} << true;
    QTest::newRow("1..10: 10x") << std::vector<double>{1, 2, 5, 10} << false;
    QTest::newRow("0..100: zero") << std::vector<double>{0, 10, 100} << false;
    QTest::newRow("one point") << std::vector<double>{5} << false;
    QTest::newRow("1e3..1e6") << std::vector<double>{1e3, 1e4, 1e5, 1e6} << true;
}

void TestSweepView::logXChosenForWideRanges()
{
    QFETCH(std::vector<double>, xs);
    QFETCH(bool, log);
    std::vector<SweepPlot::Point> points;
    for (double x : xs)
        points.push_back({x, {}, {}, {}, {}, {}});
    SweepPlot plot;
    plot.setPoints(points);
    QCOMPARE(plot.logX(), log);
    plot.setLogX(!log);
    QCOMPARE(plot.logX(), !log);
    QCOMPARE(plot.xAxis(QRect(0, 0, 600, 400)).scale(),
             !log ? HistogramAxis::Scale::Log : HistogramAxis::Scale::Linear);
}

void TestSweepView::valueLabels()
{
    SweepPlot plot;
    plot.setParameter(QStringLiteral("Latency"), QStringLiteral("ms"));
    QCOMPARE(plot.valueText(1), QStringLiteral("1 ms"));
    QCOMPARE(plot.valueText(2.5), QStringLiteral("2.5 ms"));
    QCOMPARE(plot.valueText(0.1 + 0.2), QStringLiteral("0.3 ms"));
    plot.setParameter(QStringLiteral("Ranks"), QString());
    QCOMPARE(plot.valueText(512), QStringLiteral("512"));
    QCOMPARE(plot.valueText(12000), QStringLiteral("12k"));
    QCOMPARE(plot.valueText(2.5e6), QStringLiteral("2.5M"));
    std::vector<SweepPlot::Point> points = latencySweep();
    points[1].label = QStringLiteral("2 ms (baseline)");
    plot.setPoints(points);
    QCOMPARE(plot.pointLabel(1), QStringLiteral("2 ms (baseline)"));
    QCOMPARE(plot.pointLabel(2), QStringLiteral("5"));
}

void TestSweepView::mapping()
{
    SweepPlot plot;
    plot.setParameter(QStringLiteral("Latency"), QStringLiteral("ms"));
    plot.setPoints(latencySweep());
    plot.resize(800, 500);
    QVERIFY(plot.logX());
    QCOMPARE(plot.valueTop(), 4e9);
    const QRect area = plot.plotArea(plot.rect());
    const double fx = std::log10(5 / 0.8) / std::log10(25 / 0.8);
    const QPointF want(area.left() + fx * area.width(), area.top() + 0.6 * area.height());
    const QPointF got = plot.pointPosition(2, plot.rect());
    QVERIFY2(std::abs(got.x() - want.x()) < 1e-6 && std::abs(got.y() - want.y()) < 1e-6,
             qPrintable(QStringLiteral("%1,%2 vs %3,%4")
                            .arg(got.x())
                            .arg(got.y())
                            .arg(want.x())
                            .arg(want.y())));
    QCOMPARE(plot.pointAt(want.toPoint()), 2);
    QCOMPARE(plot.pointAt(want.toPoint() + QPoint(5, 3)), 2); // within 8 px
    QCOMPARE(plot.pointAt(want.toPoint() + QPoint(0, 30)), -1);
    // The wait marker of point 2 (0.5 s: 1 - 0.5 / 4 = 0.875 of the height) counts too.
    const QPoint waitPixel(int(std::lround(want.x())),
                           int(std::lround(area.top() + 0.875 * area.height())));
    QCOMPARE(plot.pointAt(waitPixel), 2);
    // x = 1 and x = 20 lie inside the plot, 1.25x from its ends.
    const double left = plot.pointPosition(0, plot.rect()).x();
    const double right = plot.pointPosition(4, plot.rect()).x();
    const double pad = std::log10(1.25) / std::log10(25 / 0.8) * area.width();
    QVERIFY(std::abs(left - (area.left() + pad)) < 1e-6);
    QVERIFY(std::abs(right - (area.left() + area.width() - pad)) < 1e-6);
}

void TestSweepView::clickEmitsOnce()
{
    SweepPlot plot;
    plot.setPoints(latencySweep());
    plot.resize(800, 500);
    QSignalSpy spy(&plot, &SweepPlot::pointClicked);
    const QPoint at = plot.pointPosition(2, plot.rect()).toPoint();
    QTest::mouseClick(&plot, Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 2);
    QTest::mouseClick(&plot, Qt::LeftButton, {}, QPoint(3, 3)); // nothing there
    QCOMPARE(spy.count(), 1);
    // Hover (the widget is not shown, so deliver the move directly).
    QMouseEvent move(QEvent::MouseMove, QPointF(at), plot.mapToGlobal(QPointF(at)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&plot, &move);
    QCOMPARE(plot.hoveredPoint(), 2);
}

void TestSweepView::setPointChangesOnePoint()
{
    SweepPlot plot;
    plot.setPoints(pendingSweep());
    const std::vector<SweepPlot::Point> before = plot.points();
    QVERIFY(before[3].pending());
    SweepPlot::Point done = latencySweep()[3];
    plot.setPoint(3, done);
    const std::vector<SweepPlot::Point>& after = plot.points();
    QCOMPARE(after.size(), before.size());
    for (size_t i = 0; i < after.size(); ++i)
        QVERIFY(i == 3 ? after[i] == done : after[i] == before[i]);
    QVERIFY(!after[3].pending());
    plot.setPoint(7, done); // out of range: ignored
    plot.setPoint(-1, done);
    QCOMPARE(plot.points().size(), size_t(5));
    QVERIFY(plot.logX()); // setPoint keeps the axis choice
    // A pending point sits on the x axis.
    plot.resize(800, 500);
    const QRect area = plot.plotArea(plot.rect());
    QCOMPARE(plot.pointPosition(0, plot.rect()).y(), double(area.top() + area.height()));
}

void TestSweepView::toolTips()
{
    SweepPlot plot;
    plot.setParameter(QStringLiteral("Latency"), QStringLiteral("ms"));
    std::vector<SweepPlot::Point> points = latencySweep();
    points[4].runtimeNs.reset();
    points[4].waitNs.reset();
    points[4].error = QStringLiteral("simulation ran out of memory");
    points[3].runtimeNs.reset();
    points[3].waitNs.reset();
    plot.setPoints(points);
    plot.resize(800, 500);
    const QString tip = plot.toolTipAt(plot.pointPosition(2, plot.rect()).toPoint());
    QVERIFY2(tip.contains(QStringLiteral("Latency = 5 ms")) &&
                 tip.contains(QStringLiteral("run time: ") + formatDuration(1.6e9)) &&
                 tip.contains(QStringLiteral("wait time per rank: ") + formatDuration(0.5e9)),
             qPrintable(tip));
    QVERIFY(plot.toolTipAt(plot.pointPosition(3, plot.rect()).toPoint()).contains("pending"));
    QVERIFY(plot.toolTipAt(plot.pointPosition(4, plot.rect()).toPoint())
                .contains(QStringLiteral("failed: simulation ran out of memory")));
    QVERIFY(plot.toolTipAt(QPoint(2, 2)).isEmpty());
}

void TestSweepView::viewTableFollowsPoints()
{
    SweepView view;
    view.setSweep(QStringLiteral("Latency sweep"), QStringLiteral("Latency"), QStringLiteral("ms"),
                  pendingSweep());
    const QAbstractItemModel* m = view.table()->model();
    QCOMPARE(m->rowCount(), 5);
    QCOMPARE(m->columnCount(), 4);
    QCOMPARE(m->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Latency (ms)"));
    QCOMPARE(m->index(2, 0).data().toString(), QStringLiteral("5 ms"));
    QCOMPARE(m->index(2, 1).data().toString(), QString());
    QCOMPARE(m->index(2, 3).data().toString(), QStringLiteral("pending"));
    QVERIFY(view.headerText().contains(QStringLiteral("5 points, 0 finished, 5 pending")));

    view.setPoint(2, latencySweep()[2]);
    QCOMPARE(m->index(2, 1).data().toString(), formatDuration(1.6e9));
    QCOMPARE(m->index(2, 2).data().toString(), formatDuration(0.5e9));
    QCOMPARE(m->index(2, 3).data().toString(), QStringLiteral("done"));
    QCOMPARE(m->index(1, 3).data().toString(), QStringLiteral("pending"));
    QVERIFY(*view.plot()->points()[2].runtimeNs == 1.6e9);

    SweepPlot::Point failed = pendingSweep()[4];
    failed.error = QStringLiteral("bad network spec");
    view.setPoint(4, failed);
    QCOMPARE(m->index(4, 3).data().toString(), QStringLiteral("failed: bad network spec"));
    QVERIFY(view.headerText().contains(QStringLiteral("1 finished, 1 failed, 3 pending")));
}

void TestSweepView::viewActivation()
{
    SweepView view;
    view.setSweep(QStringLiteral("Latency sweep"), QStringLiteral("Latency"), QStringLiteral("ms"),
                  latencySweep());
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &SweepView::pointActivated);
    SweepPlot* plot = view.plot();
    QTest::mouseClick(plot, Qt::LeftButton, {}, plot->pointPosition(3, plot->rect()).toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 3);
    QCOMPARE(view.table()->currentIndex().row(), 3);
    const QRect row1 = view.table()->visualRect(view.table()->model()->index(1, 0));
    // An item view reports a double-click on the item the press before it hit.
    QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, row1.center());
    QTest::mouseDClick(view.table()->viewport(), Qt::LeftButton, {}, row1.center());
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 1);
}

void TestSweepView::render()
{
    SweepView view;
    std::vector<SweepPlot::Point> points = latencySweep();
    points.push_back({50, {}, {}, {}, {}, {}});
    points.push_back({100, {}, {}, {}, QStringLiteral("replay did not finish: deadlock"), {}});
    for (SweepPlot::Point& p : points)
        if (p.runtimeNs) p.mpiNs = *p.runtimeNs * 0.3;
    view.plot()->setBaseline(1.5e9, 0.45e9);
    view.setSweep(QStringLiteral("Sweep of network latency (scenario: slow network)"),
                  QStringLiteral("Latency"), QStringLiteral("ms"), points);
    view.resize(900, 600);
    const QImage image = view.grab().toImage();
    QCOMPARE(image.size(), QSize(900, 600));
    const QString dir = qEnvironmentVariable("RANKSCOPE_SHOT_DIR");
    if (!dir.isEmpty()) {
        QVERIFY(image.save(dir + QStringLiteral("/sweep.png")));
        view.resize(1400, 800);
        QVERIFY(view.grab().toImage().save(dir + QStringLiteral("/sweep-large.png")));
        QImage plot(640, 360, QImage::Format_ARGB32);
        QPainter p(&plot);
        view.plot()->paintTo(p, plot.rect());
        p.end();
        QVERIFY(plot.save(dir + QStringLiteral("/sweep-plot-export.png")));
    }
}

QTEST_MAIN(TestSweepView)

#include "tst_sweepview.moc"
