// Collective algorithms (ALGORITHMS.md §8) under LogGP, against closed forms worked out by hand.
// Network: crossbar, L = 1000 ns (two 500 ns links), G = 1 ns/byte, o_s = o_r = 100 ns; so one
// eager message of b bytes costs o_s + L + b·G + o_r = 1200 + b ns from post to receipt.

#include "model/trace/traceerror.h"
#include "whatif/netsim/simulation.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

const char* kCrossbar = R"(
nodes: 64
overhead: {send: 100ns, recv: 100ns}
links:
  nic: {latency: 500ns, bandwidth: 8Gbps}
networks:
  sw: {topology: crossbar, link: nic}
)";

SimulationResult runCollective(const char* op, const char* alg, uint32_t p, uint64_t bytes,
                               uint32_t root = 0)
{
    const NetworkSpec spec = NetworkSpec::fromString(kCrossbar, "crossbar.yaml");
    SimulationOptions o;
    o.collectiveAlgorithms = {{op, alg}};
    return simulateProgram(singleCollectiveProgram(*collKindFromName(op), p, root, bytes), spec, o);
}

} // namespace

class TestCollectiveAlgorithms : public QObject
{
    Q_OBJECT

private slots:
    void closedForms_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("alg");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("expected");
        // Binomial bcast, P = 2^m: the last rank hears through m first-sends in a row
        // (0 -> 1 -> 3 -> 7): m (1200 + M) = 3 x 2200.
        QTest::newRow("bcast binomial 8") << "bcast"
                                          << "binomial" << 8 << 1000ll << 6600ll;
        // Recursive doubling allreduce, P = 2^m: m rounds of one exchange (1200 + M).
        QTest::newRow("allreduce rd 8") << "allreduce"
                                        << "recursive_doubling" << 8 << 1000ll << 6600ll;
        // P = 6 (p' = 4, rem = 2): pre-round 1 -> 0 and 3 -> 2 end at 2200; round 1 pairs
        // (0,2) end at 4400, (4,5) at 2200; round 2: 0 <-> 4: 4's message posted at 2200
        // arrives 4300, but 0 posted its receive at 4400 + 100: done 4600 (2 <-> 5 alike).
        // 0's own round-2 message holds its interface from 4500 to 5500, so the post-round
        // 0 -> 1 (posted 4600, ready 4700) starts at 5500, arrives 7500, received 7600.
        QTest::newRow("allreduce rd 6") << "allreduce"
                                        << "recursive_doubling" << 6 << 1000ll << 7600ll;
        // Ring allgather, P = 4, M = 4000: 3 rounds of 1000-byte blocks, 2200 each.
        QTest::newRow("allgather ring 4") << "allgather"
                                          << "ring" << 4 << 4000ll << 6600ll;
        // Ring allreduce, P = 4: 2 (P - 1) rounds of M/P = 1000: 6 x 2200.
        QTest::newRow("allreduce ring 4") << "allreduce"
                                          << "ring" << 4 << 4000ll << 13200ll;
        // Pairwise alltoall, P = 4, M = 4000: 3 rounds of 1000-byte exchanges, 2200 each.
        QTest::newRow("alltoall pairwise 4") << "alltoall"
                                             << "pairwise" << 4 << 4000ll << 6600ll;
        // Dissemination barrier, P = 5: ceil(log2 5) = 3 rounds of empty messages, 1200 each.
        QTest::newRow("barrier 5") << "barrier"
                                   << "dissemination" << 5 << 0ll << 3600ll;
        // Bruck allgather, P = 4, M = 4000: rounds of 1 and 2 blocks: 2200 + 3200.
        QTest::newRow("allgather bruck 4") << "allgather"
                                           << "bruck" << 4 << 4000ll << 5400ll;
        // Linear gather, P = 3, M = 3000: ranks 1 and 2 send 1000 bytes at once; receiving
        // does not serialise, so both arrive at 2100; the root takes them in turn, paying o_r
        // each: 2100 + 100 = 2200, then 2200 + 100 = 2300.
        QTest::newRow("gather linear 3") << "gather"
                                         << "linear" << 3 << 3000ll << 2300ll;
        // Linear bcast, P = 3, M = 1000: the root's second send waits for its interface
        // (free at 100 + 1000): arrives 1100 + 2000, received 3200.
        QTest::newRow("bcast linear 3") << "bcast"
                                        << "linear" << 3 << 1000ll << 3200ll;
        // Binomial reduce, P = 4: two rounds of whole vectors, 2 x 2200.
        QTest::newRow("reduce binomial 4") << "reduce"
                                           << "binomial" << 4 << 1000ll << 4400ll;
        // Rabenseifner allreduce, P = 4, M = 4000: halving 2000 then 1000 bytes, doubling 1000
        // then 2000: (1200 + 2000) + (1200 + 1000) + (1200 + 1000) + (1200 + 2000) = 10800.
        QTest::newRow("allreduce rabenseifner 4") << "allreduce"
                                                  << "rabenseifner" << 4 << 4000ll << 10800ll;
    }
    void closedForms()
    {
        QFETCH(QString, op);
        QFETCH(QString, alg);
        QFETCH(int, ranks);
        QFETCH(qint64, bytes);
        QFETCH(qint64, expected);
        const SimulationResult r = runCollective(op.toUtf8().constData(), alg.toUtf8().constData(),
                                                 uint32_t(ranks), uint64_t(bytes));
        QCOMPARE(r.predictedRuntimeNs, expected);
    }

    void messageCounts()
    {
        // Binomial and linear bcast: P - 1 messages; ring allgather P (P - 1); pairwise
        // alltoall P (P - 1); dissemination P ceil(log2 P); recursive doubling with P = 6:
        // rem (pre) + p' log2 p' + rem (post) = 2 + 4 x 2 + 2 = 12.
        QCOMPARE(runCollective("bcast", "binomial", 7, 100).messages, uint64_t(6));
        QCOMPARE(runCollective("bcast", "linear", 7, 100).messages, uint64_t(6));
        QCOMPARE(runCollective("allgather", "ring", 5, 500).messages, uint64_t(20));
        QCOMPARE(runCollective("alltoall", "pairwise", 5, 500).messages, uint64_t(20));
        QCOMPARE(runCollective("barrier", "dissemination", 6, 0).messages, uint64_t(18));
        QCOMPARE(runCollective("allreduce", "recursive_doubling", 6, 100).messages, uint64_t(12));
    }

    void everyAlgorithmEveryCount()
    {
        // Every algorithm at awkward counts and roots completes (a missing message would leave
        // a rank waiting: an error) and every rank takes part (ends after 0).
        for (uint32_t k = 0; k < 9; ++k) {
            const CollKind kind = CollKind(k);
            for (std::string_view alg : algorithmNames(kind))
                for (uint32_t p : {1u, 2u, 3u, 5u, 6u, 7u, 12u, 13u}) {
                    const uint32_t root = p > 2 ? 2 : 0;
                    const SimulationResult r =
                        runCollective(std::string(collKindName(kind)).c_str(),
                                      std::string(alg).c_str(), p, 1200, root);
                    for (const RankTimes& t : r.perRank)
                        QVERIFY2(p == 1 || t.endNs > 0,
                                 qPrintable(QString("%1 %2 P=%3 rank %4")
                                                .arg(collKindName(kind).data())
                                                .arg(alg.data())
                                                .arg(p)
                                                .arg(t.rank)));
                }
        }
    }

    void unknownAlgorithm()
    {
        QVERIFY_THROWS_EXCEPTION(TraceError, runCollective("bcast", "fastest", 4, 10));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveAlgorithms)
#include "tst_collectivealgorithms.moc"
