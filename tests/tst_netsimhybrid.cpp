// Hybrid networks (ALGORITHMS.md §9): the channel policy per message and the hybrid Bcast /
// Allgather step placement, against closed forms under the analytic LogGP model.
//
// Machine: 16 nodes (one rank each) on a crossbar switch (link latency 1 us per hop, two hops
// node -> switch -> node, so 2 us; 1 byte/ns) and two 8-node sub-clusters whose direct network
// is a 2 x 4 double ring (100 ns per hop, 2 bytes/ns): ring 0..3 and ring 4..7 of each
// sub-cluster, joined rung by rung (j <-> j + 4). Overheads are zero and every message is
// eager, so a message of b bytes on h direct hops costs 100·h + b/2 ns, on the switch
// 2000 + b ns, and a node's two interfaces (one per network) work independently.

#include "whatif/netsim/machine.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

const char* kHybrid = R"(
nodes: 16
eager_limit: 1GiB
links:
  ib: {latency: 1us, bandwidth: 8Gbps}
  tca: {latency: 100ns, bandwidth: 16Gbps}
networks:
  ib: {topology: crossbar, link: ib}
  tca: {topology: double_ring, group: 8, link: tca}
policy:
  direct: tca
  fallback: ib
  same_subcluster: true
  max_bytes: 2KiB
  max_hops: 3
)";

constexpr double kSwitchNs = 2000; // latency of a switched route
constexpr double kHopNs = 100;     // latency of one direct hop

double onSwitch(double bytes)
{
    return kSwitchNs + bytes;
}

double direct(uint32_t hops, double bytes)
{
    return kHopNs * hops + bytes / 2;
}

int64_t runtime(const char* op, const char* algorithm, uint64_t bytes,
                std::vector<SpecOverride> overrides = {})
{
    const NetworkSpec spec = NetworkSpec::fromString(kHybrid, "hybrid.yaml", overrides);
    SimulationOptions o;
    o.collectiveAlgorithms = {{op, algorithm}};
    const SimulationResult r =
        simulateProgram(singleCollectiveProgram(*collKindFromName(op), 16, 0, bytes), spec, o);
    for (const RankTimes& t : r.perRank) // every rank but the root waits for data
        if (t.rank != 0 && t.endNs <= 0) return -1;
    return r.predictedRuntimeNs;
}

} // namespace

class TestNetsimHybrid : public QObject
{
    Q_OBJECT

private slots:
    void hybridPlacementHonoursEveryLimit()
    {
        const NetworkSpec spec = NetworkSpec::fromString(kHybrid, "hybrid.yaml");
        const Machine m(spec, 16);
        // Network 0 is the switch, 1 the double ring.
        QCOMPARE(m.channel(0, 1, 1000), 1);
        QCOMPARE(m.channel(0, 1, 10000), 0);                    // above max_bytes
        QCOMPARE(m.channel(0, 1, 10000, Placement::Hybrid), 0); // a hybrid step too
        QCOMPARE(m.channel(0, 8, 100, Placement::Hybrid), 0);   // another sub-cluster
        // 0 -> 6: rung to 4, two steps round the ring: 3 hops, allowed; with max_hops 2 not.
        QCOMPARE(m.channel(0, 6, 100, Placement::Hybrid), 1);
        const NetworkSpec tight = spec.withOverrides({{"policy.max_hops", "2"}});
        const Machine t(tight, 16);
        QCOMPARE(t.channel(0, 6, 100, Placement::Hybrid), 0);
        QCOMPARE(t.channel(0, 4, 100, Placement::Hybrid), 1);
    }

    void hybridBcast()
    {
        // Far-first binomial from rank 0, M = 10000 bytes, with max_bytes raised to 16 KiB
        // (under the plain policy the steps follow the same threshold). Round 0: 0 -> 8 on the
        // switch, arriving at T0 = 2000 + 10000. Then inside each sub-cluster on the ring: distance
        // 4 (the rung, 1 hop), 2 (2 hops), 1 (1 hop). The latest rank is 15: 8 -> 12 (1 hop), 12 ->
        // 14 (2 hops), 14 -> 15 (1 hop), each sent as soon as it arrived: T0 + 4·100 + 3·5000. (8's
        // own later sends queue on its interface: 8 -> 9 leaves at T0 + 2·5000 and arrives T0 + 100
        // + 15000, earlier.)
        const double m = 10000;
        const double t0 = onSwitch(m);
        const double expected = t0 + direct(1, m) + direct(2, m) + direct(1, m);
        const std::vector<SpecOverride> wide = {{"policy.max_bytes", "16KiB"}};
        QCOMPARE(runtime("bcast", "hybrid", uint64_t(m), wide), int64_t(expected));
        QCOMPARE(int64_t(expected), int64_t(27400));

        // With max_hops 1 the 2-hop steps move back to the switch: 12 -> 14 now costs
        // 2000 + 10000 (12's switch interface is idle), so 15 gets the data at
        // T0 + (100 + 5000) + 12000 + (100 + 5000). Other chains are shorter: 8 -> 10 on
        // the switch at T0 then 10 -> 11: T0 + 12000 + 5100.
        const double hopLimited = t0 + direct(1, m) + onSwitch(m) + direct(1, m);
        QCOMPARE(runtime("bcast", "hybrid", uint64_t(m),
                         {{"policy.max_bytes", "16KiB"}, {"policy.max_hops", "1"}}),
                 int64_t(hopLimited));

        // Above max_bytes (2 KiB) every step takes the switch, as in a binomial bcast: the
        // root sends four times back to back and the deepest chain 0 -> 8 -> 12 -> 14 -> 15
        // has four switched steps, 4 (2000 + M) = 48000 (hybridFallsBackOnOneNetwork).
        QCOMPARE(runtime("bcast", "hybrid", uint64_t(m)), int64_t(4 * onSwitch(m)));
        QCOMPARE(runtime("bcast", "binomial", uint64_t(m)), int64_t(4 * onSwitch(m)));
    }

    void hybridAllgather()
    {
        // Recursive doubling over 16 ranks gathering M = 16000 bytes: round g exchanges
        // M·2^g/16 bytes with rank r XOR 2^g. g = 0: 1000 bytes, 1 hop; g = 1: 2000 bytes,
        // 2 hops (0 <-> 2 round a ring of 4); g = 2: 4000 bytes over the rung, 1 hop;
        // g = 3: 8000 bytes to the other sub-cluster, on the switch. Every rank sends and
        // receives once per round, so the rounds add up.
        // (max_bytes raised to 8 KiB, so every round inside a sub-cluster may go direct.)
        const std::vector<SpecOverride> wide = {{"policy.max_bytes", "8KiB"}};
        const double expected =
            direct(1, 1000) + direct(2, 2000) + direct(1, 4000) + onSwitch(8000);
        QCOMPARE(runtime("allgather", "hybrid", 16000, wide), int64_t(expected));
        QCOMPARE(int64_t(expected), int64_t(13900));

        // With the 2 KiB threshold the 4000-byte round goes to the switch, in the hybrid
        // allgather as in plain recursive doubling.
        const double plain = direct(1, 1000) + direct(2, 2000) + onSwitch(4000) + onSwitch(8000);
        QCOMPARE(runtime("allgather", "recursive_doubling", 16000), int64_t(plain));
        QCOMPARE(runtime("allgather", "hybrid", 16000), int64_t(plain));
    }

    void hybridFallsBackOnOneNetwork()
    {
        // Without a second network the placement has nothing to choose: the far-first tree
        // on the switch alone, log2 16 = 4 steps of 2000 + M, as a binomial bcast costs.
        const char* flat = R"(
nodes: 16
eager_limit: 1GiB
links:
  ib: {latency: 1us, bandwidth: 8Gbps}
networks:
  ib: {topology: crossbar, link: ib}
)";
        const NetworkSpec spec = NetworkSpec::fromString(flat, "flat.yaml");
        SimulationOptions o;
        o.collectiveAlgorithms = {{"bcast", "hybrid"}};
        const SimulationResult r =
            simulateProgram(singleCollectiveProgram(CollKind::Bcast, 16, 0, 1000), spec, o);
        // The root sends four times back to back on one interface: 0 -> 8 leaves at 0,
        // 0 -> 4 at 1000, 0 -> 2 at 2000, 0 -> 1 at 3000; the deepest chain is
        // 0 -> 8 -> 12 -> 14 -> 15, each hop 3000 after the previous arrival.
        QCOMPARE(r.predictedRuntimeNs, int64_t(4 * onSwitch(1000)));
    }
};

QTEST_GUILESS_MAIN(TestNetsimHybrid)
#include "tst_netsimhybrid.moc"
