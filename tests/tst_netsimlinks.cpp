// What the network did (whatif/netsim/linkstats.h): per-link and per-message figures of the flow,
// packet and LogGP models on small machines. Every expected value is worked out by hand in the
// comments.

#include "tst_netsimprogram.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

// Three nodes on one switch, 500 ns per hop, 1 byte/ns; every message eager (it leaves at once).
const char* kCrossbar = R"(
nodes: 3
eager_limit: 16MiB
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

// A 3 x 3 torus, 100 ns per hop, 1 byte/ns, store-and-forward packets of 1000 bytes.
const char* kTorus = R"(
nodes: 9
eager_limit: 16MiB
packet_size: 1000
switching: store_and_forward
links:
  t: {latency: 100ns, bandwidth: 8Gbps}
networks:
  torus: {topology: torus, dims: [3, 3], link: t}
)";

SimulationOptions withLinks(const char* model)
{
    SimulationOptions o;
    o.model = model;
    o.linkStats = true;
    return o;
}

const LinkFigures& linkNamed(const NetworkFigures& f, const std::string& name)
{
    for (const LinkFigures& l : f.links)
        if (l.info.name == name) return l;
    qFatal("no link %s", name.c_str());
}

} // namespace

class TestNetsimLinks : public QObject
{
    Q_OBJECT

private slots:
    void flowTwoShareOneLink()
    {
        // Ranks 0 and 1 each send M = 1e6 bytes to rank 2 at 0. Both flows cross the link
        // switch -> n2 (1 byte/ns): max-min gives each 0.5 byte/ns, so both last bytes leave at
        // 2M / B = 2e6 and arrive 2 x 500 later, at 2,001,000: the run. Alone a flow would take
        // M / B = 1e6, so each lost 1e6 to the other (contention), charged to switch -> n2,
        // which was busy at its full capacity from 0 to 2e6 (utilisation 2e6 / 2,001,000, peak
        // 1.0). Each node's own link n -> switch carried its flow at half its capacity: busy
        // 1e6, peak 0.5, no contention.
        Program pr(3);
        const uint32_t a = pr.message(0, 2, 1'000'000), b = pr.message(1, 2, 1'000'000);
        pr.send(0, a);
        pr.send(1, b);
        pr.recv(2, a);
        pr.recv(2, b);
        const SimulationResult r = simulateProgram(
            pr.finish(), NetworkSpec::fromString(kCrossbar, "x.yaml"), withLinks("flow"));
        QCOMPARE(r.predictedRuntimeNs, int64_t(2'001'000));
        QVERIFY(r.network);
        const NetworkFigures& f = *r.network;
        QCOMPARE(f.links.size(), size_t(6)); // three nodes, both directions
        const LinkFigures& hot = linkNamed(f, "sw:switch->n2");
        QCOMPARE(hot.info.linkClass, std::string("nic"));
        QCOMPARE(hot.info.from, std::string("switch"));
        QCOMPARE(hot.info.to, std::string("n2"));
        QCOMPARE(hot.bytes, uint64_t(2'000'000));
        QCOMPARE(hot.messages, uint64_t(2));
        QCOMPARE(hot.busyNs, 2e6);
        QCOMPARE(hot.utilisation, 2e6 / 2'001'000);
        QCOMPARE(hot.peakUtilisation, 1.0);
        QCOMPARE(hot.contentionNs, 2e6);
        for (const char* up : {"sw:n0->switch", "sw:n1->switch"}) {
            const LinkFigures& l = linkNamed(f, up);
            QCOMPARE(l.bytes, uint64_t(1'000'000));
            QCOMPARE(l.busyNs, 1e6);
            QCOMPARE(l.peakUtilisation, 0.5);
            QCOMPARE(l.contentionNs, 0.0);
        }
        const LinkFigures& idle = linkNamed(f, "sw:n2->switch");
        QCOMPARE(idle.bytes, uint64_t(0));
        QCOMPARE(idle.peakUtilisation, 0.0);
        QCOMPARE(f.messages.size(), size_t(2));
        for (const MessageFigures& m : f.messages) {
            QCOMPARE(m.hops, uint32_t(2));
            QCOMPARE(m.transferNs, 2'001'000.0);
            QCOMPARE(m.contentionNs, 1e6);
        }
        QCOMPARE(f.contentionNs, 2e6);
        QCOMPARE(f.hottest(1), std::vector<size_t>{5}); // switch -> n2 is link 2 x 2 + 1
    }

    void flowAloneHasNoContention()
    {
        // One flow: rate = its cap for its whole life, so nothing is lost; busy M / B.
        Program pr(3);
        const uint32_t a = pr.message(0, 2, 1'000'000);
        pr.send(0, a);
        pr.recv(2, a);
        const SimulationResult r = simulateProgram(
            pr.finish(), NetworkSpec::fromString(kCrossbar, "x.yaml"), withLinks("flow"));
        QCOMPARE(r.network->contentionNs, 0.0);
        QCOMPARE(r.network->messages[0].transferNs, 1'001'000.0);
        QCOMPARE(linkNamed(*r.network, "sw:switch->n2").busyNs, 1e6);
    }

    void packetHotSpotOnTorus()
    {
        // Nodes are x + 3y; dimension order routes x first, each the shorter way round. Node 0
        // receives from node 3 = (0,1) (2000 bytes: two packets), node 4 = (1,1) and node
        // 5 = (2,1) (1000 bytes: one packet each), all sent at 0. Routes: 3 -> 0 is the link
        // n3->n0; 4 -> 0 is n4->n3 (x down) then n3->n0; 5 -> 0 is n5->n3 (x up, round the
        // torus) then n3->n0. So n3->n0 is the hot spot. A packet holds a link 1000 ns.
        // - 3's packets: p0 holds n3->n0 0-1000 (arrives 1100), p1 asks when p0 releases it
        //   and holds it 1000-2000 (arrives 2100): its own packets, no contention.
        // - 4's and 5's packets hold their first links 0-1000 and reach n3 at 1100 (store and
        //   forward: whole packet + latency), in that order (rank 4 started before rank 5).
        //   4's waits for 3's p1 until 2000 (900 ns), holds 2000-3000, arrives 3100; 5's waits
        //   until 3000 (1900 ns), holds 3000-4000, arrives 4100, the end of the run.
        // n3->n0: 4000 bytes in 3 messages, busy 4000 of 4100 (peak 1.0),
        // contention 900 + 1900 = 2800.
        Program pr(9);
        const uint32_t a = pr.message(3, 0, 2000), b = pr.message(4, 0, 1000),
                       c = pr.message(5, 0, 1000);
        pr.send(3, a);
        pr.send(4, b);
        pr.send(5, c);
        pr.recv(0, a);
        pr.recv(0, b);
        pr.recv(0, c);
        const SimulationResult r = simulateProgram(
            pr.finish(), NetworkSpec::fromString(kTorus, "t.yaml"), withLinks("packet"));
        QCOMPARE(r.predictedRuntimeNs, int64_t(4100));
        const NetworkFigures& f = *r.network;
        QCOMPARE(f.windowNs, 64.0); // the last busy time, 4000, fits 64 windows of 64 ns
        const LinkFigures& hot = linkNamed(f, "torus:n3->n0");
        QCOMPARE(hot.bytes, uint64_t(4000));
        QCOMPARE(hot.messages, uint64_t(3));
        QCOMPARE(hot.busyNs, 4000.0);
        QCOMPARE(hot.utilisation, 4000.0 / 4100);
        QCOMPARE(hot.peakUtilisation, 1.0);
        QCOMPARE(hot.contentionNs, 2800.0);
        for (const char* feeder : {"torus:n4->n3", "torus:n5->n3"}) {
            const LinkFigures& l = linkNamed(f, feeder);
            QCOMPARE(l.bytes, uint64_t(1000));
            QCOMPARE(l.busyNs, 1000.0);
            QCOMPARE(l.contentionNs, 0.0);
        }
        QCOMPARE(f.messages[a], (MessageFigures{1, 2100, 0}));
        QCOMPARE(f.messages[b], (MessageFigures{2, 3100, 900}));
        QCOMPARE(f.messages[c], (MessageFigures{2, 4100, 1900}));
        QCOMPARE(f.contentionNs, 2800.0);
        QCOMPARE(f.links[f.hottest(1)[0]].info.name, std::string("torus:n3->n0"));
    }

    void loggpNicsOnPingPong()
    {
        // Two nodes on the crossbar (path: 2 x 500 ns, 1 byte/ns), o_s = o_r = 100 ns. Rank 0
        // sends A then B (1000 bytes each) to rank 1, which answers with C (1000 bytes).
        // A: posted 0, leaves at 100, holds n0's interface 100-1100, arrives 2100.
        // B: posted 100 (A's send done), ready 200, waits for the interface until 1100 (900 ns
        //    of contention), holds it 1100-2100, arrives 3100: transfer 3100 - 200 = 2900.
        // Rank 1: A received 2200, B posted 2200, received 3100 + 100 = 3200; C leaves at 3300,
        // holds n1's interface 3300-4300, arrives 5300; rank 0 receives it at 5400: the run.
        const NetworkSpec spec = NetworkSpec::fromString(
            std::string(kCrossbar) + "overhead: {send: 100ns, recv: 100ns}\n", "x.yaml",
            {{"nodes", "2"}});
        Program pr(2);
        const uint32_t a = pr.message(0, 1, 1000), b = pr.message(0, 1, 1000),
                       c = pr.message(1, 0, 1000);
        pr.send(0, a);
        pr.send(0, b);
        pr.recv(0, c);
        pr.recv(1, a);
        pr.recv(1, b);
        pr.send(1, c);
        const SimulationResult r = simulateProgram(pr.finish(), spec, withLinks("loggp"));
        QCOMPARE(r.predictedRuntimeNs, int64_t(5400));
        const NetworkFigures& f = *r.network;
        QCOMPARE(f.links.size(), size_t(2));
        const LinkFigures& n0 = f.links[0];
        QCOMPARE(n0.info, (LinkInfo{"sw:n0:nic", "nic", "n0", "sw"}));
        QCOMPARE(n0.bytes, uint64_t(2000));
        QCOMPARE(n0.messages, uint64_t(2));
        QCOMPARE(n0.busyNs, 2000.0);
        QCOMPARE(n0.utilisation, 2000.0 / 5400);
        QCOMPARE(n0.peakUtilisation, 1.0); // busy 100-2100 covers windows of 128 ns
        QCOMPARE(n0.contentionNs, 900.0);
        const LinkFigures& n1 = f.links[1];
        QCOMPARE(n1.bytes, uint64_t(1000));
        QCOMPARE(n1.busyNs, 1000.0);
        QCOMPARE(n1.utilisation, 1000.0 / 5400);
        QCOMPARE(n1.contentionNs, 0.0);
        QCOMPARE(f.messages[a], (MessageFigures{2, 2000, 0}));
        QCOMPARE(f.messages[b], (MessageFigures{2, 2900, 900}));
        QCOMPARE(f.messages[c], (MessageFigures{2, 2000, 0}));
        QCOMPARE(f.contentionNs, 900.0);
    }

    void offByDefaultAndSameTimes()
    {
        // Collecting changes no time; without asking nothing is collected.
        Program pr(9);
        const uint32_t a = pr.message(3, 0, 2000), b = pr.message(4, 0, 1000);
        pr.send(3, a);
        pr.send(4, b);
        pr.recv(0, a);
        pr.recv(0, b);
        const ActionProgram p = pr.finish();
        const NetworkSpec spec = NetworkSpec::fromString(kTorus, "t.yaml");
        for (const char* model : {"loggp", "packet", "flow"}) {
            SimulationOptions plain;
            plain.model = model;
            SimulationResult off = simulateProgram(p, spec, plain);
            SimulationResult on = simulateProgram(p, spec, withLinks(model));
            QVERIFY(!off.network);
            QVERIFY(on.network);
            on.network.reset();
            QVERIFY(on == off);
        }
    }
};

QTEST_GUILESS_MAIN(TestNetsimLinks)
#include "tst_netsimlinks.moc"
