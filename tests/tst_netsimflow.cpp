// The flow model (ALGORITHMS.md §7.3): max-min fair sharing of link bandwidth, re-solved when a
// flow starts or ends. Every expected time is worked out by hand in the comments.

#include "model/generator/tracegenerator.h"
#include "tst_netsimprogram.h"
#include "whatif/netsim/maxminsolver.h"
#include "whatif/netsim/simulation.h"

#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

// Three nodes with two ranks each on one switch; 500 ns per hop (L = 1000 ns), 1 byte/ns.
const char* kCrossbar = R"(
nodes: 3
ranks_per_node: 2
overhead: {send: 100ns, recv: 100ns}
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

// A chain n0 -a- n1 -b- n2 -c- n3 of 1, 2 and 3 bytes/ns, 10 ns per link, two ranks per node.
const char* kChain = R"(
nodes: 4
ranks_per_node: 2
links:
  a: {latency: 10ns, bandwidth: 8Gbps}
  b: {latency: 10ns, bandwidth: 16Gbps}
  c: {latency: 10ns, bandwidth: 24Gbps}
networks:
  chain:
    topology: explicit
    links:
      - {from: n0, to: n1, link: a}
      - {from: n1, to: n2, link: b}
      - {from: n2, to: n3, link: c}
)";

SimulationOptions flow()
{
    SimulationOptions o;
    o.model = "flow";
    return o;
}

/// Ranks 0 (node 0) and 2 (node 1) send to ranks 4 and 5 (both on node 2).
SimulationResult intoOneNode(uint64_t first, uint64_t second, const std::string& model,
                             const std::vector<SpecOverride>& set = {})
{
    Program pr(6);
    const uint32_t a = pr.message(0, 4, first), b = pr.message(2, 5, second);
    pr.send(0, a);
    pr.send(2, b);
    pr.recv(4, a);
    pr.recv(5, b);
    SimulationOptions o;
    o.model = model;
    return simulateProgram(pr.finish(), NetworkSpec::fromString(kCrossbar, "crossbar.yaml", set),
                           o);
}

// Two ranks on one node with a shared-memory link of 1 byte/ns and 50 ns, no network use.
const char* kOneNode = R"(
nodes: 1
ranks_per_node: 2
overhead: {send: 100ns, recv: 100ns}
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
  shm: {latency: 50ns, bandwidth: 8Gbps}
intra_node: shm
networks:
  sw: {topology: crossbar, link: nic}
)";

/// Ranks 0 and 1 of one node send each other 1000 bytes at once (eager), then receive.
SimulationResult swapOnOneNode(const std::vector<SpecOverride>& set)
{
    Program pr(2);
    const uint32_t a = pr.message(0, 1, 1000), b = pr.message(1, 0, 1000);
    pr.send(0, a);
    pr.send(1, b);
    pr.recv(1, a);
    pr.recv(0, b);
    return simulateProgram(pr.finish(), NetworkSpec::fromString(kOneNode, "one.yaml", set), flow());
}

} // namespace

class TestNetsimFlow : public QObject
{
    Q_OBJECT

private slots:
    void loneFlowCostsLPlusMOverB()
    {
        // No sharing: o_s + L + M/B + o_r = 100 + 1000 + 1000 + 100, as under LogGP.
        Program pr(6);
        const uint32_t m = pr.message(0, 2, 1000);
        pr.send(0, m);
        pr.recv(2, m);
        const SimulationResult r =
            simulateProgram(pr.finish(), NetworkSpec::fromString(kCrossbar, "x.yaml"), flow());
        QCOMPARE(r.perRank[2].endNs, int64_t(2200));
        QCOMPARE(r.model, std::string("flow"));
    }

    void twoFlowsOnOneLinkGetHalfEach()
    {
        // Both flows start at o_s = 100 and share node 2's link (1 byte/ns): 0.5 each, so 1000
        // bytes take 2000 ns: data out at 2100, arrival + L = 3100, received + o_r = 3200.
        const SimulationResult r = intoOneNode(1000, 1000, "flow");
        QCOMPARE(r.perRank[4].endNs, int64_t(3200));
        QCOMPARE(r.perRank[5].endNs, int64_t(3200));
        // LogGP has no contention: 100 + 1000 + 1000 + 100 = 2200 for both.
        const SimulationResult g = intoOneNode(1000, 1000, "loggp");
        QCOMPARE(g.perRank[4].endNs, int64_t(2200));
        QCOMPARE(g.perRank[5].endNs, int64_t(2200));
    }

    void sharingExponentSetsEachFlowsShare()
    {
        // sharing 0.5: node 2's link offers two flows 1 * 2^0.5 bytes/ns, 2^-0.5 each, so 1000
        // bytes take 1000 * sqrt(2) = 1414.2 ns: out at 1514.2, + L = 2514.2, + o_r = 2614.2.
        const SimulationResult half =
            intoOneNode(1000, 1000, "flow", {{"links.nic.sharing", "0.5"}});
        QCOMPARE(half.perRank[4].endNs, int64_t(100 + 1000 * std::sqrt(2.0) + 1000 + 100));
        QCOMPARE(half.perRank[5].endNs, half.perRank[4].endNs);
        // sharing 0: no contention, each flow at 1 byte/ns as if alone (2200, as under LogGP).
        const SimulationResult none = intoOneNode(1000, 1000, "flow", {{"links.nic.sharing", "0"}});
        QCOMPARE(none.perRank[4].endNs, int64_t(2200));
        // sharing 1 is the default: half each (3200, twoFlowsOnOneLinkGetHalfEach).
        const SimulationResult fair = intoOneNode(1000, 1000, "flow", {{"links.nic.sharing", "1"}});
        QCOMPARE(fair.perRank[4].endNs, int64_t(3200));
    }

    void congestionAboveMaxStreams()
    {
        // max_streams 1, congestion 1: two flows on node 2's link get 1 * (1/2)^1 in all, a
        // quarter byte/ns each: 1000 bytes take 4000 ns, out at 4100, + L = 5100, + o_r = 5200.
        const SimulationResult r = intoOneNode(
            1000, 1000, "flow", {{"links.nic.max_streams", "1"}, {"links.nic.congestion", "1"}});
        QCOMPARE(r.perRank[4].endNs, int64_t(5200));
        QCOMPARE(r.perRank[5].endNs, int64_t(5200));
        // Within the limit nothing changes: max_streams 2 gives the fair halves (3200).
        const SimulationResult within =
            intoOneNode(1000, 1000, "flow", {{"links.nic.max_streams", "2"}});
        QCOMPARE(within.perRank[4].endNs, int64_t(3200));
    }

    void sharedIntraNodeLink()
    {
        // Unset, the intra-node link shares nothing: 100 + 50 + 1000 / 1 + 100 = 1250 for both.
        const SimulationResult free = swapOnOneNode({});
        QCOMPARE(free.perRank[0].endNs, int64_t(1250));
        QCOMPARE(free.perRank[1].endNs, int64_t(1250));
        // sharing 1: the node's two messages share its 1 byte/ns: 1000 bytes take 2000 ns,
        // out at 2100, + 50 ns latency = 2150, received + o_r = 2250.
        const SimulationResult shared = swapOnOneNode({{"links.shm.sharing", "1"}});
        QCOMPARE(shared.perRank[0].endNs, int64_t(2250));
        QCOMPARE(shared.perRank[1].endNs, int64_t(2250));
    }

    void shareIsResolvedWhenAFlowEnds()
    {
        // 1000 and 3000 bytes: 0.5 each from 100; the first is out at 2100 (received 3200).
        // The second has sent 1000, then runs alone at 1 byte/ns: 2000 more, out at 4100,
        // arrival 5100, received 5200.
        const SimulationResult r = intoOneNode(1000, 3000, "flow");
        QCOMPARE(r.perRank[4].endNs, int64_t(3200));
        QCOMPARE(r.perRank[5].endNs, int64_t(5200));
    }

    void threeLinkMaxMin()
    {
        // f0: n0 -> n3 over a, b, c (2000 B); f1: n0 -> n1 over a (500 B); f2: n1 -> n2 over b
        // (2500 B); f3: n2 -> n3 over c (10000 B). No overheads, all start at 0.
        // [0, 1000): fair levels a 1/2, b 2/2, c 3/2: a is the bottleneck, f0 = f1 = 0.5; then
        //   b leaves 2 - 0.5 = 1.5 for f2 and c 3 - 0.5 = 2.5 for f3. f1 is out at 500/0.5 = 1000;
        //   by then f0 sent 500, f2 1500, f3 2500.
        // [1000, 2000): a 1/1, b 2/2, c 3/2: f0 = f2 = 1 (a and b full), f3 = 3 - 1 = 2.
        //   f2's last 1000 bytes are out at 2000; f0 has 500 left, f3 7500 - 2000 = 5500.
        // [2000, 2500): a 1, b 2, c 1.5: f0 = 1 (a), f3 = 2; f0 is out at 2500, f3 has 4500 left.
        // [2500, 4000): f3 alone on c at 3: out at 4000.
        // Arrivals add 10 ns per link: f1 1010, f2 2010, f0 2500 + 30 = 2530, f3 4010.
        Program pr(8);
        const uint32_t f0 = pr.message(0, 6, 2000), f1 = pr.message(1, 2, 500),
                       f2 = pr.message(3, 5, 2500), f3 = pr.message(4, 7, 10000);
        pr.send(0, f0);
        pr.send(1, f1);
        pr.send(3, f2);
        pr.send(4, f3);
        pr.recv(6, f0);
        pr.recv(2, f1);
        pr.recv(5, f2);
        pr.recv(7, f3);
        const SimulationResult r =
            simulateProgram(pr.finish(), NetworkSpec::fromString(kChain, "chain.yaml"), flow());
        QCOMPARE(r.perRank[2].endNs, int64_t(1010));
        QCOMPARE(r.perRank[5].endNs, int64_t(2010));
        QCOMPARE(r.perRank[6].endNs, int64_t(2530));
        QCOMPARE(r.perRank[7].endNs, int64_t(4010));
        QCOMPARE(r.predictedRuntimeNs, int64_t(4010));
    }

    void solverAlone()
    {
        // The first phase of threeLinkMaxMin as a bare problem, plus a flow capped below its
        // fair share: links a = 1, b = 2, c = 3; f0 {a, b, c}, f1 {a}, f2 {b}, f3 {c} and
        // f4 {c} capped at 0.25. Levels: f4's cap 0.25 comes first (f4 = 0.25, c left 2.75);
        // then a at 1/2: f0 = f1 = 0.5; then b 1.5 for f2, c 2.75 - 0.5 = 2.25 for f3.
        MaxMinSolver s;
        const uint32_t a = s.addLink(1), b = s.addLink(2), c = s.addLink(3);
        const uint32_t r0[] = {a, b, c}, r1[] = {a}, r2[] = {b}, r3[] = {c};
        s.addFlow(r0, 3, 100);
        s.addFlow(r1, 1, 100);
        s.addFlow(r2, 1, 100);
        s.addFlow(r3, 1, 100);
        s.addFlow(r3, 1, 0.25);
        QCOMPARE(s.solve(), (std::vector<double>{0.5, 0.5, 1.5, 2.25, 0.25}));
    }

    void deterministic()
    {
        GeneratorOptions g;
        g.pattern = "stencil2d";
        g.ranks = 16;
        g.iterations = 3;
        const Trace trace = generateTrace(g);
        const NetworkSpec spec =
            NetworkSpec::fromString(kCrossbar, "x.yaml").withOverrides({{"nodes", "16"}});
        SimulationOptions o = flow();
        o.buildTrace = true;
        const SimulationResult first = simulate(trace, spec, o);
        QVERIFY(first.predictedRuntimeNs > 0);
        QVERIFY(first == simulate(trace, spec, o));
    }
};

QTEST_GUILESS_MAIN(TestNetsimFlow)
#include "tst_netsimflow.moc"
