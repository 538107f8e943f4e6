// Link load over a time window (NetworkFigures::utilisationBetween) and the heaviest messages
// of each link (linkmessages.h), on hand-built cases; every expected value is worked out by
// hand in the comments.

#include "tst_netsimprogram.h"
#include "whatif/netsim/linkmessages.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

// Three nodes on one switch, 500 ns per hop, 1 byte/ns; every message eager.
const char* kCrossbar = R"(
nodes: 3
eager_limit: 16MiB
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

size_t linkIndex(const NetworkFigures& f, const std::string& name)
{
    for (size_t i = 0; i < f.links.size(); ++i)
        if (f.links[i].info.name == name) return i;
    qFatal("no link %s", name.c_str());
}

std::vector<uint32_t> ids(const std::vector<LinkMessage>& list)
{
    std::vector<uint32_t> out;
    for (const LinkMessage& m : list)
        out.push_back(m.message);
    return out;
}

} // namespace

class TestNetsimLinkWindow : public QObject
{
    Q_OBJECT

private slots:
    void windowsOfOneLink()
    {
        // One link busy [0, 10) and [20, 21), run 30 ns. 64 windows of 1 ns cover 21 ns, so the
        // width stays 1 ns: windows 0..9 and 20 hold 1 ns each.
        LinkRecorder rec(1, 0, 0.0);
        rec.busy(0, 0, 10);
        rec.busy(0, 20, 21);
        const NetworkFigures f = rec.figures({LinkInfo{"l", "c", "a", "b"}}, 30);
        QCOMPARE(f.windowNs, 1.0);
        QCOMPARE(f.windowBusyNs.size(), size_t(LinkRecorder::kWindows));
        // [5, 25): 5 ns of the first period, 1 of the second, over 20 ns.
        QCOMPARE(f.utilisationBetween(5, 25), std::vector<double>{6.0 / 20});
        // [9.5, 20.5): half of window 9 (0.5 ns) and half of window 20 (0.5 ns) over 11 ns.
        QCOMPARE(f.utilisationBetween(9.5, 20.5), std::vector<double>{1.0 / 11});
        // [0.5, 1.5): busy throughout.
        QCOMPARE(f.utilisationBetween(0.5, 1.5), std::vector<double>{1.0});
        // The whole run: 11 ns over 30, the run's utilisation.
        QCOMPARE(f.utilisationBetween(0, 30), std::vector<double>{11.0 / 30});
        QCOMPARE(f.links[0].utilisation, 11.0 / 30);
        // Idle span and an empty span.
        QCOMPARE(f.utilisationBetween(12, 18), std::vector<double>{0.0});
        QCOMPARE(f.utilisationBetween(7, 7), std::vector<double>{0.0});
    }

    void windowsOfTwoSharedFlows()
    {
        // Ranks 0 and 1 each send 1e6 bytes to rank 2 at 0 (flow model): switch -> n2 is full
        // from 0 to 2e6, each node's own link half full over the same time (tst_netsimlinks).
        // 64 windows of 2^15 = 32768 ns are the first to cover 2e6 (2^14 x 64 = 1,048,576 does
        // not). [0, 1e6) and [0, 65536) lie in the busy time: 1.0 and 0.5. [1,015,808 =
        // 31 x 32768, 1,998,848 = 61 x 32768) too. After the run: nothing.
        Program pr(3);
        const uint32_t a = pr.message(0, 2, 1'000'000), b = pr.message(1, 2, 1'000'000);
        pr.send(0, a);
        pr.send(1, b);
        pr.recv(2, a);
        pr.recv(2, b);
        SimulationOptions o;
        o.model = "flow";
        o.linkStats = true;
        const SimulationResult r =
            simulateProgram(pr.finish(), NetworkSpec::fromString(kCrossbar, "x.yaml"), o);
        const NetworkFigures& f = *r.network;
        QCOMPARE(f.windowNs, 32768.0);
        QCOMPARE(f.originNs, 0.0);
        const size_t hot = linkIndex(f, "sw:switch->n2"), up = linkIndex(f, "sw:n0->switch");
        const size_t idle = linkIndex(f, "sw:n2->switch");
        for (const auto& [from, to] :
             {std::pair{0.0, 1e6}, std::pair{0.0, 65536.0}, std::pair{1'015'808.0, 1'998'848.0}}) {
            const std::vector<double> u = f.utilisationBetween(from, to);
            QCOMPARE(u[hot], 1.0);
            QCOMPARE(u[up], 0.5);
            QCOMPARE(u[idle], 0.0);
        }
        QCOMPARE(f.utilisationBetween(3e6, 4e6)[hot], 0.0);
    }

    void heaviestMessagesPerLink()
    {
        // One message at a time, so none waits: m0 0 -> 2 1000 B at 0, m1 1 -> 2 4000 B at
        // 50 us, m2 0 -> 1 3000 B at 100 us, m3 0 -> 2 2000 B at 200 us. Alone a flow takes two
        // hops' latency (1000 ns) plus bytes / (1 byte/ns): m1 5000, m3 3000 ns. A packet
        // (4096 bytes by default, so each message is one) is stored and forwarded: it crosses
        // each of the two links whole, 2 x (500 + bytes): m1 9000, m3 5000 ns.
        Program pr(3);
        const uint32_t m0 = pr.message(0, 2, 1000), m1 = pr.message(1, 2, 4000);
        const uint32_t m2 = pr.message(0, 1, 3000), m3 = pr.message(0, 2, 2000);
        pr.send(0, m0);
        pr.compute(0, 100'000);
        pr.send(0, m2);
        pr.compute(0, 100'000);
        pr.send(0, m3);
        pr.compute(1, 50'000);
        pr.send(1, m1);
        pr.recv(1, m2);
        pr.recv(2, m0);
        pr.recv(2, m1);
        pr.recv(2, m3);
        const ActionProgram program = pr.finish();
        const NetworkSpec spec = NetworkSpec::fromString(kCrossbar, "x.yaml");
        for (const auto& [model, t1, t3] :
             {std::tuple{"flow", 5000.0, 3000.0}, std::tuple{"packet", 9000.0, 5000.0}}) {
            SimulationOptions o;
            o.model = model;
            o.linkStats = true;
            const SimulationResult r = simulateProgram(program, spec, o);
            const NetworkFigures& f = *r.network;
            const auto h = heaviestMessages(program, spec, model, f, 2);
            QCOMPARE(h.size(), f.links.size());
            // n0 -> switch carried m0, m2, m3: the two heaviest are m2 (3000 B), m3 (2000 B).
            QCOMPARE(ids(h[linkIndex(f, "sw:n0->switch")]), (std::vector<uint32_t>{m2, m3}));
            // switch -> n2 carried m0, m1, m3: m1 (4000 B), m3.
            const std::vector<LinkMessage>& in2 = h[linkIndex(f, "sw:switch->n2")];
            QCOMPARE(ids(in2), (std::vector<uint32_t>{m1, m3}));
            QCOMPARE(in2[0], (LinkMessage{m1, 1, 2, 4000, t1, 0.0}));
            QCOMPARE(in2[1], (LinkMessage{m3, 0, 2, 2000, t3, 0.0}));
            QCOMPARE(ids(h[linkIndex(f, "sw:switch->n1")]), std::vector<uint32_t>{m2});
            QCOMPARE(ids(h[linkIndex(f, "sw:n1->switch")]), std::vector<uint32_t>{m1});
            QVERIFY(h[linkIndex(f, "sw:n2->switch")].empty());
        }
        // LogGP: a message uses its sender's interface; node 0's carried m0, m2, m3.
        SimulationOptions o;
        o.linkStats = true;
        const SimulationResult r = simulateProgram(program, spec, o);
        const auto h = heaviestMessages(program, spec, "loggp", *r.network, 5);
        QCOMPARE(ids(h[linkIndex(*r.network, "sw:n0:nic")]), (std::vector<uint32_t>{m2, m3, m0}));
        QCOMPARE(ids(h[linkIndex(*r.network, "sw:n1:nic")]), std::vector<uint32_t>{m1});
        QVERIFY(h[linkIndex(*r.network, "sw:n2:nic")].empty());
    }

    void equalSizesGoByContentionThenOrder()
    {
        // Ranks 0 and 1 send 1e6 bytes each to rank 2 at 0 and share switch -> n2: each takes
        // 2,001,000 ns and waits 1e6 ns (tst_netsimlinks). They tie on bytes and contention,
        // so message order decides: kept to one, the list is m0.
        Program pr(3);
        const uint32_t m0 = pr.message(0, 2, 1'000'000), m1 = pr.message(1, 2, 1'000'000);
        pr.send(0, m0);
        pr.send(1, m1);
        pr.recv(2, m0);
        pr.recv(2, m1);
        const ActionProgram program = pr.finish();
        const NetworkSpec spec = NetworkSpec::fromString(kCrossbar, "x.yaml");
        SimulationOptions o;
        o.model = "flow";
        o.linkStats = true;
        const SimulationResult r = simulateProgram(program, spec, o);
        const auto h = heaviestMessages(program, spec, "flow", *r.network, 1);
        const std::vector<LinkMessage>& in2 = h[linkIndex(*r.network, "sw:switch->n2")];
        QCOMPARE(in2, (std::vector<LinkMessage>{{m0, 0, 2, 1'000'000, 2'001'000.0, 1e6}}));
    }
};

QTEST_GUILESS_MAIN(TestNetsimLinkWindow)
#include "tst_netsimlinkwindow.moc"
