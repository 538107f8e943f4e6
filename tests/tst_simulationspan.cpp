// The span rule (model/analysis/runspan.h): measured and replayed run times are taken from the end
// of MPI_Init, where the replay starts all ranks together, to the end of MPI_Finalize. A hand-built
// two-rank trace whose ranks leave MPI_Init 0.7 ms apart, replayed on a spec whose costs make
// every replayed time a hand sum.

#include "model/analysis/runspan.h"
#include "testsupport/handtrace.h"
#include "testsupport/twonodespec.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;

namespace {

constexpr const char* kSpec = test::kTwoNodeSpec;

/// Rank 0: MPI_Init [0, 100], MPI_Send of 8 bytes [1100, 1150], MPI_Finalize [2000, 2100].
/// Rank 1: MPI_Init [0, 700000], MPI_Recv [700100, 700250], MPI_Finalize [701000, 701050].
Trace staggeredInit()
{
    test::HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    h.call(r0, init, 0, 100);
    h.enter(r0, 1100, send);
    h.builder().send(r0, 1110, 1, world, 0, 8);
    h.leave(r0, 1150, send);
    h.call(r0, fin, 2000, 2100);
    h.call(r1, init, 0, 700000);
    h.enter(r1, 700100, recv);
    h.builder().recv(r1, 700200, 0, world, 0, 8);
    h.leave(r1, 700250, recv);
    h.call(r1, fin, 701000, 701050);
    return h.finish();
}

} // namespace

class TestSimulationSpan : public QObject
{
    Q_OBJECT

private slots:
    void measuredSpan()
    {
        const RunSpan s = runSpan(staggeredInit());
        QVERIFY(s.fromInit);
        QVERIFY(s.toFinalize);
        QCOMPARE(s.name(), std::string("mpi_init_end_to_finalize_end"));
        QCOMPARE(s.startNs, 700000); // the last rank's end of MPI_Init
        QCOMPARE(s.endNs, 701050);   // the last end of MPI_Finalize
        QCOMPARE(s.duration(), 1050);
        QCOMPARE(s.outsideNs(), 700000);
        // MPI time after MPI_Init: the send (50) and Finalize (100); the receive (150), 50.
        QCOMPARE(s.ranks[0].mpiNs, 150);
        QCOMPARE(s.ranks[1].mpiNs, 200);
        QCOMPARE(s.ranks[0].initEndNs, 100);
        QCOMPARE(s.finalizeCostNs, 50); // last entry 701000, last exit 701050
    }

    void replayStartsTogether()
    {
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kSpec, "two.yaml");
        const netsim::SimulationResult r =
            netsim::simulate(staggeredInit(), spec, netsim::SimulationOptions{});
        // Both ranks start at 700000. Rank 0 computes 1000, sends at 701000 (o_s = 0); the
        // message arrives 2 x 1000 + 8 / 8 = 2001 later, at 703001. Rank 0 then computes 850
        // and enters MPI_Finalize at 701850. Rank 1 computes 100, waits in MPI_Recv from 700100
        // to 703001 (2901), computes 750 and enters MPI_Finalize at 703751, the last entry.
        // After it each rank keeps its measured exit less the measured last entry (701000):
        // rank 1 50, rank 0 none (it left at 2100), so it leaves at 703751, rank 1 at 703801.
        QCOMPARE(r.perRank.size(), size_t(2));
        QCOMPARE(r.perRank[0].endNs, 703751);
        QCOMPARE(r.perRank[1].endNs, 703801);
        QCOMPARE(r.perRank[0].mpiNs, 703751 - 701850);
        QCOMPARE(r.perRank[1].mpiNs, 2901 + 50);
        QCOMPARE(r.perRank[1].inputMpiNs, 200);
        QCOMPARE(r.predictedRuntimeNs, 3801);
        QCOMPARE(r.inputRuntimeNs, 1050);
        QCOMPARE(r.span, std::string("mpi_init_end_to_finalize_end"));
        QCOMPARE(r.inputWholeRunNs, 701050);
        QCOMPARE(r.predictedWholeRunNs, 703801); // 3801 + the 700000 before the span
    }

    void simulatedTraceLeavesInitTogether()
    {
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kSpec, "two.yaml");
        netsim::SimulationOptions o;
        o.buildTrace = true;
        const netsim::SimulationResult r = netsim::simulate(staggeredInit(), spec, o);
        QVERIFY(r.trace.has_value());
        // Both ranks' MPI_Init leaves (their second event) at the common start.
        QCOMPARE(r.trace->rankEvents(RankId(0)).time(1), 700000);
        QCOMPARE(r.trace->rankEvents(RankId(1)).time(1), 700000);
        // Rank 0 leaves MPI_Finalize at the last entry (703751), rank 1 50 later.
        QCOMPARE(r.trace->endTime(), 703801);
        const EventStream& r0 = r.trace->rankEvents(RankId(0));
        QCOMPARE(r0.time(r0.size() - 1), 703751);
    }
};

QTEST_GUILESS_MAIN(TestSimulationSpan)
#include "tst_simulationspan.moc"
