// The POP efficiency metrics (whatif/pop/popmetrics.h) on hand-built runs whose LB, CommE, SerE
// and TE are worked out by hand below, on sets of runs (computation scalability, weak scaling,
// not one program), and on bad input. Every run starts with MPI_Init over [0, 10] on each rank,
// so the span starts at 10; MPI_Finalize takes no time, so the ideal replay's measured
// Finalize cost (last entry to last exit) is 0 and T_ideal ends where the last rank enters it.
// Messages are 8 bytes (eager): on the ideal network a receive ends when its send begins.

#include "model/trace/traceerror.h"
#include "testsupport/expecterror.h"
#include "testsupport/handworld.h"
#include "whatif/pop/popmetrics.h"

#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::test;
using pop::RunMetrics;

namespace {

/// MPI_Init [0, 10] on every rank.
void init(HandWorld& w)
{
    for (size_t r = 0; r < w.loc.size(); ++r)
        w.call(int(r), "MPI_Init", 0, 10);
}

void finalize(HandWorld& w, int r, int64_t t)
{
    w.call(r, "MPI_Finalize", t, t);
}

/// Pairs (2k, 2k+1) each compute `work` from 10, swap one message each (sent at 10 + work,
/// received 50 later) and finalize at 60 + work: the network is all the inefficiency. With
/// `ins` and `cyc` > 0, the work is a region "compute" over which each rank's PAPI_TOT_INS and
/// PAPI_TOT_CYC grow by `ins` and `cyc` (sampled at its Enter and Leave only).
Trace exchange(int ranks, int64_t work, uint64_t ins = 0, uint64_t cyc = 0)
{
    HandWorld w(ranks);
    TraceBuilder& b = w.h.builder();
    MetricId counters[2];
    if (ins > 0) {
        for (int k = 0; k < 2; ++k)
            counters[k] = b.addMetric(Metric{b.intern(k == 0 ? "PAPI_TOT_INS" : "PAPI_TOT_CYC"),
                                             {},
                                             b.intern("#"),
                                             MetricMode::AccumulatedStart,
                                             MetricValueType::Uint64});
    }
    init(w);
    const int64_t t = 10 + work;
    const RegionId compute = w.h.user("compute");
    for (int r = 0; r < ranks; ++r) {
        const LocationId l = w.loc[size_t(r)];
        if (ins > 0) {
            const uint64_t zero[] = {0, 0}, done[] = {ins, cyc};
            b.metric(l, 10, counters, zero, 2);
            w.h.call(l, compute, 10, t);
            b.metric(l, t, counters, done, 2);
        }
        const uint32_t peer = uint32_t(r ^ 1);
        w.send(r, t, t, peer);
        w.recv(r, t, t + 50, peer);
        finalize(w, r, t + 50);
    }
    return w.h.finish();
}

void checkIdentities(const RunMetrics& m)
{
    QVERIFY(std::abs(m.parallelEfficiency - m.loadBalance * m.communicationEfficiency) < 1e-9);
    QVERIFY(m.serialisationEfficiency && m.transferEfficiency);
    QVERIFY(std::abs(m.communicationEfficiency -
                     *m.serialisationEfficiency * *m.transferEfficiency) < 1e-9);
}

void near(double actual, double expected)
{
    if (std::abs(actual - expected) > 1e-12)
        QFAIL(qPrintable(QString("got %1, expected %2").arg(actual, 0, 'g', 17).arg(expected)));
}

} // namespace

class TestPopMetrics : public QObject
{
    Q_OBJECT

private slots:
    void allSerialisation()
    {
        // r0: compute [10, 110], Send to r1 at 110, Recv from r1 [110, 210], Finalize at 210.
        // r1: Recv from r0 [10, 110] (the message arrives the moment it is sent), compute
        //     [110, 210], Send to r0 at 210, Finalize at 210.
        // U = 100, 100: LB = 100 / 100 = 1. T = 210 - 10 = 200: CommE = 100 / 200 = 0.5.
        // Ideal replay: the messages cost nothing, but r1 still waits for r0's compute and r0
        // for r1's: Finalize entered at 210 again, T_ideal = 200. SerE = 100 / 200 = 0.5,
        // TE = 200 / 200 = 1: all the inefficiency is serialisation.
        HandWorld w(2);
        init(w);
        w.send(0, 110, 110, 1);
        w.recv(0, 110, 210, 1);
        finalize(w, 0, 210);
        w.recv(1, 10, 110, 0);
        w.send(1, 210, 210, 0);
        finalize(w, 1, 210);
        const RunMetrics m = pop::runMetrics(w.h.finish(), "serial");
        QCOMPARE(m.useful, (std::vector<int64_t>{100, 100}));
        QCOMPARE(m.spanNs, int64_t(200));
        near(m.loadBalance, 1.0);
        near(m.communicationEfficiency, 0.5);
        QCOMPARE(m.idealSpanNs, std::optional<int64_t>(200));
        near(*m.serialisationEfficiency, 0.5);
        near(*m.transferEfficiency, 1.0);
        checkIdentities(m);
    }

    void allTransfer()
    {
        // Both ranks compute [10, 110], send to each other at 110 and receive over [110, 160]
        // (50 ns on the wire), Finalize at 160. U = 100, 100: LB = 1; T = 150: CommE = 100/150.
        // Ideal replay: both receives end at 110, Finalize at 110: T_ideal = 100. SerE =
        // 100 / 100 = 1 (no dependency costs anything), TE = 100 / 150: all of it transfer.
        const RunMetrics m = pop::runMetrics(exchange(2, 100), "transfer");
        QCOMPARE(m.useful, (std::vector<int64_t>{100, 100}));
        near(m.loadBalance, 1.0);
        near(m.communicationEfficiency, 100.0 / 150);
        near(*m.serialisationEfficiency, 1.0);
        near(*m.transferEfficiency, 100.0 / 150);
        near(m.parallelEfficiency, 100.0 / 150);
        checkIdentities(m);
    }

    void imbalanceSerialisationAndTransfer()
    {
        // r0: compute [10, 110] (100), Send to r1 at 110, compute [110, 130] (20), Recv from r1
        //     [130, 200], Finalize at 200.
        // r1: compute [10, 40] (30), Recv from r0 [40, 140] (sent at 110: 30 on the wire),
        //     compute [140, 180] (40), Send to r0 at 180 (arrives at 200: 20 on the wire),
        //     MPI_Finalize [180, 200].
        // U = 120, 70: mean 95, LB = 95 / 120. T = 200 - 10 = 190: CommE = 120 / 190.
        // Ideal replay: r1's Recv ends at 110, it computes to 150 and sends; r0 computes to
        // 130 and its Recv ends at 150. Both enter Finalize at 150 (cost: last exit 200 - last
        // entry 200 = 0): T_ideal = 140. SerE = 120 / 140, TE = 140 / 190.
        HandWorld w(2);
        init(w);
        w.send(0, 110, 110, 1);
        w.recv(0, 130, 200, 1);
        finalize(w, 0, 200);
        w.recv(1, 40, 140, 0);
        w.send(1, 180, 180, 0);
        w.call(1, "MPI_Finalize", 180, 200);
        const RunMetrics m = pop::runMetrics(w.h.finish(), "mixed");
        QCOMPARE(m.useful, (std::vector<int64_t>{120, 70}));
        near(m.loadBalance, 95.0 / 120);
        near(m.communicationEfficiency, 120.0 / 190);
        near(m.parallelEfficiency, 95.0 / 190);
        QCOMPARE(m.idealSpanNs, std::optional<int64_t>(140));
        near(*m.serialisationEfficiency, 120.0 / 140);
        near(*m.transferEfficiency, 140.0 / 190);
        checkIdentities(m);
        // No counters: IPC and its scalability are absent, with a reason, never 0.
        QVERIFY(!m.ipc);
        QVERIFY(!m.missing.empty() && m.missing.front().metric == "ipc");
    }

    void scalabilityAgainstTheSmallestRun()
    {
        // 2 ranks computing 100 each (sum U = 200) and 4 ranks computing 60 each (sum 240),
        // given largest first. Strong: CompScal(4) = 200 / 240; weak: x 4 / 2 = 400 / 240.
        // PE(4) = LB x CommE = 1 x 60 / (60 + 50) (the exchange's T is work + 50).
        const Trace small = exchange(2, 100), large = exchange(4, 60);
        const std::vector<RunMetrics> strong = pop::popMetrics({&large, &small}, {"p4", "p2"});
        QCOMPARE(strong.size(), size_t(2));
        QCOMPARE(strong[0].trace, std::string("p2"));
        near(*strong[0].computationScalability, 1.0);
        near(*strong[1].computationScalability, 200.0 / 240);
        near(strong[1].parallelEfficiency, 60.0 / 110);
        near(*strong[1].globalEfficiency, 60.0 / 110 * 200.0 / 240);
        const std::vector<RunMetrics> weak =
            pop::popMetrics({&large, &small}, {"p4", "p2"}, {.weak = true});
        near(*weak[1].computationScalability, 400.0 / 240);
        for (const RunMetrics& m : strong) {
            QVERIFY(!m.ipcScalability && !m.instructionScalability);
            checkIdentities(m);
        }
    }

    void countersGiveIpcAndItsScalability()
    {
        // 2 ranks of 1000 instructions in 500 cycles each: IPC = 2000 / 1000 = 2; 4 ranks of
        // 600 in 400: IPC = 2400 / 1600 = 1.5. IPC scalability (4) = 1.5 / 2 = 0.75;
        // instruction scalability = 2000 / 2400 (weak: x 4 / 2 = 4000 / 2400).
        const Trace small = exchange(2, 100, 1000, 500), large = exchange(4, 60, 600, 400);
        const std::vector<RunMetrics> strong = pop::popMetrics({&small, &large}, {"p2", "p4"});
        near(*strong[0].ipc, 2.0);
        near(*strong[0].instructions, 2000.0);
        near(*strong[1].ipc, 1.5);
        near(*strong[1].ipcScalability, 0.75);
        near(*strong[1].instructionScalability, 2000.0 / 2400);
        QVERIFY(strong[1].missing.empty());
        const std::vector<RunMetrics> weak =
            pop::popMetrics({&small, &large}, {"p2", "p4"}, {.weak = true});
        near(*weak[1].instructionScalability, 4000.0 / 2400);
        near(*weak[1].ipcScalability, 0.75);
    }

    void refusesAnotherProgram()
    {
        // The exchange's calls, then ten barriers: 3 of its 13 calls (counted as the delta
        // times they start) are at sites every run has, below the half the check asks for.
        HandWorld w(2);
        init(w);
        for (int r = 0; r < 2; ++r) {
            w.send(r, 110, 110, uint32_t(r ^ 1));
            w.recv(r, 110, 160, uint32_t(r ^ 1));
            for (int k = 0; k < 10; ++k)
                w.barrier(r, 200 + 20 * k, 210 + 20 * k);
            finalize(w, r, 400);
        }
        const Trace other = w.h.finish(), exch = exchange(2, 100);
        const Trace exch4 = exchange(4, 60);
        EXPECT_TRACE_ERROR((pop::popMetrics({&exch, &exch4, &other}, {"a", "b", "c"})),
                           QStringLiteral("c is not a trace of the same program"));
    }

    void refusesBadInput()
    {
        HandTrace empty;
        empty.addRank();
        empty.addRank();
        const Trace none = empty.finish();
        EXPECT_TRACE_ERROR((pop::runMetrics(none, "empty.otf2")),
                           QStringLiteral("empty.otf2 has no events"));
        HandWorld w(2);
        for (int r = 0; r < 2; ++r) {
            w.barrier(r, 0, 10);
            finalize(w, r, 20);
        }
        EXPECT_TRACE_ERROR((pop::runMetrics(w.h.finish(), "noinit.otf2")),
                           QStringLiteral("noinit.otf2 has no MPI_Init"));
        EXPECT_TRACE_ERROR((pop::popMetrics({}, {})), QStringLiteral("at least one trace"));
    }

    void idealSpecCostsNothing()
    {
        const netsim::NetworkSpec spec = pop::idealNetworkSpec(5000);
        QCOMPARE(spec.nodes, 1u);
        QCOMPARE(spec.ranksPerNode, 5000u);
        QVERIFY(spec.intraNodeLink.empty());
        QVERIFY(spec.protocol.empty());
        QCOMPARE(spec.sendOverheadNs, 0.0);
        QCOMPARE(spec.recvOverheadNs, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestPopMetrics)
#include "tst_popmetrics.moc"
