// WaitBarChart, WaitStatePanel and RootCausePanel (offscreen, fixed font) on the hand-built
// analysis of tst_waitstateitemmodel_fixture.h: per-rank sums, column aggregation (maximum) with
// more ranks than pixels, filtering by pattern, text and clicked bar, the waits requested on
// selection, and the no-waits placeholders.
// Set RANKSCOPE_WAITVIEWS_PNG_DIR to also render both panels on real traces to PNG files there.

#include "importers/otf2/otf2reader.h"
#include "model/profile/profile.h"
#include "testsupport/testpaths.h"
#include "tst_waitstateitemmodel_fixture.h"
#include "views/waits/rootcauseitemmodel.h"
#include "views/waits/rootcausepanel.h"
#include "views/waits/waitbarchart.h"
#include "views/waits/waitstateitemmodel.h"
#include "views/waits/waitstatepanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace rankscope;
using waitfixture::wait;

namespace {

const QString kNoWaits =
    QStringLiteral("No wait states found: no MPI call waited for another rank");

bool hasVisibleLabel(const QWidget& w, const QString& text)
{
    for (const QLabel* l : w.findChildren<QLabel*>())
        if (l->text() == text && l->isVisible()) return true;
    return false;
}

// Widget x in the middle of rank `r`'s bar when every rank has its own column.
int barX(const WaitBarChart& chart, int r)
{
    const QRect plot = chart.plotArea();
    return plot.left() + int((r + 0.5) * plot.width() / double(chart.rankCount()));
}

} // namespace

class TestWaitViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9)); }
    void init() { f_ = waitfixture::make(); }

    void chartSumsPerRankAndPattern()
    {
        WaitBarChart chart;
        chart.resize(480, 160);
        chart.setAnalysis(f_.trace, f_.analysis);
        QCOMPARE(chart.rankCount(), size_t(4));
        QCOMPARE(chart.totalNs(RankId(0)), 1500); // 300 + 500 + 500 + 200
        QCOMPARE(chart.waitingNs(RankId(0), WaitPattern::LateSender), 1300);
        QCOMPARE(chart.waitingNs(RankId(0), WaitPattern::WaitAtBarrier), 200);
        QCOMPARE(chart.totalNs(RankId(1)), 1100);
        QCOMPARE(chart.totalNs(RankId(2)), 350);
        QCOMPARE(chart.totalNs(RankId(3)), 0);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(chart.rankAt(barX(chart, r)), RankId(uint32_t(r)));
        QCOMPARE(chart.rankAt(chart.plotArea().left() - 2), RankId());
        const QString tip = chart.toolTipAt(QPoint(barX(chart, 1), chart.plotArea().center().y()));
        QCOMPARE(tip, QStringLiteral("Rank 1: 1.100 us waiting\n  Late Sender: 500 ns\n"
                                     "  Wait at Barrier: 600 ns\n"
                                     "Click to show only rank 1 in the table"));
        QSignalSpy clicked(&chart, &WaitBarChart::rankClicked);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(barX(chart, 2), 100));
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).value<RankId>(), RankId(2));
        QCOMPARE(chart.highlightedRank(), RankId(2));
        QTest::keyClick(&chart, Qt::Key_Right);
        QTest::keyClick(&chart, Qt::Key_Return);
        QCOMPARE(clicked.at(1).at(0).value<RankId>(), RankId(3));
        QVERIFY(!chart.grab().isNull());
    }

    void chartColumnShowsTheMaximumOfItsRanks()
    {
        WaitBarChart chart;
        chart.resize(400, 160);
        const int columns = chart.plotArea().width(); // the plot does not depend on the data
        // 4 ranks per pixel column: column c covers ranks 4c .. 4c+3.
        const int ranks = 4 * columns;
        auto trace = waitfixture::plainTrace(ranks);
        auto a = std::make_shared<WaitStateAnalysis>();
        a->callSites.intern("main:MPI_Recv");
        constexpr auto LS = WaitPattern::LateSender;
        constexpr auto WB = WaitPattern::WaitAtBarrier;
        // Column 2 (ranks 8-11): 10, 40 + 30 = 70, 30, 0 -> rank 9.
        // Column 3 (ranks 12-15): 40, 40 -> the lower rank, 12.
        a->waits = {wait(LS, 8, 0, 0, 10, 0, true),    wait(LS, 9, 0, 0, 40, 0, true),
                    wait(WB, 9, 0, 100, 130, 0, true), wait(LS, 10, 0, 0, 30, 0, true),
                    wait(LS, 12, 0, 0, 40, 0, true),   wait(LS, 13, 0, 0, 40, 0, true)};
        chart.setAnalysis(trace, a);
        const QRect plot = chart.plotArea();
        RankId first, last;
        QVERIFY(chart.ranksAt(plot.left() + 2, &first, &last));
        QCOMPARE(first, RankId(8));
        QCOMPARE(last, RankId(11));
        QCOMPARE(chart.rankAt(plot.left() + 2), RankId(9));
        QCOMPARE(chart.rankAt(plot.left() + 3), RankId(12));
        QCOMPARE(chart.rankAt(plot.left()), RankId(0)); // column 0: all zero -> its first rank
        QVERIFY(chart.ranksAt(plot.right(), &first, &last));
        QCOMPARE(last, RankId(uint32_t(ranks - 1)));
        QCOMPARE(chart.toolTipAt(QPoint(plot.left() + 2, plot.center().y())),
                 QStringLiteral("Ranks 8-11: max 70 ns waiting (rank 9)\n  Late Sender: 40 ns\n"
                                "  Wait at Barrier: 30 ns\nClick to show only rank 9 in the "
                                "table"));
        QSignalSpy clicked(&chart, &WaitBarChart::rankClicked);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(plot.left() + 2, plot.bottom() - 1));
        QCOMPARE(clicked.at(0).at(0).value<RankId>(), RankId(9));
        QVERIFY(!chart.grab().isNull());
    }

    void chartTakesAHundredThousandRanks()
    {
        WaitBarChart chart;
        chart.resize(480, 160);
        auto trace = waitfixture::plainTrace(100000);
        auto a = std::make_shared<WaitStateAnalysis>();
        a->callSites.intern("main:MPI_Barrier");
        a->waits = {wait(WaitPattern::WaitAtBarrier, 99999, 0, 0, 5000, 0, true)};
        chart.setAnalysis(trace, a);
        const QRect plot = chart.plotArea();
        QCOMPARE(chart.rankAt(plot.right()), RankId(99999));
        QVERIFY(chart.toolTipAt(QPoint(plot.right(), plot.center().y()))
                    .contains(QStringLiteral("max 5.000 us waiting (rank 99999)")));
        QVERIFY(!chart.grab().isNull());
    }

    void panelSummaryAndDefaultOrder()
    {
        WaitStatePanel panel;
        panel.setAnalysis(f_.trace, f_.analysis);
        QCOMPARE(panel.summaryText(),
                 QStringLiteral("Waiting 2.950 us · direct 1.950 us · indirect 1.000 us · "
                                "wrong order 500 ns"));
        // 2950 of 10000 ns MPI time = 29.5%.
        panel.setMpiTimeNs(10000);
        QCOMPARE(panel.summaryText(),
                 QStringLiteral("Waiting 2.950 us = 29.5% of MPI time · direct 1.950 us · "
                                "indirect 1.000 us · wrong order 500 ns"));
        QVERIFY(!panel.showsPlaceholder());
        const QAbstractItemModel* p = panel.proxy();
        QCOMPARE(p->rowCount(), 6);
        QCOMPARE(p->data(p->index(0, WaitStateItemModel::WaitingColumn)).toString(),
                 QStringLiteral("1.300 us"));
        QCOMPARE(p->data(p->index(5, WaitStateItemModel::WaitingColumn)).toString(),
                 QStringLiteral("50 ns"));
        // "All patterns" plus the two patterns present.
        QCOMPARE(panel.patternFilter()->count(), 3);
        QCOMPARE(panel.patternFilter()->itemText(2), QStringLiteral("Wait at Barrier"));
    }

    void panelFiltersByPatternAndText()
    {
        WaitStatePanel panel;
        panel.setAnalysis(f_.trace, f_.analysis);
        QSortFilterProxyModel* p = panel.proxy();
        QComboBox* patterns = panel.patternFilter();
        patterns->setCurrentIndex(patterns->findData(int(WaitPattern::WaitAtBarrier)));
        QCOMPARE(p->rowCount(), 3); // rows 1, 3, 4
        QCOMPARE(
            p->data(p->index(0, WaitStateItemModel::WaitingColumn), WaitStateItemModel::SortRole)
                .toLongLong(),
            600);
        patterns->setCurrentIndex(patterns->findData(int(WaitPattern::LateSender)));
        QCOMPARE(p->rowCount(), 3); // rows 0, 2, 5
        QTest::keyClicks(panel.textFilter(), QStringLiteral("RANK 1"));
        QCOMPARE(p->rowCount(), 1); // Late Sender of rank 1: row 2
        QCOMPARE(p->data(p->index(0, WaitStateItemModel::RankColumn)).toString(),
                 QStringLiteral("1"));
        patterns->setCurrentIndex(0);
        QCOMPARE(p->rowCount(), 2); // rank 1: rows 2 and 3
        panel.textFilter()->setText(QStringLiteral("halo"));
        QCOMPARE(p->rowCount(), 1);
        QCOMPARE(p->data(p->index(0, WaitStateItemModel::CallSiteColumn)).toString(),
                 QStringLiteral("main>halo:MPI_Recv"));
        panel.textFilter()->setText(QStringLiteral("solve"));
        QCOMPARE(p->rowCount(), 2); // rows 0 and 2
        panel.clearFilters();
        QCOMPARE(p->rowCount(), 6);
    }

    void barClickFiltersToTheRankAndEscResets()
    {
        WaitStatePanel panel;
        panel.resize(1000, 300);
        panel.setAnalysis(f_.trace, f_.analysis);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        WaitBarChart* chart = panel.chart();
        QTest::mouseClick(chart, Qt::LeftButton, {},
                          QPoint(barX(*chart, 1), chart->plotArea().bottom() - 1));
        QCOMPARE(panel.rankFilter(), RankId(1));
        QCOMPARE(panel.proxy()->rowCount(), 2); // rows 2 and 3
        QCOMPARE(chart->highlightedRank(), RankId(1));
        QTest::keyClick(panel.table(), Qt::Key_Escape);
        QCOMPARE(panel.rankFilter(), RankId());
        QCOMPARE(panel.proxy()->rowCount(), 6);
        panel.textFilter()->setText(QStringLiteral("halo"));
        QTest::keyClick(panel.textFilter(), Qt::Key_Escape);
        QCOMPARE(panel.proxy()->rowCount(), 6);
        QVERIFY(panel.textFilter()->text().isEmpty());
        // Ctrl+F from the table goes to the text filter.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        panel.table()->setFocus();
        QTest::keyClick(panel.table(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(panel.textFilter()->hasFocus());
    }

    void rowSelectionRequestsTheWorstWait()
    {
        WaitStatePanel panel;
        panel.setAnalysis(f_.trace, f_.analysis);
        QSignalSpy requested(&panel, &WaitStatePanel::waitRequested);
        // Sorted by waiting: row 0 is (Late Sender, solve, rank 0), worst wait 1.
        panel.table()->selectRow(0);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).value<WaitState>(), f_.analysis->waits[1]);
        // Row 2 is (Late Sender, solve, rank 1): its only wait, 4.
        panel.table()->selectRow(2);
        QCOMPARE(requested.count(), 2);
        QCOMPARE(requested.at(1).at(0).value<WaitState>(), f_.analysis->waits[4]);
        QCOMPARE(panel.chart()->highlightedRank(), RankId(1));
        // Barrier rows only: the first is rank 1's 600 ns, wait 5.
        QComboBox* patterns = panel.patternFilter();
        patterns->setCurrentIndex(patterns->findData(int(WaitPattern::WaitAtBarrier)));
        panel.table()->clearSelection();
        panel.table()->selectRow(0);
        QCOMPARE(requested.last().at(0).value<WaitState>(), f_.analysis->waits[5]);
    }

    void rootCausePanelStatementsAndSelection()
    {
        RootCausePanel panel;
        panel.setReport(f_.trace, f_.analysis, f_.report);
        QVERIFY(!panel.showsPlaceholder());
        // 1900 of 2950 explained = 64.4%.
        QCOMPARE(panel.statementsText(),
                 QStringLiteral("• Balancing compute would remove up to 50.0% of the waiting at "
                                "main>solve:MPI_Recv\n"
                                "• Balancing solve would remove up to 63.6% of the waiting at "
                                "main:MPI_Barrier\n"
                                "• Balancing compute would remove up to 22.7% of the waiting at "
                                "main:MPI_Barrier\n"
                                "Hotspots explain 1.900 us of 2.950 us waiting (64.4%)"));
        QSignalSpy waits(&panel, &RootCausePanel::waitRequested);
        QSignalSpy causes(&panel, &RootCausePanel::causeRequested);
        // Sorted by cost: compute on rank 1 (900) first; its longest caused wait is 1.
        panel.functionRankTable()->selectRow(0);
        QCOMPARE(waits.count(), 1);
        QCOMPARE(waits.at(0).at(0).value<WaitState>(), f_.analysis->waits[1]);
        QCOMPARE(causes.count(), 1);
        QCOMPARE(causes.at(0).at(0).value<RegionId>(), f_.compute);
        QCOMPARE(causes.at(0).at(1).value<RankId>(), RankId(1));
        QCOMPARE(causes.at(0).at(2).value<WaitState>(), f_.analysis->waits[1]);
        // Sorted by cost: main>solve:MPI_Recv / compute (900) first; longest there is wait 4.
        panel.tabs()->setCurrentIndex(1);
        panel.callSiteTable()->selectRow(0);
        QCOMPARE(waits.count(), 2);
        QCOMPARE(waits.at(1).at(0).value<WaitState>(), f_.analysis->waits[4]);
        QCOMPARE(causes.count(), 1);
    }

    void placeholdersWithoutWaits()
    {
        WaitStatePanel waits;
        waits.resize(600, 300);
        waits.setAnalysis(f_.trace, waitfixture::empty(4));
        RootCausePanel causes;
        causes.resize(600, 300);
        causes.setReport(f_.trace, waitfixture::empty(4), std::make_shared<RootCauseReport>());
        waits.show();
        causes.show();
        QVERIFY(QTest::qWaitForWindowExposed(&causes));
        QVERIFY(waits.showsPlaceholder());
        QVERIFY(causes.showsPlaceholder());
        QVERIFY(hasVisibleLabel(waits, kNoWaits));
        QVERIFY(hasVisibleLabel(causes, kNoWaits));
        QVERIFY(!waits.table()->isVisible());
        waits.setAnalysis(f_.trace, f_.analysis);
        QVERIFY(!waits.showsPlaceholder());
        QVERIFY(waits.table()->isVisible());
    }

    void renderRealTraces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("late sender") << QStringLiteral("casita-mpi-late-sender-barrier-4r");
        QTest::newRow("mg 32") << QStringLiteral("scorep84-npb-mg-W-32");
        QTest::newRow("stencil 64") << QStringLiteral("tracer-stencil4d-64r");
    }
    // Not a check: renders the panels for a person to look at.
    void renderRealTraces()
    {
        QFETCH(QString, name);
        const QString out = qEnvironmentVariable("RANKSCOPE_WAITVIEWS_PNG_DIR");
        if (out.isEmpty()) QSKIP("set RANKSCOPE_WAITVIEWS_PNG_DIR to render PNG files");
        const QString anchor = test::sharedTraceAnchor(name);
        if (anchor.isEmpty()) QSKIP("shared trace missing");
        auto trace = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        auto analysis = std::make_shared<const WaitStateAnalysis>(analyzeWaitStates(*trace));
        auto report = std::make_shared<const RootCauseReport>(analyzeRootCauses(*trace, *analysis));
        const Profile profile = computeProfile(*trace);
        int64_t mpi = 0;
        for (const RankProfile& r : profile.ranks)
            mpi += r.mpiTime;
        WaitStatePanel waits;
        waits.resize(1200, 400);
        waits.setAnalysis(trace, analysis);
        waits.setMpiTimeNs(mpi);
        RootCausePanel causes;
        causes.resize(1200, 400);
        causes.setReport(trace, analysis, report);
        waits.show();
        causes.show();
        QVERIFY(QTest::qWaitForWindowExposed(&causes));
        QVERIFY(waits.grab().save(QDir(out).filePath(name + QStringLiteral("-waits.png"))));
        QVERIFY(causes.grab().save(QDir(out).filePath(name + QStringLiteral("-causes.png"))));
    }

private:
    waitfixture::Fixture f_;
};

QTEST_MAIN(TestWaitViews)
#include "tst_waitstateitemmodel_views.moc"
