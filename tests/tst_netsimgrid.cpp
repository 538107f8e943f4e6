// The grid collectives of ALGORITHMS.md §8 against their cost formulas, under the analytic
// model with the intra-cluster latency and the overheads at zero.
//
// Machine: two clusters of S = 4 nodes (one rank each, block mapping) on 1 byte/ns NICs with no
// latency, joined by a 10 us wide-area link (faster than a NIC, so a route's bandwidth B is the
// NIC's). Every message is eager. M = 8000 bytes, a piece M/S = 2000 bytes = 2000 ns.
// Decision: the formulas' "M/B" for a phase inside a cluster (scatter, allgather, reduce-scatter,
// gather over S nodes) is what such a phase really moves through the busiest NIC,
// (S-1)/S·M/B = 6000 ns here; a whole-vector message across is M/B = 8000 ns, and the
// wide-area phase ceil(S/n)·M/(S·B), which is M/(nB) when n divides S.

#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

const char* kGrid = R"(
nodes: 8
eager_limit: 1GiB
links:
  nic: {latency: 0ns, bandwidth: 8Gbps}
  wan: {latency: 10us, bandwidth: 100Gbps}
networks:
  grid: {topology: clusters, dims: [4, 4], link: nic, wan: wan}
)";

constexpr double L = 10000, M = 8000, S = 4;
constexpr double inCluster = (S - 1) / S * M; // (S-1)/S·M/B with B = 1 byte/ns

/// The simulated run time of one collective on all 8 ranks.
int64_t runtime(CollKind kind, const char* op, const char* algorithm, uint32_t streams,
                uint32_t root = 0)
{
    const NetworkSpec spec = NetworkSpec::fromString(
        kGrid, "grid.yaml", {{"wide_area_streams", std::to_string(streams)}});
    SimulationOptions o;
    o.collectiveAlgorithms = {{op, algorithm}};
    const SimulationResult r =
        simulateProgram(singleCollectiveProgram(kind, 8, root, uint64_t(M)), spec, o);
    for (const RankTimes& t : r.perRank) // every member ends with the last phase
        if (t.endNs != r.predictedRuntimeNs) return -1;
    return r.predictedRuntimeNs;
}

} // namespace

class TestNetsimGrid : public QObject
{
    Q_OBJECT

private slots:
    void extendedVanDeGeijn_data()
    {
        QTest::addColumn<uint32_t>("n");
        QTest::addColumn<uint32_t>("root");
        // L + M/(nB) + M/B + M/B = 10000 + 8000/n + 6000 + 6000.
        QTest::newRow("n=1") << 1u << 0u;
        QTest::newRow("n=2") << 2u << 0u;
        QTest::newRow("n=4") << 4u << 0u;
        QTest::newRow("n=2, root in the second cluster") << 2u << 6u;
    }
    void extendedVanDeGeijn()
    {
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, root);
        const double expected = L + M / n + inCluster + inCluster;
        QCOMPARE(runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", n, root),
                 int64_t(expected));
    }

    void farfirst()
    {
        // L + M/B + (M/B + M/B) = 10000 + 8000 + 6000 + 6000 = 30000, whatever n is.
        for (uint32_t n : {1u, 4u})
            QCOMPARE(runtime(CollKind::Bcast, "bcast", "farfirst", n), int64_t(30000));
        QCOMPARE(int64_t(L + M + 2 * inCluster), int64_t(30000));
    }

    void extendedRabenseifner_data()
    {
        QTest::addColumn<uint32_t>("n");
        QTest::newRow("n=1") << 1u;
        QTest::newRow("n=2") << 2u;
        QTest::newRow("n=4") << 4u;
    }
    void extendedRabenseifner()
    {
        // L + M/(nB) + M/B + M/B: both directions at once cost no more than one.
        QFETCH(uint32_t, n);
        QCOMPARE(runtime(CollKind::Allreduce, "allreduce", "extended_rabenseifner", n),
                 int64_t(L + M / n + 2 * inCluster));
    }

    void twotier()
    {
        // L + M/B + 2 (M/B + M/B): reduce = ring reduce-scatter 6000 + binomial gather
        // (2000, then 4000) 6000; exchange 8000 + 10000; bcast = scatter 6000 + allgather 6000.
        QCOMPARE(runtime(CollKind::Allreduce, "allreduce", "twotier", 2),
                 int64_t(L + M + 4 * inCluster));
        QCOMPARE(int64_t(L + M + 4 * inCluster), int64_t(42000));
    }

    void moreStreamsHelpUntilEachNodeHasOne()
    {
        // n beyond S is clamped to S: every node of the cluster already has its own stream.
        QCOMPARE(runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", 16),
                 runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", 4));
    }

    void oddMemberCountRunsTheOneClusterForm()
    {
        const NetworkSpec spec = NetworkSpec::fromString(kGrid, "grid.yaml");
        SimulationOptions grid, plain;
        grid.collectiveAlgorithms = {{"bcast", "extended_van_de_geijn"}};
        plain.collectiveAlgorithms = {{"bcast", "van_de_geijn"}};
        const ActionProgram p = singleCollectiveProgram(CollKind::Bcast, 7, 0, uint64_t(M));
        QCOMPARE(simulateProgram(p, spec, grid).predictedRuntimeNs,
                 simulateProgram(p, spec, plain).predictedRuntimeNs);
    }
};

QTEST_GUILESS_MAIN(TestNetsimGrid)
#include "tst_netsimgrid.moc"
