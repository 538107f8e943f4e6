// WaitStateItemModel and RootCauseItemModel on the hand-built analysis of
// tst_waitstateitemmodel_fixture.h. Expected rows, by hand (rows in order of first occurrence;
// share = waiting / 2950):
//   row  pattern          call site            rank waiting     occ share  longest indirect
//   0    Late Sender      main>solve:MPI_Recv  0    300+500+500  3   44.1%  500     500/1300=38.5%
//   1    Wait at Barrier  main:MPI_Barrier     0    200          1    6.8%  200     0%
//   2    Late Sender      main>solve:MPI_Recv  1    500          1   16.9%  500     100%
//   3    Wait at Barrier  main:MPI_Barrier     1    600          1   20.3%  600     0%
//   4    Wait at Barrier  main:MPI_Barrier     2    300          1   10.2%  300     0%
//   5    Late Sender      main>halo:MPI_Recv   2    50           1    1.7%  50      0%
// (1300/2950 = 44.07%, 200/2950 = 6.78%, 500/2950 = 16.95%, 600/2950 = 20.34%,
//  300/2950 = 10.17%, 50/2950 = 1.69%.)

#include "tst_waitstateitemmodel_fixture.h"
#include "views/waits/rootcauseitemmodel.h"
#include "views/waits/waitstateitemmodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace rankscope;

namespace {

QStringList rowText(const QAbstractItemModel& m, int row)
{
    QStringList out;
    for (int c = 0; c < m.columnCount(); ++c)
        out << m.data(m.index(row, c)).toString();
    return out;
}

QList<qint64> columnValues(const QAbstractItemModel& m, int column, int role)
{
    QList<qint64> out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.data(m.index(r, column), role).toLongLong();
    return out;
}

} // namespace

class TestWaitStateItemModel : public QObject
{
    Q_OBJECT
private slots:
    void init() { f_ = waitfixture::make(); }

    void modelsAreConsistent()
    {
        WaitStateItemModel waits;
        QAbstractItemModelTester t1(&waits, QAbstractItemModelTester::FailureReportingMode::QtTest);
        waits.setAnalysis(f_.trace, f_.analysis);
        RootCauseItemModel byRank(RootCauseItemModel::Mode::FunctionRank);
        QAbstractItemModelTester t2(&byRank,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        byRank.setReport(f_.trace, f_.analysis, f_.report);
        RootCauseItemModel bySite(RootCauseItemModel::Mode::CallSite);
        QAbstractItemModelTester t3(&bySite,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        bySite.setReport(f_.trace, f_.analysis, f_.report);
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester t4(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&waits);
        proxy.setSortRole(WaitStateItemModel::SortRole);
        proxy.sort(WaitStateItemModel::WaitingColumn, Qt::DescendingOrder);
        waits.setAnalysis(nullptr, nullptr);
        byRank.setReport(nullptr, nullptr, nullptr);
        bySite.setReport(f_.trace, f_.analysis, nullptr);
        QCOMPARE(bySite.rowCount(), 0);
    }

    void waitRowsHoldHandComputedValues()
    {
        WaitStateItemModel m;
        m.setAnalysis(f_.trace, f_.analysis);
        QCOMPARE(m.rowCount(), 6);
        QCOMPARE(m.columnCount(), int(WaitStateItemModel::ColumnCount));
        using L = QStringList;
        QCOMPARE(rowText(m, 0), (L{"Late Sender", "main>solve:MPI_Recv", "0", "1.300 us", "3",
                                   "44.1%", "500 ns", "38.5%"}));
        QCOMPARE(rowText(m, 1), (L{"Wait at Barrier", "main:MPI_Barrier", "0", "200 ns", "1",
                                   "6.8%", "200 ns", "0.0%"}));
        QCOMPARE(rowText(m, 2), (L{"Late Sender", "main>solve:MPI_Recv", "1", "500 ns", "1",
                                   "16.9%", "500 ns", "100.0%"}));
        QCOMPARE(rowText(m, 3), (L{"Wait at Barrier", "main:MPI_Barrier", "1", "600 ns", "1",
                                   "20.3%", "600 ns", "0.0%"}));
        QCOMPARE(rowText(m, 4), (L{"Wait at Barrier", "main:MPI_Barrier", "2", "300 ns", "1",
                                   "10.2%", "300 ns", "0.0%"}));
        QCOMPARE(rowText(m, 5), (L{"Late Sender", "main>halo:MPI_Recv", "2", "50 ns", "1", "1.7%",
                                   "50 ns", "0.0%"}));
        // Raw values behind the text, and the row totals add up to the analysis' total.
        QCOMPARE(columnValues(m, WaitStateItemModel::WaitingColumn, WaitStateItemModel::SortRole),
                 (QList<qint64>{1300, 200, 500, 600, 300, 50}));
        QCOMPARE(1300 + 200 + 500 + 600 + 300 + 50, 2950);
        QCOMPARE(m.data(m.index(0, WaitStateItemModel::ShareColumn), WaitStateItemModel::SortRole)
                     .toDouble(),
                 100.0 * 1300 / 2950);
        QCOMPARE(m.data(m.index(3, 0), WaitStateItemModel::PatternRole).toInt(),
                 int(WaitPattern::WaitAtBarrier));
        QCOMPARE(m.data(m.index(3, 0), WaitStateItemModel::RankRole).toUInt(), 1u);
        QVERIFY(!m.data(m.index(0, 0), Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(m.data(m.index(0, WaitStateItemModel::CallSiteColumn), Qt::ToolTipRole).toString(),
                 QStringLiteral("main>solve:MPI_Recv"));
        QCOMPARE(m.data(m.index(0, WaitStateItemModel::IndirectShareColumn), Qt::ToolTipRole)
                     .toString()
                     .left(32),
                 QStringLiteral("direct 800 ns / indirect 500 ns "));
        QCOMPARE(m.callSiteName(5), QStringLiteral("main>halo:MPI_Recv"));
        // Wait 1 (500 ns) came in wrong order; row 0's pattern tooltip says so.
        QVERIFY(m.data(m.index(0, 0), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("; 500 ns of it in wrong order")));
        QVERIFY(!m.data(m.index(2, 0), Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("wrong order")));
    }

    void worstWaitTakesTheLongestEarliest()
    {
        WaitStateItemModel m;
        m.setAnalysis(f_.trace, f_.analysis);
        // Row 0 holds waits 0 (300), 1 (500 at 1000) and 2 (500 at 2000): the tie goes to 1.
        QCOMPARE(m.worstWait(0), 1);
        QCOMPARE(m.worstWait(1), 3);
        QCOMPARE(m.worstWait(2), 4);
        QCOMPARE(m.worstWait(3), 5);
        QCOMPARE(m.worstWait(4), 6);
        QCOMPARE(m.worstWait(5), 7);
        QCOMPARE(m.worstWait(6), -1);
        QCOMPARE(m.worstWait(-1), -1);
    }

    void sortsByNumericRole()
    {
        WaitStateItemModel m;
        m.setAnalysis(f_.trace, f_.analysis);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(WaitStateItemModel::SortRole);
        proxy.sort(WaitStateItemModel::WaitingColumn, Qt::DescendingOrder);
        // As text "600 ns" > "500 ns" > "50 ns" > ... > "1.300 us"; by value 1300 comes first.
        QCOMPARE(
            columnValues(proxy, WaitStateItemModel::WaitingColumn, WaitStateItemModel::SortRole),
            (QList<qint64>{1300, 600, 500, 300, 200, 50}));
        QCOMPARE(columnValues(proxy, WaitStateItemModel::RankColumn, WaitStateItemModel::SortRole),
                 (QList<qint64>{0, 1, 1, 2, 0, 2}));
        proxy.sort(WaitStateItemModel::ShareColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, WaitStateItemModel::ShareColumn)).toString(),
                 QStringLiteral("1.7%"));
    }

    void functionRankRows()
    {
        RootCauseItemModel m(RootCauseItemModel::Mode::FunctionRank);
        m.setReport(f_.trace, f_.analysis, f_.report);
        QCOMPARE(m.rowCount(), 3);
        // 900/2950 = 30.51%, 700/2950 = 23.73%, 300/2950 = 10.17%.
        QCOMPARE(rowText(m, 0), (QStringList{"compute", "1", "900 ns", "30.5%"}));
        QCOMPARE(rowText(m, 1), (QStringList{"solve", "3", "700 ns", "23.7%"}));
        QCOMPARE(rowText(m, 2), (QStringList{"compute", "2", "300 ns", "10.2%"}));
        QCOMPARE(m.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Function"));
        QCOMPARE(m.function(1), f_.solve);
        QCOMPARE(m.rank(1), RankId(3));
        // Caused by rank 1: waits 0 (300) and 1 (500) -> 1. By rank 3: 3 (200), 5 (600),
        // 6 (300) -> 5. By rank 2: 2 (500 at 2000) and 4 (500 at 500): equal, 4 began first.
        QCOMPARE(m.worstWait(0), 1);
        QCOMPARE(m.worstWait(1), 5);
        QCOMPARE(m.worstWait(2), 4);
        QCOMPARE(m.worstWait(3), -1);
    }

    void callSiteRows()
    {
        RootCauseItemModel m(RootCauseItemModel::Mode::CallSite);
        m.setReport(f_.trace, f_.analysis, f_.report);
        QCOMPARE(m.rowCount(), 4);
        // 250/1100 = 22.73%, 900/1800 = 50%, 700/1100 = 63.64%.
        QCOMPARE(rowText(m, 0), (QStringList{"main>halo:MPI_Recv", "compute", "50 ns", "100.0%"}));
        QCOMPARE(rowText(m, 1), (QStringList{"main:MPI_Barrier", "compute", "250 ns", "22.7%"}));
        QCOMPARE(rowText(m, 2), (QStringList{"main>solve:MPI_Recv", "compute", "900 ns", "50.0%"}));
        QCOMPARE(rowText(m, 3), (QStringList{"main:MPI_Barrier", "solve", "700 ns", "63.6%"}));
        QCOMPARE(m.headerData(3, Qt::Horizontal).toString(), QStringLiteral("Share at call site"));
        QCOMPARE(m.rank(0), RankId());
        // Longest at cs2: wait 7. At cs1: 5 (600). At cs0: waits 1, 2 and 4 are 500 long;
        // wait 4 began first (500 < 1000 < 2000).
        QCOMPARE(m.worstWait(0), 7);
        QCOMPARE(m.worstWait(1), 5);
        QCOMPARE(m.worstWait(2), 4);
        QCOMPARE(m.worstWait(3), 5);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(RootCauseItemModel::SortRole);
        proxy.sort(RootCauseItemModel::CallSiteCostColumn, Qt::DescendingOrder);
        QCOMPARE(columnValues(proxy, RootCauseItemModel::CallSiteCostColumn,
                              RootCauseItemModel::SortRole),
                 (QList<qint64>{900, 700, 250, 50}));
    }

    void statementsAreTheCostliestThree()
    {
        RootCauseItemModel m(RootCauseItemModel::Mode::FunctionRank);
        m.setReport(f_.trace, f_.analysis, f_.report);
        // By cost 900 (cs0 compute), 700 (cs1 solve), 250 (cs1 compute); 50 is left out.
        QCOMPARE(m.statements(),
                 (QStringList{
                     "Balancing compute would remove up to 50.0% of the waiting at "
                     "main>solve:MPI_Recv",
                     "Balancing solve would remove up to 63.6% of the waiting at main:MPI_Barrier",
                     "Balancing compute would remove up to 22.7% of the waiting at "
                     "main:MPI_Barrier"}));
        QCOMPARE(m.statements(1).size(), 1);
        m.setReport(nullptr, nullptr, nullptr);
        QVERIFY(m.statements().isEmpty());
    }

private:
    waitfixture::Fixture f_;
};

QTEST_MAIN(TestWaitStateItemModel)
#include "tst_waitstateitemmodel.moc"
