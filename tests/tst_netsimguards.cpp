// Work and memory of a replay estimated before it starts (issue "never ... hang", item 8):
// - Topology::plannedSize counts the links and vertices of a network from the spec alone; the
//   second method is the built topology itself, for every bundled and documented spec and for
//   the corner cases of each kind (a torus dimension of 2, a double ring, explicit links);
// - a machine the memory cannot hold is refused at once, naming the spec, with
//   RANKSCOPE_AVAILABLE_MEMORY standing for a small machine (16,777,216 nodes for 4 ranks took
//   40 s and 4 GB before "out of memory" without naming the spec);
// - a packet-model replay of billions of packets is refused with the estimate; the estimate of
//   a pairwise alltoall is counted by hand: P (P - 1) messages of M / P bytes, each
//   ceil((M / P) / packet_size) packets.
// The peak memory behind the constants of the machine's estimate is noted in
// whatif/netsim/machine.cpp.
// A replay whose ranks wait for each other forever names, rank by rank, where each waits and for
// whom (hand-built programs whose cycles are known by construction).

#include "testsupport/bundledspec.h"
#include "testsupport/clirunner.h"
#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/collectivealgorithm.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/replaydeadlock.h"
#include "whatif/netsim/replaywork.h"
#include "whatif/netsim/simulation.h"
#include "whatif/netsim/topology.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

QString writeSpec(const QTemporaryDir& dir, const QString& name, const QString& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text.toUtf8());
    return path;
}

NetworkSpec specOf(const std::string& networks, uint32_t nodes, const std::string& extra = {})
{
    const std::string text = "name: t\nnodes: " + std::to_string(nodes) +
                             "\nlinks:\n  l: {latency: 1us, bandwidth: 1GB/s}\n" + extra +
                             "networks:\n  n: " + networks + "\n";
    return NetworkSpec::fromString(text, "t.yaml");
}

/// Rank r's actions appended to `p` (rankBegin filled as ranks are added in order).
void addRank(ActionProgram& p, std::vector<Action> actions)
{
    p.rankBegin.push_back(p.actions.size());
    p.actions.insert(p.actions.end(), actions.begin(), actions.end());
    p.startNs.push_back(0);
}

/// The actions of one MPI call: Enter, `body`, Leave.
std::vector<Action> mpiCall(std::vector<Action> body)
{
    body.insert(body.begin(), Action{ActionKind::Enter});
    body.push_back(Action{ActionKind::Leave});
    return body;
}
/// A blocking receive or send of message `m`, as one MPI call.
std::vector<Action> recvCall(uint32_t m)
{
    return mpiCall({{ActionKind::PostRecv, m}, {ActionKind::WaitRecv, m}});
}
std::vector<Action> sendCall(uint32_t m)
{
    return mpiCall({{ActionKind::PostSend, m}, {ActionKind::WaitSend, m}});
}
/// Calls one after the other.
std::vector<Action> calls(std::initializer_list<std::vector<Action>> parts)
{
    std::vector<Action> all;
    for (const std::vector<Action>& part : parts)
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

/// The deadlock's error of replaying `p` (all ranks added), or "" when it runs.
std::pair<std::string, std::pair<uint32_t, uint64_t>> deadlockOf(ActionProgram p)
{
    p.rankBegin.push_back(p.actions.size());
    SimulationOptions o;
    try {
        simulateProgram(p, test::bundledSpec("ib-switch"), o);
    } catch (const ReplayDeadlock& d) {
        return {d.what(), {d.rank(), d.mpiCall()}};
    }
    return {"", {0, 0}};
}

} // namespace

class TestNetsimGuards : public QObject
{
    Q_OBJECT

private slots:
    void plannedSizeIsWhatIsBuilt_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& folder : {QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/networks"),
                                      QStringLiteral(RANKSCOPE_SOURCE_DIR "/docs/networks")})
            for (const QString& f : QDir(folder).entryList({"*.yaml"}))
                QTest::newRow(qPrintable(f)) << folder + "/" + f;
    }

    void plannedSizeIsWhatIsBuilt()
    {
        QFETCH(QString, file);
        const NetworkSpec spec = NetworkSpec::fromFile(file.toStdString());
        QVERIFY(!spec.networks.empty());
        for (const NetworkDef& def : spec.networks) {
            const Topology t(spec, def);
            const auto [links, vertices] = Topology::plannedSize(spec, def);
            QCOMPARE(vertices, uint64_t(t.vertexCount()));
            if (def.topology == TopologyKind::Ring || def.topology == TopologyKind::DoubleRing)
                QVERIFY(links >= t.links().size()); // an upper bound for small rings
            else
                QCOMPARE(links, uint64_t(t.links().size()));
        }
    }

    void plannedSizeOfEachKind()
    {
        struct Case
        {
            const char* network;
            uint32_t nodes;
            uint64_t links; // by hand
            uint64_t vertices;
        };
        const Case cases[] = {
            // 12 nodes on one switch: 12 pairs of links, 13 vertices
            {"{topology: crossbar, link: l}", 12, 24, 13},
            // 4-ary 2-tree: 16 nodes; 4 switches per level, 2 levels; 16 + 1 x 4 x 4 pairs
            {"{topology: fat_tree, k: 4, levels: 2, link: l}", 16, 64, 24},
            // 4 x 2 torus: the size-4 dimension has 8 pairs, the size-2 one 4
            {"{topology: torus, dims: [4, 2], link: l}", 8, 24, 8},
            // rings of 8 nodes: 8 pairs each, 16 nodes
            {"{topology: ring, group: 8, link: l}", 16, 32, 16},
            // double ring of 2 x 4: two rings of 4 (8 pairs) and 4 rungs
            {"{topology: double_ring, group: 8, link: l}", 8, 24, 8},
            // 2 groups of 2 routers, 2 nodes each: 8 node pairs, 1 pair in each group, 1 global:
            // 11 pairs, 22 links
            {"{topology: dragonfly, groups: 2, routers_per_group: 2, nodes_per_router: 2, "
             "link: l, uplink: l, wan: l}",
             8, 22, 12},
            // clusters of 3 and 5: 8 node links, 1 wide-area pair
            {"{topology: clusters, dims: [3, 5], link: l, wan: l}", 8, 18, 10},
        };
        for (const Case& c : cases) {
            const NetworkSpec spec = specOf(c.network, c.nodes);
            const auto [links, vertices] = Topology::plannedSize(spec, spec.networks.front());
            QCOMPARE(links, c.links);
            QCOMPARE(vertices, c.vertices);
            const Topology t(spec, spec.networks.front());
            QCOMPARE(uint64_t(t.links().size()), c.links);
            QCOMPARE(uint64_t(t.vertexCount()), c.vertices);
        }
    }

    void aMachineTooLargeIsRefusedAtOnce()
    {
        QTemporaryDir dir;
        const QString spec = writeSpec(dir, "huge.yaml",
                                       "name: huge\nnodes: 16777216\nlinks:\n  l: {latency: 1us, "
                                       "bandwidth: 1GB/s}\nnetworks:\n  n: {topology: crossbar, "
                                       "link: l}\n");
        qputenv("RANKSCOPE_AVAILABLE_MEMORY", "256M");
        const test::CliResult r =
            test::runCli({"collective", "--network", spec, "--op", "allreduce", "--algorithm",
                          "ring", "--ranks", "4", "--bytes", "1KiB"});
        qunsetenv("RANKSCOPE_AVAILABLE_MEMORY");
        QCOMPARE(r.exitCode, 1);
        // 33,554,432 directed links (2 per node) and 16,777,217 vertices
        QVERIFY2(r.err.contains(spec.toUtf8() + ": the machine of 16777216 nodes (33554432 links) "
                                                "needs about"),
                 r.err.constData());
        QVERIFY2(r.err.contains("256 MB available"), r.err.constData());
        // With the memory there, it runs.
        const test::CliResult small =
            test::runCli({"collective", "--network", "ib-switch", "--op", "allreduce",
                          "--algorithm", "ring", "--ranks", "4", "--bytes", "1KiB"});
        QCOMPARE(small.exitCode, 0);
    }

    void packetWorkOfAPairwiseAlltoall()
    {
        const NetworkSpec spec = test::bundledSpec("fat-tree");
        for (const uint32_t p : {4u, 64u, 100u}) {
            const uint64_t m = 64ull << 20;
            const ActionProgram program = singleCollectiveProgram(CollKind::Alltoall, p, 0, m);
            std::array<Algorithm, 9> algorithms{};
            algorithms[size_t(CollKind::Alltoall)] = Algorithm::Pairwise;
            for (const double packet : {1.0, 4096.0}) {
                const PacketWork w = plannedPacketWork(program, algorithms, 1, packet);
                const double block = double(m) / p;
                const double expected = double(p) * (p - 1) * std::ceil(block / packet);
                QCOMPARE(w.packets, expected);
            }
        }
    }

    void aDeadlockNamesWhereEachRankWaits()
    {
        using K = ActionKind;
        // Two ranks that each receive from the other before sending to it (blocking calls).
        ActionProgram p;
        p.comms.emplace_back();
        p.messages = {{1, 0, 64}, {0, 1, 64}}; // message 0: 1 -> 0; message 1: 0 -> 1
        addRank(p, calls({recvCall(0), sendCall(1)}));
        addRank(p, calls({recvCall(1), sendCall(0)}));
        const auto [text, where] = deadlockOf(p);
        QVERIFY2(text.find("rank 0 waits in its MPI call 1 after MPI_Init for a message of 64 "
                           "bytes from rank 1, which has not sent it; rank 1 waits in its MPI "
                           "call 1 after MPI_Init for a message of 64 bytes from rank 0, which "
                           "has not sent it, and so on round the cycle") != std::string::npos,
                 text.c_str());
        QCOMPARE(where.first, 0u);
        QCOMPARE(where.second, uint64_t(1));

        // Ranks 0 and 1 enter an allreduce that rank 2 does not: rank 2 first waits for a
        // message rank 1 sends only after the allreduce. The message is the likelier fault.
        ActionProgram q;
        q.comms.emplace_back();
        q.collectives.push_back({CollKind::Allreduce, 0, 0, 8});
        q.messages = {{1, 2, 8}};
        addRank(q, mpiCall({{K::Collective, 0, 0}}));
        addRank(q, calls({mpiCall({{K::Collective, 0, 1}}), sendCall(0)}));
        addRank(q, calls({recvCall(0), mpiCall({{K::Collective, 0, 2}})}));
        const auto [text2, where2] = deadlockOf(q);
        QVERIFY2(text2.find("rank 0 waits in its MPI call 1 after MPI_Init in a collective "
                            "(allreduce) of 3 ranks that rank 2 has not entered; rank 2 waits in "
                            "its MPI call 1 after MPI_Init for a message of 8 bytes from rank 1, "
                            "which has not sent it; rank 1 waits in its MPI call 1 after MPI_Init "
                            "in a collective (allreduce) of 3 ranks that rank 2 has not entered, "
                            "and so on round the cycle") != std::string::npos,
                 text2.c_str());
        QCOMPARE(where2.first, 2u);
        QCOMPARE(where2.second, uint64_t(1));
    }

    void aReplayOfBillionsOfPacketsIsRefused()
    {
        const QElapsedTimer started = [] {
            QElapsedTimer t;
            t.start();
            return t;
        }();
        const test::CliResult r = test::runCli(
            {"collective", "--network", "fat-tree", "--op", "alltoall", "--algorithm", "pairwise",
             "--ranks", "64", "--bytes", "64MiB", "--model", "packet", "--set", "packet_size=1"});
        QCOMPARE(r.exitCode, 1);
        // 64 x 63 messages of 1 MiB, 1,048,576 packets each: 4.23e+09
        QVERIFY2(r.err.contains("the packet model would cut about 4.23e+09 packets (packet_size 1 "
                                "bytes; the largest transfer, 1048576 bytes"),
                 r.err.constData());
        QVERIFY2(r.err.contains("fat-tree"), r.err.constData());
        QVERIFY(started.elapsed() < 60000); // refused, not run (a bound on a hang, not a timing)
        // A smaller one with the default packet size (4096 bytes: 64 x 63 x 16 packets) runs.
        const test::CliResult ok =
            test::runCli({"collective", "--network", "fat-tree", "--op", "alltoall", "--algorithm",
                          "pairwise", "--ranks", "64", "--bytes", "4MiB", "--model", "packet"});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestNetsimGuards)
#include "tst_netsimguards.moc"
