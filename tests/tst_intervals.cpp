// Delta times, execution intervals and per-rank delta sums (ALGORITHMS.md §1) on hand-built
// traces. Every expected number is worked out in the comments next to the timelines.

#include "model/deltas/intervals.h"
#include "model/trace/trace.h"
#include "testsupport/handtrace.h"

#include <QTest>
#include <functional>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace rankscope {
// Readable QCOMPARE failures (found by argument-dependent lookup).
char* toString(const DeltaStats& s)
{
    return qstrdup(QStringLiteral("{occurrences %1 total %2 min %3 max %4}")
                       .arg(s.occurrences)
                       .arg(s.total)
                       .arg(s.min)
                       .arg(s.max)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

using Scenario = std::function<void(HandTrace&, LocationId)>;

// Three ranks; main[0,200] on each.
// rank 0: Init[0,10] Send[20,25] Recv[40,50] Send[60,62] Recv[70,80] Send[100,101] Recv[111,120]
//         Finalize[150,200]
//   deltas: Init-Send 20-10=10, Send-Recv 40-25=15, Recv-Send 60-50=10, Send-Recv 70-62=8,
//           Recv-Send 100-80=20, Send-Recv 111-101=10, Recv-Finalize 150-120=30
//   S(0) = 10+15+10+8+20+10+30 = 103
// rank 1: Init[0,20] Recv[30,45] Send[47,50] Recv[90,95] Send[100,105] Finalize[125,200]
//   deltas: Init-Recv 30-20=10, Recv-Send 47-45=2, Send-Recv 90-50=40, Recv-Send 100-95=5,
//           Send-Finalize 125-105=20
//   S(1) = 10+2+40+5+20 = 77
// rank 2: main > compute[10,190], no MPI call: S(2) = 0
Trace loopTrace()
{
    HandTrace h;
    const LocationId r0 = h.addRank();
    const LocationId r1 = h.addRank();
    const LocationId r2 = h.addRank();
    h.addWorld();
    const RegionId main = h.user("main");
    const RegionId init = h.mpi("MPI_Init");
    const RegionId send = h.mpi("MPI_Send");
    const RegionId recv = h.mpi("MPI_Recv");
    const RegionId fin = h.mpi("MPI_Finalize");

    h.enter(r0, 0, main);
    h.call(r0, init, 0, 10);
    h.call(r0, send, 20, 25);
    h.call(r0, recv, 40, 50);
    h.call(r0, send, 60, 62);
    h.call(r0, recv, 70, 80);
    h.call(r0, send, 100, 101);
    h.call(r0, recv, 111, 120);
    h.call(r0, fin, 150, 200);
    h.leave(r0, 200, main);

    h.enter(r1, 0, main);
    h.call(r1, init, 0, 20);
    h.call(r1, recv, 30, 45);
    h.call(r1, send, 47, 50);
    h.call(r1, recv, 90, 95);
    h.call(r1, send, 100, 105);
    h.call(r1, fin, 125, 200);
    h.leave(r1, 200, main);

    h.enter(r2, 0, main);
    h.call(r2, h.user("compute"), 10, 190);
    h.leave(r2, 200, main);
    return h.finish();
}

DeltaStats stats(uint64_t occurrences, int64_t total, int64_t min, int64_t max)
{
    return DeltaStats{occurrences, total, min, max};
}

QStringList summary(const IntervalTable& table)
{
    QStringList rows;
    for (const ExecutionInterval& i : table.intervals)
        rows << QStringLiteral("%1=%2/%3")
                    .arg(QString::fromStdString(table.name(i)))
                    .arg(i.stats.occurrences)
                    .arg(i.stats.total);
    return rows;
}

} // namespace

Q_DECLARE_METATYPE(Scenario)

class TestIntervals : public QObject
{
    Q_OBJECT

private slots:
    void intervalTable()
    {
        const IntervalTable table = computeIntervals(loopTrace());
        QVERIFY(!table.cancelled);
        // Sorted by (earlier call site, later call site) names.
        QCOMPARE(summary(table), (QStringList{
                                     "main:MPI_Init - main:MPI_Recv=1/10",
                                     "main:MPI_Init - main:MPI_Send=1/10",
                                     "main:MPI_Recv - main:MPI_Finalize=1/30",
                                     "main:MPI_Recv - main:MPI_Send=4/37",
                                     "main:MPI_Send - main:MPI_Finalize=1/20",
                                     "main:MPI_Send - main:MPI_Recv=4/73",
                                 }));
        QCOMPARE(table.rankDeltaSums, (std::vector<int64_t>{103, 77, 0}));
        QCOMPARE(table.maxRankDeltaSum(), int64_t(103));
        QCOMPARE(table.maxRankDeltaSumRank(), RankId(0));
    }

    void intervalStatistics_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<DeltaStats>("expected");
        QTest::addColumn<double>("mean");
        QTest::addColumn<QString>("perRank"); // rank:occurrences/total/min/max, ...

        // rank 0: 15, 8, 10; rank 1: 40 -> 4 occurrences, 73 total, 8 min, 40 max, 73/4 mean
        QTest::newRow("Send - Recv")
            << "main:MPI_Send"
            << "main:MPI_Recv" << stats(4, 73, 8, 40) << 18.25 << "0:3/33/8/15,1:1/40/40/40";
        // rank 0: 10, 20; rank 1: 2, 5 -> 4 occurrences, 37 total, mean 9.25
        QTest::newRow("Recv - Send")
            << "main:MPI_Recv"
            << "main:MPI_Send" << stats(4, 37, 2, 20) << 9.25 << "0:2/30/10/20,1:2/7/2/5";
        QTest::newRow("Init - Send")
            << "main:MPI_Init"
            << "main:MPI_Send" << stats(1, 10, 10, 10) << 10.0 << "0:1/10/10/10";
        QTest::newRow("Init - Recv")
            << "main:MPI_Init"
            << "main:MPI_Recv" << stats(1, 10, 10, 10) << 10.0 << "1:1/10/10/10";
        QTest::newRow("Recv - Finalize")
            << "main:MPI_Recv"
            << "main:MPI_Finalize" << stats(1, 30, 30, 30) << 30.0 << "0:1/30/30/30";
        QTest::newRow("Send - Finalize")
            << "main:MPI_Send"
            << "main:MPI_Finalize" << stats(1, 20, 20, 20) << 20.0 << "1:1/20/20/20";
    }

    void intervalStatistics()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(DeltaStats, expected);
        QFETCH(double, mean);
        QFETCH(QString, perRank);

        const IntervalTable table = computeIntervals(loopTrace());
        const ExecutionInterval* interval = table.find(from.toStdString(), to.toStdString());
        QVERIFY(interval);
        QCOMPARE(interval->stats, expected);
        QCOMPARE(interval->stats.mean(), mean);
        QStringList ranks;
        for (const IntervalRankStats& r : interval->perRank)
            ranks << QStringLiteral("%1:%2/%3/%4/%5")
                         .arg(r.rank.value)
                         .arg(r.stats.occurrences)
                         .arg(r.stats.total)
                         .arg(r.stats.min)
                         .arg(r.stats.max);
        QCOMPARE(ranks.join(','), perRank);
        QCOMPARE(QString::fromStdString(table.name(*interval)), from + " - " + to);
    }

    void span_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QStringList>("expected"); // "interval=occurrences/total", sorted
        QTest::addColumn<qint64>("deltaSum");

        QTest::newRow("calls before MPI_Init and after MPI_Finalize do not count")
            << Scenario([](HandTrace& h, LocationId l) {
                   // main > MPI_Initialized[0,2] MPI_Init[5,10] MPI_Barrier[20,30]
                   //        MPI_Finalize[50,55] MPI_Finalized[60,61]
                   // deltas: Init-Barrier 20-10=10, Barrier-Finalize 50-30=20; S = 30
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Initialized"), 0, 2);
                   h.call(l, h.mpi("MPI_Init"), 5, 10);
                   h.call(l, h.mpi("MPI_Barrier"), 20, 30);
                   h.call(l, h.mpi("MPI_Finalize"), 50, 55);
                   h.call(l, h.mpi("MPI_Finalized"), 60, 61);
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Finalize=1/20",
                           "main:MPI_Init - main:MPI_Barrier=1/10"}
            << qint64(30);

        QTest::newRow("MPI_Init_thread starts the span")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Init_thread[0,10] Barrier[25,30] Finalize[40,50]: 25-10=15, 40-30=10; S = 25
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init_thread"), 0, 10);
                   h.call(l, h.mpi("MPI_Barrier"), 25, 30);
                   h.call(l, h.mpi("MPI_Finalize"), 40, 50);
                   h.leave(l, 50, h.user("main"));
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Finalize=1/10",
                           "main:MPI_Init_thread - main:MPI_Barrier=1/15"}
            << qint64(25);

        QTest::newRow("no MPI_Init: start at the first call")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Barrier[10,20] Barrier[30,35] Finalize[50,60]: 30-20=10, 50-35=15; S = 25
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Barrier"), 10, 20);
                   h.call(l, h.mpi("MPI_Barrier"), 30, 35);
                   h.call(l, h.mpi("MPI_Finalize"), 50, 60);
                   h.leave(l, 60, h.user("main"));
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Barrier=1/10",
                           "main:MPI_Barrier - main:MPI_Finalize=1/15"}
            << qint64(25);

        QTest::newRow("rank without MPI_Init while the trace defines it")
            << Scenario([](HandTrace& h, LocationId l) {
                   // MPI_Init is defined but never called here: start at the first call.
                   // Barrier[10,20] Barrier[30,40]: 30-20=10; S = 10
                   h.mpi("MPI_Init");
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Barrier"), 10, 20);
                   h.call(l, h.mpi("MPI_Barrier"), 30, 40);
                   h.leave(l, 50, h.user("main"));
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Barrier=1/10"} << qint64(10);

        QTest::newRow("no MPI_Finalize: end at the last call")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Init[0,10] Barrier[20,30] Barrier[45,50], main until 100: 20-10=10, 45-30=15;
                   // the 50 ns after the last call do not count. S = 25
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init"), 0, 10);
                   h.call(l, h.mpi("MPI_Barrier"), 20, 30);
                   h.call(l, h.mpi("MPI_Barrier"), 45, 50);
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Barrier=1/15",
                           "main:MPI_Init - main:MPI_Barrier=1/10"}
            << qint64(25);

        QTest::newRow("call paths tell intervals apart")
            << Scenario([](HandTrace& h, LocationId l) {
                   // main > Init[0,10]; a[10,40] > Send[20,30]; b[40,80] > Send[50,60];
                   // Finalize[90,100] deltas: 20-10=10, 50-30=20, 90-60=30; S = 60
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init"), 0, 10);
                   h.enter(l, 10, h.user("a"));
                   h.call(l, h.mpi("MPI_Send"), 20, 30);
                   h.leave(l, 40, h.user("a"));
                   h.enter(l, 40, h.user("b"));
                   h.call(l, h.mpi("MPI_Send"), 50, 60);
                   h.leave(l, 80, h.user("b"));
                   h.call(l, h.mpi("MPI_Finalize"), 90, 100);
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"main:MPI_Init - main>a:MPI_Send=1/10",
                           "main>a:MPI_Send - main>b:MPI_Send=1/20",
                           "main>b:MPI_Send - main:MPI_Finalize=1/30"}
            << qint64(60);

        QTest::newRow("source locations name call sites")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Init[0,10] Send[20,30]@a.c:7 Send[45,50]@a.c:9 Finalize[60,70]
                   // deltas: 20-10=10, 45-30=15, 60-50=10; S = 35
                   TraceBuilder& b = h.builder();
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init"), 0, 10);
                   h.enter(l, 20, h.mpi("MPI_Send"));
                   b.attachSourceLocation(l, SourceLocation{b.intern("a.c"), 7});
                   h.leave(l, 30, h.mpi("MPI_Send"));
                   h.enter(l, 45, h.mpi("MPI_Send"));
                   b.attachSourceLocation(l, SourceLocation{b.intern("a.c"), 9});
                   h.leave(l, 50, h.mpi("MPI_Send"));
                   h.call(l, h.mpi("MPI_Finalize"), 60, 70);
                   h.leave(l, 70, h.user("main"));
               })
            << QStringList{"a.c:7:MPI_Send - a.c:9:MPI_Send=1/15",
                           "a.c:9:MPI_Send - main:MPI_Finalize=1/10",
                           "main:MPI_Init - a.c:7:MPI_Send=1/10"}
            << qint64(35);

        QTest::newRow("only outermost MPI calls")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Init[0,10] Allreduce[20,40] > Isend[25,26]; Finalize[50,60]
                   // deltas: 20-10=10, 50-40=10 (none to or from the nested Isend); S = 20
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init"), 0, 10);
                   h.enter(l, 20, h.mpi("MPI_Allreduce"));
                   h.call(l, h.mpi("MPI_Isend"), 25, 26);
                   h.leave(l, 40, h.mpi("MPI_Allreduce"));
                   h.call(l, h.mpi("MPI_Finalize"), 50, 60);
                   h.leave(l, 60, h.user("main"));
               })
            << QStringList{"main:MPI_Allreduce - main:MPI_Finalize=1/10",
                           "main:MPI_Init - main:MPI_Allreduce=1/10"}
            << qint64(20);

        QTest::newRow("unclosed call at the trace end")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Init[0,10] Barrier[20,30] Recv[40,...) > Test[60,70], trace ends at 70
                   // deltas: 20-10=10, 40-30=10; S = 20
                   h.enter(l, 0, h.user("main"));
                   h.call(l, h.mpi("MPI_Init"), 0, 10);
                   h.call(l, h.mpi("MPI_Barrier"), 20, 30);
                   h.enter(l, 40, h.mpi("MPI_Recv"));
                   h.call(l, h.mpi("MPI_Test"), 60, 70);
               })
            << QStringList{"main:MPI_Barrier - main:MPI_Recv=1/10",
                           "main:MPI_Init - main:MPI_Barrier=1/10"}
            << qint64(20);

        QTest::newRow("rank without MPI calls") << Scenario([](HandTrace& h, LocationId l) {
            h.enter(l, 0, h.user("main"));
            h.call(l, h.user("compute"), 10, 90);
            h.leave(l, 100, h.user("main"));
        }) << QStringList{} << qint64(0);

        QTest::newRow("rank without events")
            << Scenario([](HandTrace&, LocationId) {}) << QStringList{} << qint64(0);
    }

    void span()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QStringList, expected);
        QFETCH(qint64, deltaSum);
        HandTrace h;
        const LocationId loc = h.addRank();
        h.addWorld();
        scenario(h, loc);
        const IntervalTable table = computeIntervals(h.finish());
        QCOMPARE(summary(table), expected);
        QCOMPARE(table.rankDeltaSums, std::vector<int64_t>{deltaSum});
        QCOMPARE(table.maxRankDeltaSum(), deltaSum);
    }

    void oneRank()
    {
        const Trace trace = loopTrace();
        const RankIntervals r1 = computeRankIntervals(trace, RankId(1));
        // Rank 1 sees Init, Recv, Send, Finalize in that order; intervals in order of first
        // occurrence (see loopTrace for the deltas).
        RankIntervals expected;
        expected.rank = RankId(1);
        for (const char* site :
             {"main:MPI_Init", "main:MPI_Recv", "main:MPI_Send", "main:MPI_Finalize"})
            expected.callSites.intern(site);
        const CallSiteId init(0), recv(1), send(2), fin(3);
        expected.intervals = {{init, recv, stats(1, 10, 10, 10)},
                              {recv, send, stats(2, 7, 2, 5)},
                              {send, recv, stats(1, 40, 40, 40)},
                              {send, fin, stats(1, 20, 20, 20)}};
        expected.deltaSum = 77;
        QVERIFY(r1 == expected);
    }

    void mergeDoesNotDependOnRankOrder()
    {
        const Trace trace = loopTrace();
        const std::vector<RankIntervals> reversed = {computeRankIntervals(trace, RankId(2)),
                                                     computeRankIntervals(trace, RankId(1)),
                                                     computeRankIntervals(trace, RankId(0))};
        const IntervalTable merged = mergeRankIntervals(3, reversed);
        QVERIFY(merged == computeIntervals(trace));
        QCOMPARE(merged.rankDeltaSums, (std::vector<int64_t>{103, 77, 0}));
    }

    void progressAndCancel()
    {
        const Trace trace = loopTrace();
        std::vector<double> seen;
        const IntervalTable table = computeIntervals(trace, [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(!table.cancelled);
        QVERIFY(!seen.empty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QVERIFY(seen.front() >= 0.0);
        QCOMPARE(seen.back(), 1.0);

        int calls = 0;
        const IntervalTable stopped = computeIntervals(trace, [&](double) {
            ++calls;
            return false;
        });
        QVERIFY(stopped.cancelled);
        QCOMPARE(calls, 1); // no report after the cancel
    }
};

QTEST_GUILESS_MAIN(TestIntervals)
#include "tst_intervals.moc"
