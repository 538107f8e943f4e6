// Critical path (model/waits/criticalpath.h) on hand-built traces whose path is worked out by hand
// from the timestamps written in each test (ns), and `rankscope-cli criticalpath` on a real
// Score-P trace against figures read with otf2-print.

#include "importers/otf2/otf2reader.h"
#include "model/waits/criticalpath.h"
#include "model/waits/waitstates.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

/// Ranks with a user region "work" and blocking point-to-point calls.
struct Chain
{
    HandTrace h;
    std::vector<LocationId> loc;
    CommId world;
    RegionId main = h.user("main"), work = h.user("work");
    RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    RegionId barrier = h.mpi("MPI_Barrier", RegionRole::MpiCollective);

    explicit Chain(int n)
    {
        for (int i = 0; i < n; ++i)
            loc.push_back(h.addRank());
        world = h.addWorld();
    }
    void sendTo(int r, int64_t b, int64_t e, uint32_t to)
    {
        h.enter(loc[r], b, send);
        h.builder().send(loc[r], b, to, world, 0, 8);
        h.leave(loc[r], e, send);
    }
    void recvFrom(int r, int64_t b, int64_t e, uint32_t from)
    {
        h.enter(loc[r], b, recv);
        h.builder().recv(loc[r], e, from, world, 0, 8);
        h.leave(loc[r], e, recv);
    }
    void barrierAt(int r, int64_t b, int64_t e)
    {
        h.enter(loc[r], b, barrier);
        h.builder().collectiveBegin(loc[r], b);
        h.builder().collectiveEnd(loc[r], e, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
        h.leave(loc[r], e, barrier);
    }
};

const CriticalFunction* functionOf(const CriticalPath& p, RegionId region)
{
    for (const CriticalFunction& f : p.byFunction)
        if (f.region == region) return &f;
    return nullptr;
}

} // namespace

class TestCriticalPath : public QObject
{
    Q_OBJECT

private slots:
    void lateSenderChain()
    {
        // Rank 0 works until 100 and sends to rank 1, which has waited in MPI_Recv since 10;
        // rank 1 then works until 200 and sends to rank 2, waiting in MPI_Recv since 20; rank 2
        // works until 300, the end of the run. Each rank's work decides the next one's start.
        Chain c(3);
        c.h.enter(c.loc[0], 0, c.main);
        c.h.call(c.loc[0], c.work, 0, 100);
        c.sendTo(0, 100, 110, 1);
        c.h.leave(c.loc[0], 120, c.main);

        c.h.enter(c.loc[1], 0, c.main);
        c.h.call(c.loc[1], c.work, 0, 10);
        c.recvFrom(1, 10, 115, 0);
        c.h.call(c.loc[1], c.work, 115, 200);
        c.sendTo(1, 200, 210, 2);
        c.h.leave(c.loc[1], 220, c.main);

        c.h.enter(c.loc[2], 0, c.main);
        c.h.call(c.loc[2], c.work, 0, 20);
        c.recvFrom(2, 20, 215, 1);
        c.h.call(c.loc[2], c.work, 215, 300);
        c.h.leave(c.loc[2], 300, c.main);
        const Trace trace = c.h.finish();

        const CriticalPath p = computeCriticalPath(trace, analyzeWaitStates(trace));
        // Backwards from rank 2 at 300: its wait (Late Sender on 1) ends at 200, so [200, 300]
        // is rank 2's; at 200 rank 1 entered MPI_Send; its wait on rank 0 ended at 100, so
        // [100, 200] is rank 1's; rank 0 never waited: [0, 100] is its own.
        const std::vector<CriticalSegment> expected = {
            {RankId(0), 0, 100, c.work},   {RankId(1), 100, 115, c.recv},
            {RankId(1), 115, 200, c.work}, {RankId(2), 200, 215, c.recv},
            {RankId(2), 215, 300, c.work},
        };
        QCOMPARE(p.segments, expected);
        QCOMPARE(p.lengthNs, int64_t(300));
        QCOMPARE(p.byRank, (std::vector<int64_t>{100, 100, 100}));
        QVERIFY(!p.cancelled);

        // Profile: work 100 + 85 + 85 = 270 on the path; exclusive work per rank 100, 10 + 85,
        // 20 + 85, mean 100, so the imbalance is 170. MPI_Recv: 15 + 15 on the path; per rank
        // 0, 105, 195, mean 100: no imbalance.
        QCOMPARE(p.byFunction.size(), size_t(2));
        QCOMPARE(p.byFunction[0], (CriticalFunction{c.work, 270, 100.0, 170}));
        QCOMPARE(p.byFunction[1], (CriticalFunction{c.recv, 30, 100.0, 0}));
        QVERIFY(!functionOf(p, c.send));
        QVERIFY(!functionOf(p, c.main));
    }

    void barrierJumpsToLastArrival()
    {
        // Rank 1 enters the barrier at 30, rank 0 (the last) at 50; both leave at 60. Rank 1
        // then works until 150, the end of the run.
        Chain c(2);
        c.h.call(c.loc[0], c.work, 0, 50);
        c.barrierAt(0, 50, 60);
        c.h.call(c.loc[0], c.work, 60, 100);
        c.h.call(c.loc[1], c.work, 0, 30);
        c.barrierAt(1, 30, 60);
        c.h.call(c.loc[1], c.work, 60, 150);
        const Trace trace = c.h.finish();

        const CriticalPath p = computeCriticalPath(trace, analyzeWaitStates(trace));
        // Rank 1 waited in the barrier [30, 50) for rank 0: [50, 150] is rank 1's, [0, 50]
        // rank 0's.
        const std::vector<CriticalSegment> expected = {
            {RankId(0), 0, 50, c.work},
            {RankId(1), 50, 60, c.barrier},
            {RankId(1), 60, 150, c.work},
        };
        QCOMPARE(p.segments, expected);
        QCOMPARE(p.lengthNs, int64_t(150));
        // work on the path 50 + 90 = 140; per rank 90 and 120, mean 105: imbalance 35.
        QCOMPARE(p.byFunction[0], (CriticalFunction{c.work, 140, 105.0, 35}));
        // MPI_Barrier: 10 on the path; per rank 10 and 30, mean 20: no imbalance.
        QCOMPARE(p.byFunction[1], (CriticalFunction{c.barrier, 10, 20.0, 0}));
    }

    void noWaitsStaysOnTheLastRank()
    {
        // Rank 0 sends late enough that rank 1's receive never waits: the path is rank 1's
        // whole run, [0, 80], although rank 0 ran longer in the middle.
        Chain c(2);
        c.h.call(c.loc[0], c.work, 0, 10);
        c.sendTo(0, 10, 12, 1);
        c.h.call(c.loc[0], c.work, 12, 60);
        c.h.call(c.loc[1], c.work, 0, 30);
        c.recvFrom(1, 30, 35, 0);
        c.h.call(c.loc[1], c.work, 35, 80);
        const Trace trace = c.h.finish();
        const CriticalPath p = computeCriticalPath(trace, analyzeWaitStates(trace));
        const std::vector<CriticalSegment> expected = {
            {RankId(1), 0, 30, c.work},
            {RankId(1), 30, 35, c.recv},
            {RankId(1), 35, 80, c.work},
        };
        QCOMPARE(p.segments, expected);
        QCOMPARE(p.lengthNs, int64_t(80));
    }

    void emptyTrace()
    {
        HandTrace h;
        h.addRank();
        const Trace trace = h.finish();
        const CriticalPath p = computeCriticalPath(trace, analyzeWaitStates(trace));
        QCOMPARE(p.lengthNs, int64_t(0));
        QVERIFY(p.segments.empty());
    }

    void cliOnRealTrace();
};

void TestCriticalPath::cliOnRealTrace()
{
    const QString anchor = traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    if (anchor.isEmpty()) QSKIP("casita-mpi-late-sender-barrier-4r is not available");
    const CliResult r = runCli({QStringLiteral("criticalpath"), anchor, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject j = jsonOf(r);
    const QJsonArray segments = j.value(QLatin1String("segments")).toArray();
    QVERIFY(!segments.isEmpty());
    // The segments are contiguous and add up to the length.
    qint64 sum = 0;
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QJsonObject s = segments[i].toObject();
        const qint64 b = s.value(QLatin1String("begin_ns")).toInteger();
        const qint64 e = s.value(QLatin1String("end_ns")).toInteger();
        QVERIFY(b < e);
        if (i > 0)
            QCOMPARE(b, segments[i - 1].toObject().value(QLatin1String("end_ns")).toInteger());
        sum += e - b;
    }
    QCOMPARE(j.value(QLatin1String("length_ns")).toInteger(), sum);
    // From otf2-print (timestamps minus the global offset 106106710787758): location 1 ends
    // last, at 106126796221779; its only waits are a Late Sender on rank 0 and the final
    // MPI_Barrier, entered last by rank 0 at 106126796092142, where rank 1 starts the path.
    // Rank 0 never waits, so the path runs on it from its first event, 106106757389565.
    QCOMPARE(j.value(QLatin1String("length_ns")).toInteger(), Q_INT64_C(20038832214));
    const QJsonObject first = segments.first().toObject();
    QCOMPARE(first.value(QLatin1String("rank")).toInteger(), 0);
    QCOMPARE(first.value(QLatin1String("begin_ns")).toInteger(), Q_INT64_C(46601807));
    QCOMPARE(segments.last().toObject().value(QLatin1String("end_ns")).toInteger(),
             Q_INT64_C(20085434021));
    qsizetype jump = 0;
    while (segments[jump].toObject().value(QLatin1String("rank")).toInteger() == 0)
        ++jump;
    const QJsonObject atJump = segments[jump].toObject();
    QCOMPARE(atJump.value(QLatin1String("rank")).toInteger(), 1);
    QCOMPARE(atJump.value(QLatin1String("begin_ns")).toInteger(), Q_INT64_C(20085304384));
    QCOMPARE(atJump.value(QLatin1String("region")).toString(), QStringLiteral("MPI_Barrier"));
    for (qsizetype i = jump; i < segments.size(); ++i)
        QCOMPARE(segments[i].toObject().value(QLatin1String("rank")).toInteger(), 1);
    // foo: on the path, rank 0's two instances, 10096352410 + 9849039767 ns; exclusive per
    // rank (summed from otf2-print's ENTER/LEAVE) 19945392177, 3085483999, 3096272326 and
    // 2224193516, mean 7087835504.5; imbalance 12857556672.5.
    const QJsonObject top = j.value(QLatin1String("by_function")).toArray().first().toObject();
    QCOMPARE(top.value(QLatin1String("region")).toString(), QStringLiteral("foo"));
    QCOMPARE(top.value(QLatin1String("path_ns")).toInteger(), Q_INT64_C(19945392177));
    QCOMPARE(top.value(QLatin1String("mean_per_rank_ns")).toDouble(), 7087835504.5);
    QVERIFY(qAbs(top.value(QLatin1String("imbalance_ns")).toInteger() - Q_INT64_C(12857556672)) <=
            1);
}

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
