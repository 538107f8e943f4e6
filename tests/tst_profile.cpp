// Flat profile (ALGORITHMS.md §1): inclusive/exclusive time, calls, MPI time, spread over ranks.
// Every expected number is worked out in the comments next to the timelines.

#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "testsupport/handtrace.h"

#include <QTest>
#include <algorithm>
#include <functional>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace rankscope {
// Readable QCOMPARE failures (found by argument-dependent lookup).
char* toString(const RegionTimes& t)
{
    return qstrdup(QStringLiteral("{calls %1 inclusive %2 exclusive %3}")
                       .arg(t.calls)
                       .arg(t.inclusive)
                       .arg(t.exclusive)
                       .toUtf8()
                       .constData());
}
char* toString(const RankSpread& s)
{
    return qstrdup(QStringLiteral("{min %1 mean %2 max %3}")
                       .arg(s.min)
                       .arg(s.mean)
                       .arg(s.max)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

using Scenario = std::function<void(HandTrace&, LocationId)>;

RegionId regionNamed(const Trace& trace, std::string_view name)
{
    for (uint32_t i = 0; i < trace.regions().size(); ++i) {
        if (trace.regionName(RegionId(i)) == name) return RegionId(i);
    }
    return {};
}

/// "name=calls/inclusive/exclusive" for every entered region of one rank, sorted by name.
QStringList rows(const Trace& trace, const RankProfile& p)
{
    QStringList out;
    for (uint32_t i = 0; i < p.regions.size(); ++i) {
        const RegionTimes& t = p.regions[i];
        if (t.calls > 0)
            out << QStringLiteral("%1=%2/%3/%4")
                       .arg(QString::fromUtf8(trace.regionName(RegionId(i))))
                       .arg(t.calls)
                       .arg(t.inclusive)
                       .arg(t.exclusive);
    }
    out.sort();
    return out;
}

// Four ranks; on rank r: main[0,100] > compute[0, 40+10r], MPI_Barrier[40+10r, 100];
// rank 3 also: compute > io[60,70]. A region "unused" is defined but never entered.
//            rank:   0    1    2    3
// compute inclusive  40   50   60   70   -> total 220, min 40, mean 55, max 70
// compute exclusive  40   50   60   60   -> total 210, min 40, mean 52.5, max 60 (rank 3: 70-10)
// MPI_Barrier        60   50   40   30   -> total 180, min 30, mean 45, max 60 (= MPI time)
// io                  0    0    0   10   -> total 10, min 0, mean 2.5, max 10; calls mean 0.25
// main incl/excl    100/0 on every rank  -> inclusive total 400, exclusive 0
Trace balanceTrace()
{
    HandTrace h;
    std::vector<LocationId> locs;
    for (int r = 0; r < 4; ++r)
        locs.push_back(h.addRank());
    h.addWorld();
    const RegionId main = h.user("main");
    const RegionId compute = h.user("compute");
    const RegionId io = h.user("io");
    h.user("unused");
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::Barrier);
    for (int r = 0; r < 4; ++r) {
        const LocationId l = locs[r];
        const int64_t split = 40 + 10 * r;
        h.enter(l, 0, main);
        h.enter(l, 0, compute);
        if (r == 3) h.call(l, io, 60, 70);
        h.leave(l, split, compute);
        h.call(l, barrier, split, 100);
        h.leave(l, 100, main);
    }
    return h.finish();
}

} // namespace

Q_DECLARE_METATYPE(Scenario)

class TestProfile : public QObject
{
    Q_OBJECT

private slots:
    void nestingAndMpiTime()
    {
        // main[0,100] > a[10,50] > b[20,30]; main > MPI_Send[60,70] > MPI_Isend[62,64]
        HandTrace h;
        const LocationId l = h.addRank();
        h.addWorld();
        const RegionId main = h.user("main");
        const RegionId a = h.user("a");
        const RegionId b = h.user("b");
        const RegionId send = h.mpi("MPI_Send");
        const RegionId isend = h.mpi("MPI_Isend");
        h.enter(l, 0, main);
        h.enter(l, 10, a);
        h.call(l, b, 20, 30);
        h.leave(l, 50, a);
        h.enter(l, 60, send);
        h.call(l, isend, 62, 64);
        h.leave(l, 70, send);
        h.leave(l, 100, main);
        const Trace trace = h.finish();

        const RankProfile p = computeRankProfile(trace, RankId(0));
        QCOMPARE(p.regions.size(), size_t(5));
        QCOMPARE(p.regions[main.value], (RegionTimes{1, 100, 50})); // 100 - 40 (a) - 10 (Send)
        QCOMPARE(p.regions[a.value], (RegionTimes{1, 40, 30}));     // 40 - 10 (b)
        QCOMPARE(p.regions[b.value], (RegionTimes{1, 10, 10}));
        QCOMPARE(p.regions[send.value], (RegionTimes{1, 10, 8})); // 10 - 2 (Isend)
        QCOMPARE(p.regions[isend.value], (RegionTimes{1, 2, 2}));
        QCOMPARE(p.mpiTime, int64_t(10)); // the outermost MPI call only
        QCOMPARE(p.mpiCalls, uint64_t(1));
        QCOMPARE(p.unclosedRegions, uint64_t(0));
        QVERIFY(!p.cancelled);
    }

    void regionTimes_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QStringList>("expected"); // name=calls/inclusive/exclusive, by name
        QTest::addColumn<qint64>("mpiTime");
        QTest::addColumn<qint64>("unclosed");

        QTest::newRow("direct recursion") << Scenario([](HandTrace& h, LocationId l) {
            // f[0,100] > f[10,60] > f[20,30]: exclusive (100-50) + (50-10) + 10 = 100;
            // inclusive counts only the outermost instance: 100, not 100+50+10.
            const RegionId f = h.user("f");
            h.enter(l, 0, f);
            h.enter(l, 10, f);
            h.call(l, f, 20, 30);
            h.leave(l, 60, f);
            h.leave(l, 100, f);
        }) << QStringList{"f=3/100/100"} << qint64(0)
                                          << qint64(0);

        QTest::newRow("recursion through another region")
            << Scenario([](HandTrace& h, LocationId l) {
                   // main[0,100] > f[0,80] > g[10,70] > f[20,50]
                   // main: 100 - 80 = 20; f: (80-60) + 30 = 50, inclusive 80; g: 60 - 30 = 30
                   const RegionId f = h.user("f");
                   const RegionId g = h.user("g");
                   h.enter(l, 0, h.user("main"));
                   h.enter(l, 0, f);
                   h.enter(l, 10, g);
                   h.call(l, f, 20, 50);
                   h.leave(l, 70, g);
                   h.leave(l, 80, f);
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"f=2/80/50", "g=1/60/30", "main=1/100/20"} << qint64(0) << qint64(0);

        QTest::newRow("recursive siblings") << Scenario([](HandTrace& h, LocationId l) {
            // f[0,100] > f[10,30], f[40,60]: exclusive (100-20-20) + 20 + 20 = 100
            const RegionId f = h.user("f");
            h.enter(l, 0, f);
            h.call(l, f, 10, 30);
            h.call(l, f, 40, 60);
            h.leave(l, 100, f);
        }) << QStringList{"f=3/100/100"} << qint64(0)
                                            << qint64(0);

        QTest::newRow("repeated calls") << Scenario([](HandTrace& h, LocationId l) {
            // main[0,100] > a[10,20], a[30,50]: a 2 calls, 10 + 20 = 30; main 100 - 30 = 70
            h.enter(l, 0, h.user("main"));
            h.call(l, h.user("a"), 10, 20);
            h.call(l, h.user("a"), 30, 50);
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"a=2/30/30", "main=1/100/70"}
                                        << qint64(0) << qint64(0);

        QTest::newRow("unclosed regions at the trace end")
            << Scenario([](HandTrace& h, LocationId l) {
                   // main[0,...) > MPI_Recv[50,...) > MPI_Test[60,70]; the last timestamp is 70.
                   // main 70 - 20 = 50; MPI_Recv 20 - 10 = 10, MPI time 20; two unclosed
                   h.enter(l, 0, h.user("main"));
                   h.enter(l, 50, h.mpi("MPI_Recv"));
                   h.call(l, h.mpi("MPI_Test"), 60, 70);
               })
            << QStringList{"MPI_Recv=1/20/10", "MPI_Test=1/10/10", "main=1/70/50"} << qint64(20)
            << qint64(2);

        QTest::newRow("broken nesting") << Scenario([](HandTrace& h, LocationId l) {
            // main[0,50] > a[10,...): main's Leave at 50 closes a too: a 40, main 50 - 40 = 10.
            // A Leave of a region that is not open (MPI_Recv at 55) is ignored.
            h.enter(l, 0, h.user("main"));
            h.enter(l, 10, h.user("a"));
            h.leave(l, 50, h.user("main"));
            h.leave(l, 55, h.mpi("MPI_Recv"));
        }) << QStringList{"a=1/40/40", "main=1/50/10"}
                                        << qint64(0) << qint64(0);

        QTest::newRow("rank without MPI calls") << Scenario([](HandTrace& h, LocationId l) {
            h.enter(l, 0, h.user("main"));
            h.call(l, h.user("compute"), 10, 90);
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"compute=1/80/80", "main=1/100/20"}
                                                << qint64(0) << qint64(0);

        QTest::newRow("rank without events")
            << Scenario([](HandTrace&, LocationId) {}) << QStringList{} << qint64(0) << qint64(0);
    }

    void regionTimes()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QStringList, expected);
        QFETCH(qint64, mpiTime);
        QFETCH(qint64, unclosed);
        HandTrace h;
        const LocationId loc = h.addRank();
        h.addWorld();
        scenario(h, loc);
        const Trace trace = h.finish();
        const RankProfile p = computeRankProfile(trace, RankId(0));
        QCOMPARE(rows(trace, p), expected);
        QCOMPARE(p.mpiTime, mpiTime);
        QCOMPARE(qint64(p.unclosedRegions), unclosed);
    }

    void spreadOverRanks()
    {
        const Trace trace = balanceTrace();
        const Profile profile = computeProfile(trace);
        QVERIFY(!profile.cancelled);
        QCOMPARE(profile.ranks.size(), size_t(4));

        const RegionSummary& compute = profile.regions[regionNamed(trace, "compute").value];
        QCOMPARE(compute.region, regionNamed(trace, "compute"));
        QCOMPARE(compute.calls, uint64_t(4));
        QCOMPARE(compute.inclusive, int64_t(220));
        QCOMPARE(compute.exclusive, int64_t(210));
        QCOMPARE(compute.callsPerRank, (RankSpread{1, 1.0, 1}));
        QCOMPARE(compute.inclusivePerRank, (RankSpread{40, 55.0, 70}));
        QCOMPARE(compute.exclusivePerRank, (RankSpread{40, 52.5, 60}));

        const RegionSummary& barrier = profile.regions[regionNamed(trace, "MPI_Barrier").value];
        QCOMPARE(barrier.calls, uint64_t(4));
        QCOMPARE(barrier.exclusive, int64_t(180));
        QCOMPARE(barrier.inclusivePerRank, (RankSpread{30, 45.0, 60}));
        QCOMPARE(barrier.exclusivePerRank, (RankSpread{30, 45.0, 60}));

        // A region only one rank enters: the other ranks count as 0.
        const RegionSummary& io = profile.regions[regionNamed(trace, "io").value];
        QCOMPARE(io.calls, uint64_t(1));
        QCOMPARE(io.callsPerRank, (RankSpread{0, 0.25, 1}));
        QCOMPARE(io.exclusivePerRank, (RankSpread{0, 2.5, 10}));

        const RegionSummary& main = profile.regions[regionNamed(trace, "main").value];
        QCOMPARE(main.inclusive, int64_t(400));
        QCOMPARE(main.exclusive, int64_t(0));
        QCOMPARE(main.inclusivePerRank, (RankSpread{100, 100.0, 100}));

        const RegionSummary& unused = profile.regions[regionNamed(trace, "unused").value];
        QCOMPARE(unused.calls, uint64_t(0));
        QCOMPARE(unused.inclusivePerRank, (RankSpread{0, 0.0, 0}));

        QCOMPARE(profile.mpiTimePerRank, (RankSpread{30, 45.0, 60}));
        QCOMPARE(profile.ranks[3].mpiTime, int64_t(30));
        QCOMPARE(profile.ranks[3].regions[regionNamed(trace, "compute").value],
                 (RegionTimes{1, 70, 60}));
    }

    void regionsSortedByExclusiveTime()
    {
        const Trace trace = balanceTrace();
        const Profile profile = computeProfile(trace);
        // compute 210, MPI_Barrier 180, io 10, main 0; "unused" was never entered.
        QCOMPARE(regionNamesByExclusiveTime(trace, profile),
                 (std::vector<std::string_view>{"compute", "MPI_Barrier", "io", "main"}));

        // Equal exclusive times: by name.
        HandTrace h;
        const LocationId l = h.addRank();
        h.call(l, h.user("zeta"), 0, 10);
        h.call(l, h.user("alpha"), 10, 20);
        const Trace tied = h.finish();
        QCOMPARE(regionNamesByExclusiveTime(tied, computeProfile(tied)),
                 (std::vector<std::string_view>{"alpha", "zeta"}));
    }

    void mergeDoesNotDependOnRankOrder()
    {
        const Trace trace = balanceTrace();
        std::vector<RankProfile> ranks;
        for (uint32_t r = 4; r-- > 0;)
            ranks.push_back(computeRankProfile(trace, RankId(r)));
        QVERIFY(mergeRankProfiles(trace, ranks) == computeProfile(trace));
    }

    void progressAndCancel()
    {
        const Trace trace = balanceTrace();
        std::vector<double> seen;
        const Profile profile = computeProfile(trace, [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(!profile.cancelled);
        QVERIFY(!seen.empty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);

        int calls = 0;
        const Profile stopped = computeProfile(trace, [&](double) {
            ++calls;
            return false;
        });
        QVERIFY(stopped.cancelled);
        QCOMPARE(calls, 1);
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
