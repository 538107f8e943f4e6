// Clock correction by the controlled logical clock (model/matching/clockcorrection.h) on
// hand-built traces with known violations. Every expected timestamp below is worked out by hand
// from the rules stated in model/matching/clockcorrection.h (minimal latency 10 ns here), in the
// comments beside it; then the wait states of the corrected trace, `--correct-clocks` on the
// command line, and real Score-P traces whose violations it must remove.

#include "importers/otf2/otf2writer.h"
#include "model/matching/clockcorrection.h"
#include "model/waits/waitstates.h"
#include "testsupport/clirunner.h"
#include "testsupport/clockfixture.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

ClockCorrectionOptions options(double decay, bool amortize = true)
{
    ClockCorrectionOptions o;
    o.minLatencyNs = 10;
    o.decay = decay;
    o.amortize = amortize;
    return o;
}

} // namespace

class TestClockCorrection : public QObject
{
    Q_OBJECT

private slots:
    void forwardOnly()
    {
        Trace t = lateReceiveTrace();
        const ClockCorrection c = correctClocks(t, options(0.0, false));
        // Rank 1: the receive goes to send + latency = 110 + 10 = 120, a jump of 120 - 80 = 40
        // that every later event keeps (decay 0): Leave 90 -> 130, foo 200 -> 240, 300 -> 340,
        // main 1000 -> 1040. Nothing before the receive moves without amortisation.
        QCOMPARE(eventTimes(t, LocationId(1)),
                 (std::vector<int64_t>{0, 50, 120, 130, 240, 340, 1040}));
        QCOMPARE(eventTimes(t, LocationId(0)), (std::vector<int64_t>{0, 100, 110, 120, 1000}));
        QCOMPARE(c.before.messages, uint64_t(1));
        QCOMPARE(c.before.worstOffsetNs, int64_t(30));
        QCOMPARE(c.after.count(), uint64_t(0));
        QCOMPARE(c.eventsMoved, uint64_t(5));
        QCOMPARE(c.jumps, uint64_t(1));
        QCOMPARE(c.maxShiftNs, int64_t(40));
        QCOMPARE(c.meanShiftNs, 40.0);
        QCOMPARE(c.events, uint64_t(12));
        QCOMPARE(t.endTime(), int64_t(1040));
    }

    void amortisedBackward()
    {
        Trace t = lateReceiveTrace();
        const ClockCorrection c = correctClocks(t, options(0.0));
        // The jump of 40 at the receive (t = 80) ramps back to rank 1's first event (t = 0):
        // main's Enter at 0 moves 40 * 0 / 80 = 0, MPI_Recv's Enter at 50 moves
        // floor(40 * 50 / 80) = 25 -> 75. The rest as in forwardOnly.
        QCOMPARE(eventTimes(t, LocationId(1)),
                 (std::vector<int64_t>{0, 75, 120, 130, 240, 340, 1040}));
        // Moved: the Enter (25) and, as in forwardOnly, the five events from the receive on (40).
        QCOMPARE(c.eventsMoved, uint64_t(6));
        QCOMPARE(c.meanShiftNs, (25.0 + 5 * 40.0) / 6);
        // Still a late sender, as before the correction (the send's Enter at 100 is after the
        // receive's Enter), now waiting 100 - 75 = 25 instead of 50.
        const WaitStateAnalysis w = analyzeWaitStates(t);
        QCOMPARE(w.waits.size(), size_t(1));
        QCOMPARE(w.waits[0].pattern, WaitPattern::LateSender);
        QCOMPARE(w.waits[0].duration(), int64_t(25));
    }

    void decayFadesTheShift()
    {
        Trace t = lateReceiveTrace();
        correctClocks(t, options(0.1, false));
        // Each interval after the jump keeps 90% of its length while the clock is ahead:
        // Leave: 120 + 10 - 1 = 129; foo Enter: 129 + 110 - 11 = 228; foo Leave:
        // 228 + 100 - 10 = 318; main Leave: max(1000, 318 + 700 - 70 = 948) = 1000.
        QCOMPARE(eventTimes(t, LocationId(1)),
                 (std::vector<int64_t>{0, 50, 120, 129, 228, 318, 1000}));
    }

    void sendsCapTheAmortisation()
    {
        // Rank 1 first sends to rank 0 (sent 30, received 40: exactly the minimal latency, no
        // room), then receives at 80 what rank 0 sent at 110.
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId main = h.user("main");
        const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        h.enter(r0, 0, main);
        h.enter(r0, 20, recv);
        h.builder().recv(r0, 40, 1, world, 1, 8);
        h.leave(r0, 45, recv);
        h.enter(r0, 100, send);
        h.builder().send(r0, 110, 1, world, 2, 8);
        h.leave(r0, 120, send);
        h.leave(r0, 1000, main);
        h.enter(r1, 0, main);
        h.enter(r1, 25, send);
        h.builder().send(r1, 30, 0, world, 1, 8);
        h.leave(r1, 35, send);
        h.enter(r1, 50, recv);
        h.builder().recv(r1, 80, 0, world, 2, 8);
        h.leave(r1, 90, recv);
        h.leave(r1, 1000, main);
        Trace t = h.finish();
        const ClockCorrection c = correctClocks(t, options(0.0));
        // Forward: rank 1's receive 80 -> 120 (jump 40), Leave 130, main 1040. Ramp from 0 to
        // 80: 25 -> +12, 30 -> +15, 35 -> +17, 50 -> +25. The send at 30 has slack
        // 40 - 10 - 30 = 0, so it and everything before it stay: 0, 25, 30; then 35 + 17 = 52,
        // 50 + 25 = 75.
        QCOMPARE(eventTimes(t, r1), (std::vector<int64_t>{0, 25, 30, 52, 75, 120, 130, 1040}));
        QCOMPARE(eventTimes(t, r0), (std::vector<int64_t>{0, 20, 40, 45, 100, 110, 120, 1000}));
        QCOMPARE(c.after.count(), uint64_t(0));
        QCOMPARE(c.eventsMoved, uint64_t(5));
    }

    void collectiveEnds()
    {
        // A barrier that rank 1 leaves (end 80) before rank 0 enters it (begin 101).
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::Barrier);
        auto member = [&](LocationId l, int64_t b, int64_t e) {
            h.enter(l, b, barrier);
            h.builder().collectiveBegin(l, b + 1);
            h.builder().collectiveEnd(l, e, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
            h.leave(l, e + 1, barrier);
        };
        member(r0, 100, 150);
        member(r1, 20, 80);
        Trace t = h.finish();
        const ClockCorrection c = correctClocks(t, options(0.0));
        // Rank 1's end: max(80, rank 0's begin 101 + 10) = 111, a jump of 31, its Leave
        // 81 -> 112. The ramp from 20 to 80 moves the begin at 21 by floor(31 / 60) = 0.
        // Rank 0's end: 150 >= rank 1's begin 21 + 10 already.
        QCOMPARE(eventTimes(t, r1), (std::vector<int64_t>{20, 21, 111, 112}));
        QCOMPARE(eventTimes(t, r0), (std::vector<int64_t>{100, 101, 150, 151}));
        QCOMPARE(c.before.collectives, uint64_t(1));
        QCOMPARE(c.after.count(), uint64_t(0));
        QCOMPARE(c.jumps, uint64_t(1));
    }

    void consistentTraceStays()
    {
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        h.enter(r0, 10, send);
        h.builder().send(r0, 10, 1, world, 0, 8);
        h.leave(r0, 12, send);
        h.enter(r1, 5, recv);
        h.builder().recv(r1, 20, 0, world, 0, 8);
        h.leave(r1, 20, recv);
        Trace t = h.finish();
        const Trace before = t;
        const ClockCorrection c = correctClocks(t, options(0.01));
        QCOMPARE(c.eventsMoved, uint64_t(0));
        QVERIFY(t.sameContent(before));
    }

    void cliOption()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeOtf2(lateReceiveTrace(), dir.path().toStdString());
        const CliResult r = runCli({QStringLiteral("info"), dir.path(), QStringLiteral("--json"),
                                    QStringLiteral("--correct-clocks"),
                                    QStringLiteral("--min-latency"), QStringLiteral("10ns")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = jsonOf(r);
        QCOMPARE(j.value(QLatin1String("clock_violations"))
                     .toObject()
                     .value(QLatin1String("count"))
                     .toInteger(),
                 0);
        const QJsonObject c = j.value(QLatin1String("clock_correction")).toObject();
        QCOMPARE(c.value(QLatin1String("violations_before")).toInteger(), 1);
        QCOMPARE(c.value(QLatin1String("events_moved")).toInteger(), 6); // as amortisedBackward
        QCOMPARE(c.value(QLatin1String("max_shift_ns")).toInteger(), 40);
        for (const char* command : {"waitstates", "criticalpath", "commmatrix", "messages"}) {
            const CliResult other = runCli(
                {QString::fromLatin1(command), dir.path(), QStringLiteral("--correct-clocks")});
            QVERIFY2(other.exitCode == 0, other.err.constData());
            QVERIFY2(other.err.contains("clock correction"), other.err.constData());
        }
    }

    void realTraces_data()
    {
        QTest::addColumn<QString>("name");
        // The traces tst_clockviolations finds violations in (counts from otf2-print).
        QTest::newRow("mg-W-4") << QStringLiteral("scorep84-npb-mg-W-4");
        QTest::newRow("lu-S-16") << QStringLiteral("scorep84-npb-lu-S-16");
        QTest::newRow("cloverleaf-16") << QStringLiteral("scorep84-cloverleaf-16");
    }
    void realTraces()
    {
        QFETCH(QString, name);
        const QString anchor = traceAnchor(name);
        if (anchor.isEmpty()) QSKIP("trace not available");
        const CliResult r = runCli({QStringLiteral("info"), anchor, QStringLiteral("--json"),
                                    QStringLiteral("--correct-clocks")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = jsonOf(r);
        QCOMPARE(j.value(QLatin1String("clock_violations"))
                     .toObject()
                     .value(QLatin1String("count"))
                     .toInteger(),
                 0);
        const QJsonObject c = j.value(QLatin1String("clock_correction")).toObject();
        QVERIFY(c.value(QLatin1String("violations_before")).toInteger() > 0);
        QVERIFY(c.value(QLatin1String("events_moved")).toInteger() > 0);
        QCOMPARE(c.value(QLatin1String("unresolved")).toInteger(), 0);
    }
};

QTEST_GUILESS_MAIN(TestClockCorrection)
#include "tst_clockcorrection.moc"
