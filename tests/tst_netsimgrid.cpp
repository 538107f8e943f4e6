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
// Scatter, gather, allgather and alltoall share M out in blocks of M/P = 1000 bytes (P = 2S = 8
// members); gridschedule.h says where a form's cost differs from §8's formula and why. In a
// rooted operation, or one ending with the wide-area phase, members leave the last phase as
// their part is done: there every member must end within the last phase.

#include "whatif/netsim/simulation.h"

#include <QTest>
#include <cmath>

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

constexpr double L = 10000, M = 8000, S = 4, P = 2 * S;
constexpr double inCluster = (S - 1) / S * M; // (S-1)/S·M/B with B = 1 byte/ns
constexpr double block = M / P;               // one member's share of a shared-out M

/// ceil(S/n): the pieces each of the n wide-area streams carries.
double perStream(uint32_t n)
{
    return std::ceil(S / n);
}

/// The simulated run time of one collective on all 8 ranks. Every member ends with the last
/// phase: at its end, or when `lastPhase` (the time it starts) is given, within it.
int64_t runtime(CollKind kind, const char* op, const char* algorithm, uint32_t streams,
                uint32_t root = 0, double lastPhase = -1, const char* eagerLimit = "1GiB")
{
    const NetworkSpec spec = NetworkSpec::fromString(
        kGrid, "grid.yaml",
        {{"wide_area_streams", std::to_string(streams)}, {"eager_limit", eagerLimit}});
    SimulationOptions o;
    o.collectiveAlgorithms = {{op, algorithm}};
    const SimulationResult r =
        simulateProgram(singleCollectiveProgram(kind, 8, root, uint64_t(M)), spec, o);
    for (const RankTimes& t : r.perRank) {
        const bool within =
            lastPhase < 0 ? t.endNs == r.predictedRuntimeNs : t.endNs >= int64_t(lastPhase);
        if (!within) return -1;
    }
    return r.predictedRuntimeNs;
}

/// Rows over n (n = 3: ceil(S/n) = 2 rounds across, streams 1 and 2 idle in the second) and,
/// for the rooted operations, roots other than member 0.
void streamRows(bool roots)
{
    QTest::addColumn<uint32_t>("n");
    QTest::addColumn<uint32_t>("root");
    for (uint32_t n : {1u, 2u, 3u, 4u})
        QTest::addRow("n=%u", n) << n << 0u;
    if (!roots) return;
    QTest::newRow("n=1, root 2") << 1u << 2u;
    QTest::newRow("n=2, root 5 (second cluster)") << 2u << 5u;
}

/// Every grid form and what an odd member count runs instead.
struct GridForm
{
    CollKind kind;
    const char* op;
    const char* algorithm;
    const char* oneCluster;
};
constexpr GridForm kForms[] = {
    {CollKind::Bcast, "bcast", "extended_van_de_geijn", "van_de_geijn"},
    {CollKind::Bcast, "bcast", "farfirst", "van_de_geijn"},
    {CollKind::Allreduce, "allreduce", "extended_rabenseifner", "rabenseifner"},
    {CollKind::Allreduce, "allreduce", "twotier", "rabenseifner"},
    {CollKind::Scatter, "scatter", "grid", "linear"},
    {CollKind::Gather, "gather", "grid", "linear"},
    {CollKind::Allgather, "allgather", "grid", "recursive_doubling"},
    {CollKind::ReduceScatter, "reduce_scatter", "grid", "recursive_halving"},
    {CollKind::Alltoall, "alltoall", "grid", "pairwise"},
    {CollKind::Reduce, "reduce", "extended_rabenseifner", "rabenseifner"},
    {CollKind::Reduce, "reduce", "twotier", "rabenseifner"},
};

/// Two clusters of 5 nodes with latency and overheads everywhere.
const char* kBigGrid = R"(
nodes: 10
overhead: {send: 100ns, recv: 150ns}
links:
  nic: {latency: 1us, bandwidth: 10Gbps}
  wan: {latency: 2ms, bandwidth: 40Gbps}
networks:
  grid: {topology: clusters, dims: [5, 5], link: nic, wan: wan}
)";

SimulationResult runOn(const char* yaml, const GridForm& f, const char* algorithm, uint32_t members,
                       uint32_t root, uint64_t bytes, uint32_t streams)
{
    const NetworkSpec spec = NetworkSpec::fromString(
        yaml, "grid.yaml", {{"wide_area_streams", std::to_string(streams)}});
    SimulationOptions o;
    o.collectiveAlgorithms = {{f.op, algorithm}};
    return simulateProgram(singleCollectiveProgram(f.kind, members, root, bytes), spec, o);
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

    void extendedVanDeGeijnPipelinesRendezvousPieces()
    {
        // With the eager limit at 1 KiB every 2000-byte piece is a rendezvous message, which a
        // blocking send would hold until it arrived: one wide-area latency per piece across
        // (n = 1: L + 4 (L + 2000) + ...). Sent as an MPI library pipelines them, the pieces
        // leave back to back and the latency is paid once: the cost formula's
        // L + M/(nB) + 2 (S-1)/S M/B, which for n = 1 is farfirst's (30000, farfirst()). With
        // n = 4 every node is a stream and sends once.
        // With n = 2 and 3 a stream sends ceil(S/n) = 2 pieces (the wide-area phase's
        // ceil(S/n)·M/(S·B)): its first piece, posted first, must not wait for the second
        // (the engine may hand them to the model in the other order).
        for (uint32_t n : {1u, 2u, 3u, 4u})
            QCOMPARE(runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", n, 0, -1, "1KiB"),
                     int64_t(L + perStream(n) * M / S + 2 * inCluster));
        QCOMPARE(runtime(CollKind::Bcast, "bcast", "farfirst", 1, 0, -1, "1KiB"), int64_t(30000));
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

    void gridScatter_data() { streamRows(true); }
    void gridScatter()
    {
        // The root sends the far half, M/2, to its counterpart: L + M/2B = 14000; then both
        // scatter (S-1) blocks of M/P: 3000. L + (P-1)/P·M/B, n plays no part.
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, root);
        const double across = L + M / 2;
        QCOMPARE(runtime(CollKind::Scatter, "scatter", "grid", n, root, across),
                 int64_t(across + (S - 1) * block));
        QCOMPARE(int64_t(across + (S - 1) * block), int64_t(L + (P - 1) / P * M));
    }

    void gridGather_data() { streamRows(true); }
    void gridGather()
    {
        // Binomial gathers of M/P blocks (1000, then 2000): 3000; then the far half to the
        // root: L + M/2B. L + (P-1)/P·M/B again, whatever n is.
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, root);
        const double gathered = (S - 1) * block;
        QCOMPARE(runtime(CollKind::Gather, "gather", "grid", n, root, gathered),
                 int64_t(gathered + L + M / 2));
    }

    void gridAllgather_data() { streamRows(false); }
    void gridAllgather()
    {
        // Each block to the counterpart through the n streams, both ways at once:
        // L + ceil(S/n)·M/PB (= L + M/2nB); then a ring of block pairs, M/S: (S-1)/S·M/B.
        QFETCH(uint32_t, n);
        QCOMPARE(runtime(CollKind::Allgather, "allgather", "grid", n),
                 int64_t(L + perStream(n) * block + inCluster));
    }

    void gridReduceScatter_data() { streamRows(false); }
    void gridReduceScatter()
    {
        // Ring reduce-scatter of M/S pieces: (S-1)/S·M/B; then counterparts trade the halves
        // of their piece the other keeps (M/P), n at a time: L + ceil(S/n)·M/PB. The streams
        // deliver in turn, so members end as their half arrives.
        QFETCH(uint32_t, n);
        QCOMPARE(runtime(CollKind::ReduceScatter, "reduce_scatter", "grid", n, 0, inCluster),
                 int64_t(inCluster + L + perStream(n) * block));
    }

    void extendedRabenseifnerReduce_data() { streamRows(true); }
    void extendedRabenseifnerReduce()
    {
        // L + M/(nB) + M/B + M/B: ring reduce-scatter (S-1)/S·M/B; the far cluster's pieces
        // (M/S) across, ceil(S/n) per stream: L + M/nB; binomial gather to the root in its
        // cluster (2000, then 4000), while the far cluster is done.
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, root);
        const double crossed = inCluster + L + perStream(n) * M / S;
        QCOMPARE(runtime(CollKind::Reduce, "reduce", "extended_rabenseifner", n, root, crossed),
                 int64_t(crossed + inCluster));
    }

    void twotierReduce_data() { streamRows(true); }
    void twotierReduce()
    {
        // L + M/B + M/B + M/B: reduce in each cluster = ring reduce-scatter + binomial gather,
        // 6000 + 6000; the far result, a whole vector, to the root: M/B + L.
        QFETCH(uint32_t, n);
        QFETCH(uint32_t, root);
        const double reduced = 2 * inCluster;
        QCOMPARE(runtime(CollKind::Reduce, "reduce", "twotier", n, root, reduced),
                 int64_t(reduced + M + L));
    }

    void gridAlltoall_data() { streamRows(false); }
    void gridAlltoall()
    {
        // Each member's parcel for the far cluster (M/2) to its counterpart through the n
        // streams: L + ceil(S/n)·M/2B; then a pairwise exchange of (own block, relayed block),
        // M/S per round: (S-1)/S·M/B.
        QFETCH(uint32_t, n);
        QCOMPARE(runtime(CollKind::Alltoall, "alltoall", "grid", n),
                 int64_t(L + perStream(n) * M / 2 + inCluster));
    }

    void messagesAddUp()
    {
        // n = 2: a counter phase is S messages across and S - n handed in per sending
        // cluster; a ring or pairwise phase S (S-1) per cluster, a scatter or a binomial
        // gather S - 1.
        auto messages = [](CollKind kind, const char* op, const char* algorithm) {
            const NetworkSpec spec =
                NetworkSpec::fromString(kGrid, "grid.yaml", {{"wide_area_streams", "2"}});
            SimulationOptions o;
            o.collectiveAlgorithms = {{op, algorithm}};
            return simulateProgram(singleCollectiveProgram(kind, 8, 3, uint64_t(M)), spec, o)
                .messages;
        };
        const uint64_t s = uint64_t(S), counter = s + (s - 2), ring = s * (s - 1);
        QCOMPARE(messages(CollKind::Scatter, "scatter", "grid"), 1 + 2 * (s - 1));
        QCOMPARE(messages(CollKind::Gather, "gather", "grid"), 2 * (s - 1) + 1);
        QCOMPARE(messages(CollKind::Allgather, "allgather", "grid"), 2 * counter + 2 * ring);
        QCOMPARE(messages(CollKind::ReduceScatter, "reduce_scatter", "grid"),
                 2 * ring + 2 * counter);
        QCOMPARE(messages(CollKind::Alltoall, "alltoall", "grid"), 2 * counter + 2 * ring);
        QCOMPARE(messages(CollKind::Reduce, "reduce", "extended_rabenseifner"),
                 2 * ring + counter + (s - 1));
        QCOMPARE(messages(CollKind::Reduce, "reduce", "twotier"), 2 * ring + 2 * (s - 1) + 1);
    }

    void moreStreamsHelpUntilEachNodeHasOne()
    {
        // n beyond S is clamped to S: every node of the cluster already has its own stream.
        QCOMPARE(runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", 16),
                 runtime(CollKind::Bcast, "bcast", "extended_van_de_geijn", 4));
    }

    void everyFormEvenCountsOnABiggerMachine()
    {
        // Every member takes part (ends after 0) and nobody waits forever (that throws), with
        // eager messages and with rendezvous ones (1 MiB: pieces above the 64 KiB eager limit),
        // for the first and the last member as root. With 10 members the halves are the
        // clusters, so every form crosses the wide area: at least its 2 ms. (With rendezvous,
        // streams sending both ways once waited for each other forever: gridschedule.h.)
        for (const GridForm& f : kForms)
            for (uint32_t p : {2u, 6u, 8u, 10u})
                for (uint32_t n : {1u, 2u, 3u})
                    for (uint64_t bytes : {uint64_t(6000), uint64_t(1) << 20})
                        for (uint32_t root : {0u, p - 1}) {
                            const QString what = QString("%1 %2 P=%3 n=%4 M=%5 root=%6")
                                                     .arg(f.op, f.algorithm)
                                                     .arg(p)
                                                     .arg(n)
                                                     .arg(bytes)
                                                     .arg(root);
                            const SimulationResult r =
                                runOn(kBigGrid, f, f.algorithm, p, root, bytes, n);
                            QVERIFY2(r.perRank.size() == p, qPrintable(what));
                            for (const RankTimes& t : r.perRank)
                                QVERIFY2(t.endNs > 0, qPrintable(what));
                            QVERIFY2(p < 10 || r.predictedRuntimeNs >= 2000000, qPrintable(what));
                        }
    }

    void oddCountsRunTheOneClusterForms()
    {
        for (const GridForm& f : kForms)
            for (uint32_t p : {7u, 9u}) {
                const SimulationResult grid = runOn(kBigGrid, f, f.algorithm, p, 2, 6000, 2);
                const SimulationResult plain = runOn(kBigGrid, f, f.oneCluster, p, 2, 6000, 2);
                QCOMPARE(grid.predictedRuntimeNs, plain.predictedRuntimeNs);
                QCOMPARE(grid.perRank, plain.perRank);
            }
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
