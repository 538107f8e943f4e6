// Clock condition violations (model/matching/clockviolations.h) on a hand-built trace whose
// offsets are worked out from the timestamps written below (ns), the same trace through
// `rankscope-cli info --json` (written as OTF2), and real Score-P traces against counts taken
// from otf2-print.

#include "importers/otf2/otf2writer.h"
#include "model/matching/clockviolations.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

void collective(HandTrace& h, LocationId loc, RegionId f, int64_t b, int64_t e, CollectiveOp op,
                CommId comm, uint32_t root)
{
    h.enter(loc, b, f);
    h.builder().collectiveBegin(loc, b);
    h.builder().collectiveEnd(loc, e, op, comm, root, 8, 8);
    h.leave(loc, e, f);
}

/// Two ranks whose clocks disagree: one message received 10 ns before it was sent, a barrier
/// that rank 1 leaves 30 ns before rank 0 enters it, a broadcast that rank 1 finishes 10 ns
/// before the root starts it, a reduce whose root finishes 10 ns before rank 0 starts it, and a
/// broadcast whose root finishes before rank 1 starts (allowed: the root waits for nobody).
Trace skewedTrace()
{
    HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::Barrier);
    const RegionId bcast = h.mpi("MPI_Bcast", RegionRole::MpiCollective);
    const RegionId reduce = h.mpi("MPI_Reduce", RegionRole::MpiCollective);

    h.enter(r0, 100, send);
    h.builder().send(r0, 100, 1, world, 0, 8);
    h.leave(r0, 110, send);
    h.enter(r1, 50, recv);
    h.builder().recv(r1, 90, 0, world, 0, 8);
    h.leave(r1, 90, recv);

    collective(h, r0, barrier, 200, 260, CollectiveOp::Barrier, world, kNoRoot);
    collective(h, r1, barrier, 150, 170, CollectiveOp::Barrier, world, kNoRoot);
    collective(h, r0, bcast, 300, 310, CollectiveOp::Bcast, world, 0);
    collective(h, r1, bcast, 280, 290, CollectiveOp::Bcast, world, 0);
    collective(h, r0, bcast, 400, 405, CollectiveOp::Bcast, world, 0);
    collective(h, r1, bcast, 410, 420, CollectiveOp::Bcast, world, 0);
    collective(h, r0, reduce, 520, 530, CollectiveOp::Reduce, world, 1);
    collective(h, r1, reduce, 500, 510, CollectiveOp::Reduce, world, 1);
    return h.finish();
}

} // namespace

class TestClockViolations : public QObject
{
    Q_OBJECT

private slots:
    void handBuilt()
    {
        const ClockViolations v = findClockViolations(skewedTrace());
        QCOMPARE(v, (ClockViolations{1, 3, 30}));
        QCOMPARE(v.count(), uint64_t(4));
    }

    void consistentTraceHasNone()
    {
        // Receive after send, a barrier everyone is inside at once.
        HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::Barrier);
        h.enter(r0, 10, send);
        h.builder().send(r0, 10, 1, world, 0, 8);
        h.leave(r0, 12, send);
        h.enter(r1, 5, recv);
        h.builder().recv(r1, 20, 0, world, 0, 8);
        h.leave(r1, 20, recv);
        collective(h, r0, barrier, 30, 40, CollectiveOp::Barrier, world, kNoRoot);
        collective(h, r1, barrier, 25, 30, CollectiveOp::Barrier, world, kNoRoot);
        QCOMPARE(findClockViolations(h.finish()), ClockViolations());
    }

    void infoReportsThem()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeOtf2(skewedTrace(), dir.path().toStdString());
        const CliResult r = runCli({QStringLiteral("info"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject c = jsonOf(r).value(QLatin1String("clock_violations")).toObject();
        QCOMPARE(c.value(QLatin1String("count")).toInteger(), 4);
        QCOMPARE(c.value(QLatin1String("messages")).toInteger(), 1);
        QCOMPARE(c.value(QLatin1String("collectives")).toInteger(), 3);
        QCOMPARE(c.value(QLatin1String("worst_offset_ns")).toInteger(), 30);
        const CliResult text = runCli({QStringLiteral("info"), dir.path()});
        QVERIFY2(text.out.contains("4 violations"), text.out.constData());
    }

    void realTraces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("messages");
        QTest::addColumn<qint64>("collectives");
        QTest::addColumn<qint64>("worst");
        // Counted from otf2-print's event listing alone (scripts/otf2-clock-check.py: messages
        // matched in order per sender, receiver, communicator and tag; the k-th collective of
        // each location on a communicator), worst offsets in ticks converted to ns. The
        // oversubscribed Score-P 8.4 runs have skewed clocks; the CASITA test trace has none.
        QTest::newRow("late-sender") << QStringLiteral("casita-mpi-late-sender-barrier-4r")
                                     << qint64(0) << qint64(0) << qint64(0);
        // 658 ticks at 2300009703 Hz
        QTest::newRow("mg-W-4") << QStringLiteral("scorep84-npb-mg-W-4") << qint64(2) << qint64(0)
                                << qint64(286);
        // 9234 ticks at 2300009826 Hz
        QTest::newRow("lu-S-16") << QStringLiteral("scorep84-npb-lu-S-16") << qint64(47)
                                 << qint64(1) << qint64(4015);
        // 23926 ticks at 2300005052 Hz
        QTest::newRow("cloverleaf-16")
            << QStringLiteral("scorep84-cloverleaf-16") << qint64(4) << qint64(36) << qint64(10403);
    }
    void realTraces()
    {
        QFETCH(QString, name);
        QFETCH(qint64, messages);
        QFETCH(qint64, collectives);
        QFETCH(qint64, worst);
        const QString anchor = traceAnchor(name);
        if (anchor.isEmpty()) QSKIP("trace not available");
        const CliResult r = runCli({QStringLiteral("info"), anchor, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject c = jsonOf(r).value(QLatin1String("clock_violations")).toObject();
        QCOMPARE(c.value(QLatin1String("messages")).toInteger(), messages);
        QCOMPARE(c.value(QLatin1String("collectives")).toInteger(), collectives);
        // Ticks become ns with rounding at each end: one ns either way.
        const qint64 got = c.value(QLatin1String("worst_offset_ns")).toInteger();
        QVERIFY2(qAbs(got - worst) <= 1, qPrintable(QString::number(got)));
    }
};

QTEST_GUILESS_MAIN(TestClockViolations)
#include "tst_clockviolations.moc"
