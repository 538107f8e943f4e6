// The replay engine under the analytic LogGP model (ALGORITHMS.md §7.1-7.3), with closed forms
// worked out by hand. Test network: a crossbar whose links have latency 500 ns (a message
// crosses two: L = 1000 ns) and 8 Gbps = 1 byte/ns (G = 1 ns/byte), o_s = o_r = 100 ns.

#include "model/trace/traceerror.h"
#include "testsupport/handtrace.h"
#include "tst_netsimprogram.h"
#include "whatif/netsim/eventqueue.h"
#include "whatif/netsim/hugepageallocator.h"
#include "whatif/netsim/loggpmodel.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/simulation.h"

#include <QTest>
#include <algorithm>
#include <map>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

const char* kCrossbar = R"(
nodes: 8
overhead: {send: 100ns, recv: 100ns}
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

NetworkSpec crossbar()
{
    return NetworkSpec::fromString(kCrossbar, "crossbar.yaml");
}

} // namespace

class TestNetsimCore : public QObject
{
    Q_OBJECT

private slots:
    void pingPong()
    {
        // One way: o_s + L + M·G + o_r = 100 + 1000 + 1000 + 100 = 2200 ns; there and back
        // 4400 ns. Rank 1 ends when its reply send completes locally (eager): 2200 + 100.
        Program pr(2);
        const uint32_t ping = pr.message(0, 1, 1000), pong = pr.message(1, 0, 1000);
        pr.send(0, ping);
        pr.recv(0, pong);
        pr.recv(1, ping);
        pr.send(1, pong);
        const SimulationResult r = simulateProgram(pr.finish(), crossbar(), {});
        QCOMPARE(r.predictedRuntimeNs, int64_t(4400));
        QCOMPARE(r.perRank[0].endNs, int64_t(4400));
        QCOMPARE(r.perRank[1].endNs, int64_t(2300));
        QCOMPARE(r.perRank[0].mpiNs, int64_t(4400));
        QCOMPARE(r.messages, uint64_t(2));
    }

    void rendezvousWaitsForReceiver()
    {
        // Eager limit 0: the 1000-byte message needs its receiver, who computes 5000 ns first.
        // Transfer 5000 .. 5000 + 1000 + 1000 = 7000: the send completes then, the receive
        // 100 ns (o_r) later.
        Program pr(2);
        const uint32_t m = pr.message(0, 1, 1000);
        pr.send(0, m);
        pr.compute(1, 5000);
        pr.recv(1, m);
        SimulationOptions o;
        o.eagerLimit = 0;
        const SimulationResult r = simulateProgram(pr.finish(), crossbar(), o);
        QCOMPARE(r.perRank[0].endNs, int64_t(7000));
        QCOMPARE(r.perRank[1].endNs, int64_t(7100));
        // Eager (default 64 KiB): the sender is done after o_s; the data waits at the receiver:
        // receive completes at max(arrival 2100, posted 5000) + 100.
        Program eager(2);
        const uint32_t e = eager.message(0, 1, 1000);
        eager.send(0, e);
        eager.compute(1, 5000);
        eager.recv(1, e);
        const SimulationResult q = simulateProgram(eager.finish(), crossbar(), {});
        QCOMPARE(q.perRank[0].endNs, int64_t(100));
        QCOMPARE(q.perRank[1].endNs, int64_t(5100));
    }

    void senderInterfaceSerialises()
    {
        // Rank 0 sends 1000 bytes to 1 and then to 2: the second waits for the interface
        // (free at 100 + 1000), arrives 1100 + 1000 + 1000 = 3100, received at 3200.
        Program pr(3);
        const uint32_t a = pr.message(0, 1, 1000), b = pr.message(0, 2, 1000);
        pr.send(0, a);
        pr.send(0, b);
        pr.recv(1, a);
        pr.recv(2, b);
        const SimulationResult r = simulateProgram(pr.finish(), crossbar(), {});
        QCOMPARE(r.perRank[1].endNs, int64_t(2200));
        QCOMPARE(r.perRank[2].endNs, int64_t(3200));
    }

    void interfaceServesEarlierPostsFirst()
    {
        // The engine starts LogGP transfers as ranks reach them, not in time order. On the
        // crossbar a message of 1000 bytes holds its sender's interface 1000 ns and arrives
        // 1000 ns (two 500 ns hops) after that. Node 0's message to 1, started at 3000, is
        // handed to the model first: [3000, 4000), arrives 5000, leaving the interface idle
        // over [0, 3000). Then one to 2 started at 1000 takes [1000, 2000) and arrives 3000;
        // one started at 1500 takes what is left, [2000, 3000), and arrives 4000; another at
        // 1500 finds no room before 4000 and arrives 6000.
        struct Sink : TransferSink
        {
            void delivered(uint32_t transfer, double time) override { at[transfer] = time; }
            void scheduleModelEvent(double, uint32_t) override {}
            std::map<uint32_t, double> at;
        } sink;
        const NetworkSpec spec = crossbar();
        const Machine machine(spec, 8);
        LogGpModel model(machine, sink);
        model.start(0, 0, 1, 1000, Placement::Policy, 3000);
        model.start(1, 0, 2, 1000, Placement::Policy, 1000);
        model.start(2, 0, 3, 1000, Placement::Policy, 1500);
        model.start(3, 0, 4, 1000, Placement::Policy, 1500);
        QCOMPARE(sink.at[0], 5000.0);
        QCOMPARE(sink.at[1], 3000.0);
        QCOMPARE(sink.at[2], 4000.0);
        QCOMPARE(sink.at[3], 6000.0);
    }

    void deterministic()
    {
        auto run = [] {
            Program pr(8);
            for (uint32_t i = 0; i < 8; ++i) {
                const uint32_t m = pr.message(i, (i + 1) % 8, 100 + 37 * i);
                pr.compute(i, 10 * i);
                pr.call(i, {{ActionKind::PostSend, m, 0}});
            }
            for (uint32_t i = 0; i < 8; ++i) {
                const uint32_t in = (i + 7) % 8;
                pr.recv(i, in);
                pr.call(i, {{ActionKind::WaitSend, i, 0}});
            }
            return simulateProgram(pr.finish(), crossbar(), {});
        };
        const SimulationResult a = run(), b = run();
        QVERIFY(a == b);
        QCOMPARE(a.messages, uint64_t(8));
    }

    void eventQueueWorkedExample()
    {
        // §7.2: the send taken at t = 100 is split into "lock link A at 170" and "release A at
        // 178" (170 + 8 serialisation); another event waits at 150. The clock then visits 150,
        // 170, 178 in that order; equal times keep insertion order.
        EventQueue q;
        q.push(100, 0, 1); // the send
        q.push(150, 0, 2); // something else already queued
        SimEvent e = q.pop();
        QCOMPARE(e.time, 100.0);
        q.push(170, 1, 3); // lock A when it frees
        q.push(178, 2, 3); // release A after the packet's 8
        q.push(170, 3, 4); // a tie: after the lock, inserted later
        QCOMPARE(q.pop().time, 150.0);
        e = q.pop();
        QCOMPARE(e.kind, 1u);
        QCOMPARE(q.pop().kind, 3u);
        QCOMPARE(q.pop().time, 178.0);
        QVERIFY(q.empty());
    }

    void eventQueueOrdersManyEvents()
    {
        // 5000 events at 50 distinct times, popped while others are pushed: the order must be
        // (time, insertion) — checked against a stable sort of the same events.
        EventQueue q;
        std::vector<std::pair<double, uint32_t>> expected;
        uint32_t next = 0;
        auto add = [&](double time) {
            q.push(time, 0, next);
            expected.emplace_back(time, next++);
        };
        std::vector<std::pair<double, uint32_t>> popped;
        for (uint32_t i = 0; i < 5000; ++i) {
            add(double((i * 7919u) % 50));
            if (i % 3 == 2) { // interleave pops, as the engine does
                const SimEvent e = q.pop();
                popped.emplace_back(e.time, e.payload);
            }
        }
        while (!q.empty()) {
            const SimEvent e = q.pop();
            popped.emplace_back(e.time, e.payload);
        }
        QCOMPARE(popped.size(), expected.size());
        // Each pop returned the least (time, insertion) of what was queued at that moment.
        std::vector<std::pair<double, uint32_t>> queued;
        size_t k = 0;
        for (uint32_t i = 0; i < 5000; ++i) {
            queued.push_back(expected[i]);
            if (i % 3 == 2) {
                const auto m = std::min_element(queued.begin(), queued.end());
                QCOMPARE(popped[k++], *m);
                queued.erase(m);
            }
        }
        std::sort(queued.begin(), queued.end());
        for (const auto& e : queued)
            QCOMPARE(popped[k++], e);
    }

    void hugePageAllocatorAligns()
    {
        // A cache-line type must come back cache-line aligned from small blocks as well
        // (a collective inbox of a 3-rank replay is 192 bytes); blocks of 2 MiB or more start
        // on a 2 MiB boundary so the kernel can back them with huge pages.
        struct alignas(64) Line
        {
            char bytes[64];
        };
        for (const size_t n : {size_t(1), size_t(3), size_t(1000), size_t(40'000)}) {
            std::vector<Line, HugePageAllocator<Line>> v(n);
            const auto address = reinterpret_cast<uintptr_t>(v.data());
            QCOMPARE(address % 64, uintptr_t(0));
            if (n * sizeof(Line) >= (size_t(2) << 20))
                QCOMPARE(address % (uintptr_t(2) << 20), uintptr_t(0));
        }
        std::vector<uint32_t, HugePageAllocator<uint32_t>> small(5, 7u);
        QCOMPARE(small[4], 7u);
    }

    void deadlockIsAnError()
    {
        // Both ranks receive first (a trace that cannot be replayed): an error, not a hang.
        Program pr(2);
        const uint32_t a = pr.message(0, 1, 10), b = pr.message(1, 0, 10);
        pr.recv(0, b);
        pr.send(0, a);
        pr.recv(1, a);
        pr.send(1, b);
        QVERIFY_THROWS_EXCEPTION(TraceError, simulateProgram(pr.finish(), crossbar(), {}));
    }

    void traceReplay()
    {
        // A hand-built trace: rank 0 computes 1000 ns, sends 1000 bytes (its MPI_Send took
        // 50 ns), rank 1 receives from t = 0 to 3000. Replayed: rank 0 sends at 1000, done at
        // 1100; the data arrives 1100 + 2000 = 3100 and is received at 3200. With CPU factor 2,
        // rank 0 sends at 2000 and rank 1 receives at 4200.
        rankscope::test::HandTrace h;
        const LocationId r0 = h.addRank(), r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        h.enter(r0, 1000, send);
        h.builder().send(r0, 1000, 1, world, 7, 1000);
        h.leave(r0, 1050, send);
        h.enter(r1, 0, recv);
        h.builder().recv(r1, 3000, 0, world, 7, 1000);
        h.leave(r1, 3000, recv);
        const Trace t = h.finish();
        // Rank 0's first event is at 1000: it starts there.
        SimulationOptions o;
        o.buildTrace = true;
        const SimulationResult r = simulate(t, crossbar(), o);
        QCOMPARE(r.perRank[0].endNs, int64_t(1100));
        QCOMPARE(r.perRank[1].endNs, int64_t(3200));
        QCOMPARE(r.inputRuntimeNs, int64_t(3000));
        QCOMPARE(r.predictedRuntimeNs, int64_t(3200));
        QVERIFY(r.trace.has_value());
        const Trace& s = *r.trace;
        QCOMPARE(s.provenance().kind, std::string("simulated"));
        QCOMPARE(s.messages().size(), size_t(1));
        QVERIFY(s.messages()[0].matched());
        QCOMPARE(s.rankEvents(RankId(1)).time(1), int64_t(3200)); // the receive event
        QCOMPARE(s.rankEvents(RankId(0)).time(2), int64_t(1100)); // rank 0's Leave
    }
};

QTEST_GUILESS_MAIN(TestNetsimCore)
#include "tst_netsimcore.moc"
