// Two replay rules that decide a rank's MPI time where the network model has no say:
// - a call that neither sends nor waits (MPI_Comm_rank, an MPI_Irecv posting its receive) keeps
//   its measured duration as local work of the MPI library;
// - MPI_Finalize is not replayed: no rank leaves it before the last one entered it, and after
//   that entry each rank keeps its own measured exit less the measured last entry.
// A hand-built two-rank trace on a spec whose costs make every replayed time a hand sum.

#include "model/analysis/runspan.h"
#include "testsupport/handtrace.h"
#include "testsupport/twonodespec.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;

namespace {

constexpr const char* kSpec = test::kTwoNodeSpec;

/// Rank 0: MPI_Init [0, 100], MPI_Comm_rank [150, 190], MPI_Irecv [200, 500] posting a receive
/// of 8 bytes from rank 1, MPI_Wait [600, 3000] completing it, MPI_Finalize [3100, 3110].
/// Rank 1: MPI_Init [0, 100], MPI_Send of those 8 bytes [1100, 1150], MPI_Finalize
/// [3105, 3400] (a long tail after the last entry, as a rank that flushes its trace has).
Trace localCalls()
{
    test::HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    const RegionId commRank = h.mpi("MPI_Comm_rank");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId irecv = h.mpi("MPI_Irecv", RegionRole::MpiPointToPoint);
    const RegionId wait = h.mpi("MPI_Wait", RegionRole::MpiPointToPoint);
    h.call(r0, init, 0, 100);
    h.call(r0, commRank, 150, 190);
    h.enter(r0, 200, irecv);
    h.builder().irecvRequest(r0, 210, 7);
    h.leave(r0, 500, irecv);
    h.enter(r0, 600, wait);
    h.builder().irecv(r0, 2990, 1, world, 0, 8, 7);
    h.leave(r0, 3000, wait);
    h.call(r0, fin, 3100, 3110);
    h.call(r1, init, 0, 100);
    h.enter(r1, 1100, send);
    h.builder().send(r1, 1110, 0, world, 0, 8);
    h.leave(r1, 1150, send);
    h.call(r1, fin, 3105, 3400);
    return h.finish();
}

} // namespace

class TestReplayLocalCalls : public QObject
{
    Q_OBJECT

private slots:
    void measured()
    {
        const RunSpan s = runSpan(localCalls());
        QCOMPARE(s.startNs, 100);
        QCOMPARE(s.endNs, 3400);
        QCOMPARE(s.finalizeCostNs, 295); // last entry 3105, last exit 3400
        QCOMPARE(s.ranks[0].mpiNs, 40 + 300 + 2400 + 10);
        QCOMPARE(s.ranks[1].mpiNs, 50 + 295);
    }

    void localCallsKeepTheirDuration()
    {
        const netsim::ActionProgram p = netsim::buildActions(localCalls(), 1.0, nullptr);
        // Rank 0 (after leaving MPI_Init at the common start, a Compute of 0): compute 50,
        // Comm_rank with its 40, compute 10, Irecv posting at its entry and then its 300,
        // compute 100, Wait (the model times it), compute 100, Finalize (not replayed).
        using K = netsim::ActionKind;
        std::vector<std::pair<K, double>> got;
        for (size_t i = p.rankBegin[0]; i < p.rankBegin[1]; ++i)
            got.push_back({p.actions[i].kind, p.actions[i].value});
        const std::vector<std::pair<K, double>> want = {
            {K::Compute, 0},   {K::Compute, 50}, {K::Enter, 0},     {K::Compute, 40},
            {K::Leave, 0},     {K::Compute, 10}, {K::Enter, 0},     {K::PostRecv, 0},
            {K::Compute, 300}, {K::Leave, 0},    {K::Compute, 100}, {K::Enter, 0},
            {K::WaitRecv, 0},  {K::Leave, 0},    {K::Compute, 100}, {K::Enter, 0},
            {K::Leave, 0}};
        QCOMPARE(got, want);
    }

    void replay()
    {
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kSpec, "two.yaml");
        const netsim::SimulationResult r =
            netsim::simulate(localCalls(), spec, netsim::SimulationOptions{});
        // Both ranks start at 100. Rank 1 computes 1000 and sends at 1100 (eager, o_s = 0): the
        // message arrives 2 x 1000 + 8 / 8 = 2001 later, at 3101; its MPI_Send ends at 1100; it
        // computes 1955 and enters MPI_Finalize at 3055.
        // Rank 0: Comm_rank [150, 190], Irecv [200, 500] (posted at 200), Wait [600, 3101]
        // (2501), computes 100 and enters MPI_Finalize at 3201, the last entry.
        // Tails after the last entry, measured: rank 0 3110 - 3105 = 5, rank 1 3400 - 3105 = 295.
        QCOMPARE(r.perRank[0].endNs, 3201 + 5);
        QCOMPARE(r.perRank[1].endNs, 3201 + 295);
        QCOMPARE(r.perRank[0].mpiNs, 40 + 300 + 2501 + 5);
        QCOMPARE(r.perRank[1].mpiNs, 0 + (3496 - 3055));
        QCOMPARE(r.perRank[0].inputMpiNs, 2750);
        QCOMPARE(r.perRank[1].inputMpiNs, 345);
        QCOMPARE(r.predictedRuntimeNs, 3496 - 100);
        QCOMPARE(r.inputRuntimeNs, 3300);
    }

    void simulatedTraceKeepsTheTails()
    {
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromString(kSpec, "two.yaml");
        netsim::SimulationOptions o;
        o.buildTrace = true;
        const netsim::SimulationResult r = netsim::simulate(localCalls(), spec, o);
        QVERIFY(r.trace.has_value());
        const EventStream& r0 = r.trace->rankEvents(RankId(0));
        const EventStream& r1 = r.trace->rankEvents(RankId(1));
        QCOMPARE(r0.time(r0.size() - 1), 3206); // MPI_Finalize's Leave
        QCOMPARE(r1.time(r1.size() - 1), 3496);
        QCOMPARE(r.trace->endTime(), 3496);
    }
};

QTEST_GUILESS_MAIN(TestReplayLocalCalls)
#include "tst_replaylocalcalls.moc"
