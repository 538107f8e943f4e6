// ProfileItemModel on a hand-built two-rank trace. Expected numbers by hand from the timeline:
//   rank 0: main [0,100] { compute [10,40], MPI_Send [50,70] }
//   rank 1: main [0,120] { compute [10,90], MPI_Send [95,100] }
// main:     calls 2, inclusive 100+120 = 220, exclusive (100-30-20) + (120-80-5) = 50 + 35 = 85,
//           per rank min 35 mean 42.5 max 50
// compute:  calls 2, inclusive = exclusive = 30 + 80 = 110, per rank 30 / 55 / 80
// MPI_Send: calls 2, inclusive = exclusive = 20 + 5 = 25, per rank 5 / 12.5 / 20
// A region that is defined but never entered has no row.

#include "model/profile/profile.h"
#include "testsupport/handtrace.h"
#include "views/panes/durationformat.h"
#include "views/panes/profileitemmodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace rankscope;

class TestProfileItemModel : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void modelIsConsistent();
    void rowsHoldHandComputedValues();
    void sortsByRawValues();
    void formatsDurations();
    void clears();

private:
    QStringList column(const QAbstractItemModel& m, int c, int role = Qt::DisplayRole) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const Profile> profile_;
};

void TestProfileItemModel::init()
{
    test::HandTrace h;
    const LocationId r0 = h.addRank();
    const LocationId r1 = h.addRank();
    h.addWorld();
    const RegionId main = h.user("main");
    const RegionId compute = h.user("compute");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    h.user("unused");
    h.enter(r0, 0, main);
    h.call(r0, compute, 10, 40);
    h.call(r0, send, 50, 70);
    h.leave(r0, 100, main);
    h.enter(r1, 0, main);
    h.call(r1, compute, 10, 90);
    h.call(r1, send, 95, 100);
    h.leave(r1, 120, main);
    auto trace = std::make_shared<Trace>(h.finish());
    profile_ = std::make_shared<Profile>(computeProfile(*trace));
    trace_ = trace;
}

QStringList TestProfileItemModel::column(const QAbstractItemModel& m, int c, int role) const
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.data(m.index(r, c), role).toString();
    return out;
}

void TestProfileItemModel::modelIsConsistent()
{
    ProfileItemModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProfile(trace_, profile_);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(ProfileItemModel::SortRole);
    proxy.sort(ProfileItemModel::ExclusiveColumn, Qt::DescendingOrder);
    model.setProfile(trace_, profile_); // a reset while sorted
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(ProfileItemModel::ColumnCount));
}

void TestProfileItemModel::rowsHoldHandComputedValues()
{
    ProfileItemModel model;
    model.setProfile(trace_, profile_);
    QCOMPARE(model.rowCount(), 3);
    int mainRow = -1;
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.data(model.index(r, ProfileItemModel::RegionColumn)).toString() == "main")
            mainRow = r;
    QVERIFY(mainRow >= 0);
    const auto raw = [&](int c) {
        return model.data(model.index(mainRow, c), ProfileItemModel::SortRole);
    };
    QCOMPARE(raw(ProfileItemModel::CallsColumn).toULongLong(), 2u);
    QCOMPARE(raw(ProfileItemModel::InclusiveColumn).toLongLong(), 220);
    QCOMPARE(raw(ProfileItemModel::ExclusiveColumn).toLongLong(), 85);
    QCOMPARE(raw(ProfileItemModel::ExclusiveMinColumn).toLongLong(), 35);
    QCOMPARE(raw(ProfileItemModel::ExclusiveMeanColumn).toDouble(), 42.5);
    QCOMPARE(raw(ProfileItemModel::ExclusiveMaxColumn).toLongLong(), 50);
    const auto text = [&](int c) { return model.data(model.index(mainRow, c)).toString(); };
    QCOMPARE(text(ProfileItemModel::RoleColumn), QStringLiteral("function"));
    QCOMPARE(text(ProfileItemModel::CallsColumn), QStringLiteral("2"));
    QCOMPARE(text(ProfileItemModel::InclusiveColumn), QStringLiteral("220 ns"));
    QCOMPARE(text(ProfileItemModel::ExclusiveColumn), QStringLiteral("85 ns"));
    QCOMPARE(text(ProfileItemModel::ExclusiveMeanColumn), QStringLiteral("43 ns")); // 42.5 rounded
    QCOMPARE(model.data(model.index(mainRow, ProfileItemModel::InclusiveColumn), Qt::ToolTipRole)
                 .toString(),
             QStringLiteral("220 ns"));
    QCOMPARE(model.headerData(ProfileItemModel::ExclusiveColumn, Qt::Horizontal).toString(),
             QStringLiteral("Exclusive"));
}

void TestProfileItemModel::sortsByRawValues()
{
    ProfileItemModel model;
    model.setProfile(trace_, profile_);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ProfileItemModel::SortRole);

    // As text "85 ns" > "25 ns" > "110 ns"; by value 110 > 85 > 25.
    proxy.sort(ProfileItemModel::ExclusiveColumn, Qt::DescendingOrder);
    QCOMPARE(column(proxy, ProfileItemModel::RegionColumn),
             QStringList({"compute", "main", "MPI_Send"}));
    QCOMPARE(column(proxy, ProfileItemModel::ExclusiveColumn),
             QStringList({"110 ns", "85 ns", "25 ns"}));

    proxy.sort(ProfileItemModel::ExclusiveMinColumn, Qt::AscendingOrder); // 5, 30, 35
    QCOMPARE(column(proxy, ProfileItemModel::RegionColumn),
             QStringList({"MPI_Send", "compute", "main"}));

    proxy.sort(ProfileItemModel::InclusiveColumn, Qt::DescendingOrder); // 220, 110, 25
    QCOMPARE(column(proxy, ProfileItemModel::RegionColumn),
             QStringList({"main", "compute", "MPI_Send"}));
    QCOMPARE(column(proxy, ProfileItemModel::RoleColumn),
             QStringList({"function", "function", "MPI point-to-point"}));
}

void TestProfileItemModel::formatsDurations()
{
    QCOMPARE(formatDuration(850), QStringLiteral("850 ns"));
    QCOMPARE(formatDuration(21303), QStringLiteral("21.30 us"));
    QCOMPARE(formatDuration(1'500'000), QStringLiteral("1.500 ms"));
    QCOMPARE(formatDuration(20'085'424'627), QStringLiteral("20.09 s"));
    QCOMPARE(formatDuration(-2'500), QStringLiteral("-2.500 us"));
    QCOMPARE(formatTimestamp(10'096'500'085), QStringLiteral("10.096500085 s"));
    QCOMPARE(formatTimestamp(-5), QStringLiteral("-0.000000005 s"));
    QCOMPARE(formatCount(1'234'567), QStringLiteral("1,234,567"));
    QCOMPARE(formatBytes(65536), QStringLiteral("64.00 KiB"));
}

void TestProfileItemModel::clears()
{
    ProfileItemModel model;
    model.setProfile(trace_, profile_);
    model.setProfile(nullptr, nullptr);
    QCOMPARE(model.rowCount(), 0);
}

QTEST_MAIN(TestProfileItemModel)
#include "tst_profileitemmodel.moc"
