// The packet model (ALGORITHMS.md §7.2-7.3): packets lock the links of their route in turn,
// store-and-forward or cut-through. Every expected time is worked out by hand in the comments.

#include "model/generator/tracegenerator.h"
#include "tst_netsimprogram.h"
#include "whatif/netsim/eventqueue.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/packetmodel.h"
#include "whatif/netsim/simulation.h"

#include <QTest>
#include <map>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

// The PSI-NSIM example's machine: nodes 0 and 1 joined by link A with latency 2 ns and 1 byte/ns,
// so the example's packet of 8 bytes takes 8 ns on it; packets of up to 80 bytes.
const char* kLinkA = R"(
nodes: 2
ranks_per_node: 2
packet_size: 80
links:
  A: {latency: 2ns, bandwidth: 8Gbps}
networks:
  pair:
    topology: explicit
    links:
      - {from: n0, to: n1, link: A}
)";

// Three nodes, two ranks each, on one switch: 500 ns per hop, 1 byte/ns, 1000-byte packets.
const char* kCrossbar = R"(
nodes: 3
ranks_per_node: 2
packet_size: 1000
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

/// The engine's part for a model alone: one queue, the clock, what was delivered when.
struct Recorder : TransferSink
{
    void delivered(uint32_t transfer, double time) override { arrivals[transfer] = time; }
    void scheduleModelEvent(double time, uint32_t payload) override
    {
        queue.push(time, 1, payload);
    }
    EventQueue queue;
    std::map<uint32_t, double> arrivals;
};

SimulationOptions packet()
{
    SimulationOptions o;
    o.model = "packet";
    return o;
}

/// Rank 0 (node 0) sends `bytes` to rank 2 (node 1).
SimulationResult oneMessage(uint64_t bytes, const NetworkSpec& spec)
{
    Program pr(6);
    const uint32_t m = pr.message(0, 2, bytes);
    pr.send(0, m);
    pr.recv(2, m);
    return simulateProgram(pr.finish(), spec, packet());
}

} // namespace

class TestNetsimPacket : public QObject
{
    Q_OBJECT

private slots:
    void psiNsimExample()
    {
        // §7.2: link A is busy until 170 (an 80-byte packet locked it at 90: 90 + 80 = 170); the
        // queue head is a send from node 0 to node 1 at 100, then something at 150 (here a
        // packet the other way), then a third packet towards node 1 at 175.
        const NetworkSpec spec = NetworkSpec::fromString(kLinkA, "psi.yaml");
        const Machine machine(spec, 4);
        Recorder rec;
        PacketModel model(machine, rec);
        const uint32_t linkA = 0; // n0 -> n1 (the explicit link's first direction)
        struct Send
        {
            double at;
            uint32_t src, dst;
            uint64_t bytes;
        };
        const Send sends[] = {{90, 1, 3, 80}, {100, 0, 2, 8}, {150, 2, 0, 8}, {175, 0, 2, 8}};
        for (uint32_t i = 0; i < 4; ++i)
            rec.queue.push(sends[i].at, 0, i);
        std::vector<double> clock;
        while (!rec.queue.empty()) {
            const SimEvent e = rec.queue.pop();
            clock.push_back(e.time);
            if (e.kind == 0) {
                const Send& s = sends[e.payload];
                model.start(e.payload, s.src, s.dst, s.bytes, Placement::Policy, e.time);
            } else {
                model.onEvent(e.payload, e.time);
            }
            if (e.time == 90) QCOMPARE(model.releasedAt(linkA), 170.0);
            // At 100 the send is taken: it locks A when it frees (170) and releases it at
            // 170 + 8 = 178; the clock then moves on to the next queue head, 150.
            if (e.time == 100) QCOMPARE(model.releasedAt(linkA), 178.0);
        }
        // One-hop routes need no further events: the clock visits only the four sends.
        QCOMPARE(clock, (std::vector<double>{90, 100, 150, 175}));
        // Arrivals: release + latency 2. The first packet 170 + 2; the example's 178 + 2;
        // the reverse direction is a link of its own: 150 + 8 + 2; the packet at 175 finds A
        // locked until 178: 178 + 8 + 2.
        QCOMPARE(rec.arrivals,
                 (std::map<uint32_t, double>{{0, 172}, {1, 180}, {2, 160}, {3, 188}}));
        QCOMPARE(model.releasedAt(linkA), 186.0);
        QCOMPARE(model.releasedAt(linkA + 1), 158.0);
    }

    void psiNsimExampleReplayed()
    {
        // The same through the replay engine, without overheads: rank 1 computes 90 and sends
        // 80 bytes to rank 3; rank 0 computes 100 and sends 8 bytes to rank 2. Rank 3 receives
        // at 172, rank 2 at 180 (A locked 170-178, + 2).
        Program pr(4);
        const uint32_t busy = pr.message(1, 3, 80), example = pr.message(0, 2, 8);
        pr.compute(1, 90);
        pr.send(1, busy);
        pr.compute(0, 100);
        pr.send(0, example);
        pr.recv(3, busy);
        pr.recv(2, example);
        const SimulationResult r =
            simulateProgram(pr.finish(), NetworkSpec::fromString(kLinkA, "psi.yaml"), packet());
        QCOMPARE(r.perRank[3].endNs, int64_t(172));
        QCOMPARE(r.perRank[2].endNs, int64_t(180));
    }

    void storeAndForward()
    {
        // 2000 bytes = two packets over two links (node -> switch -> node), 1000 ns each.
        // p0: link 1 0-1000, at the switch 1500; link 2 1500-2500, arrives 3000.
        // p1 asks for link 1 when p0 releases it: 1000-2000, at the switch 2500; link 2
        // 2500-3500, arrives 4000: the message is received at 4000.
        const SimulationResult r = oneMessage(2000, NetworkSpec::fromString(kCrossbar, "x.yaml"));
        QCOMPARE(r.perRank[2].endNs, int64_t(4000));
    }

    void cutThrough()
    {
        // p0: link 1 locked 0-1000, head at the switch at 500: link 2 locked 500, released
        // max(500 + 1000, tail 1000 + 500) = 1500, arrives 2000. p1: link 1 1000-2000, head at
        // 1500, link 2 1500-2500, arrives 3000 = L + M/B, the analytic model's time.
        const NetworkSpec spec =
            NetworkSpec::fromString(kCrossbar, "x.yaml", {{"switching", "cut_through"}});
        QCOMPARE(oneMessage(2000, spec).perRank[2].endNs, int64_t(3000));
    }

    void sharedLinkSerialises()
    {
        // Nodes 0 and 1 each send one 1000-byte packet to node 2 at 0. Both reach the switch at
        // 1500 (1000 + 500); rank 0's was queued first, so it locks node 2's link 1500-2500
        // (arrives 3000) and the other one 2500-3500 (arrives 4000).
        Program pr(6);
        const uint32_t a = pr.message(0, 4, 1000), b = pr.message(2, 5, 1000);
        pr.send(0, a);
        pr.send(2, b);
        pr.recv(4, a);
        pr.recv(5, b);
        const SimulationResult r =
            simulateProgram(pr.finish(), NetworkSpec::fromString(kCrossbar, "x.yaml"), packet());
        QCOMPARE(r.perRank[4].endNs, int64_t(3000));
        QCOMPARE(r.perRank[5].endNs, int64_t(4000));
    }

    void deterministic()
    {
        GeneratorOptions g;
        g.pattern = "stencil2d";
        g.ranks = 16;
        g.iterations = 3;
        const Trace trace = generateTrace(g);
        for (const char* switching : {"store_and_forward", "cut_through"}) {
            const NetworkSpec spec = NetworkSpec::fromString(
                kCrossbar, "x.yaml", {{"nodes", "16"}, {"switching", switching}});
            SimulationOptions o = packet();
            o.buildTrace = true;
            const SimulationResult first = simulate(trace, spec, o);
            QVERIFY(first.predictedRuntimeNs > 0);
            QVERIFY(first == simulate(trace, spec, o));
        }
    }

    void badSwitching()
    {
        QVERIFY_THROWS_EXCEPTION(
            std::exception, NetworkSpec::fromString(kCrossbar, "x.yaml", {{"switching", "x"}}));
    }
};

QTEST_GUILESS_MAIN(TestNetsimPacket)
#include "tst_netsimpacket.moc"
