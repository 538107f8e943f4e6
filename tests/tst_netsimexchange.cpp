// Pairwise-exchange alltoalls evaluated round by round (pairwiseexchange.h) under LogGP: exit
// times worked out by hand, and the same times as the message-by-message replay on programs
// that mix exchanges with other collectives and point-to-point messages.
// Test network: a crossbar, L = 1000 ns (two 500 ns links), G = 1 ns/byte, o_s = o_r = 100 ns.

#include "tst_netsimprogram.h"
#include "whatif/netsim/simulation.h"

#include <QTest>
#include <random>

using namespace rankscope;
using namespace rankscope::netsim;
using rankscope::netsim::test::Program;

namespace {

NetworkSpec crossbar(const std::string& extra = "")
{
    return NetworkSpec::fromString("nodes: 16\n"
                                   "overhead: {send: 100ns, recv: 100ns}\n"
                                   "links:\n"
                                   "  nic: {latency: 500ns, bandwidth: 8Gbps}\n"
                                   "networks:\n"
                                   "  sw: {topology: crossbar, link: nic}\n" +
                                       extra,
                                   "crossbar.yaml");
}

/// Programs with collectives: communicator 0 is the world.
struct CollectiveProgram : Program
{
    explicit CollectiveProgram(uint32_t ranks) : Program(ranks) { p.comms.emplace_back(); }
    uint32_t communicator(std::vector<uint32_t> members)
    {
        p.comms.push_back(std::move(members));
        return uint32_t(p.comms.size() - 1);
    }
    /// One instance of collective `kind` on communicator `comm`, entered by all its members.
    void collective(CollKind kind, uint32_t comm, uint64_t bytes)
    {
        p.collectives.push_back(ProgramCollective{kind, comm, 0, bytes});
        const uint32_t ref = uint32_t(p.collectives.size() - 1);
        for (uint32_t m = 0; m < p.commSize(comm); ++m)
            call(p.member(comm, m), {{ActionKind::Collective, ref, double(m)}});
    }
};

SimulationResult run(const ActionProgram& program, const NetworkSpec& spec, bool byRounds)
{
    SimulationOptions o;
    o.exchangeByRounds = byRounds;
    return simulateProgram(program, spec, o);
}

/// Three ranks entering a pairwise alltoall of M = 3000 (1000-byte blocks) at 0, 500, 3000.
ActionProgram staggeredAlltoall()
{
    CollectiveProgram pr(3);
    pr.compute(1, 500);
    pr.compute(2, 3000);
    pr.collective(CollKind::Alltoall, 0, 3000);
    return pr.finish();
}

} // namespace

class TestNetsimExchange : public QObject
{
    Q_OBJECT

private slots:
    void eagerByHand()
    {
        // Round 0 (0 -> 1, 1 -> 2, 2 -> 0), posted at entry + 100 = 100, 600, 3100: arrivals
        // 2100, 2600, 5100; received at max(arrival, post) + 100: rank 0 at 5200, 1 at 2200,
        // 2 at 3200. Round 1 (0 -> 2, 1 -> 0, 2 -> 1), posted at 5300, 2300, 3300: rank 2's
        // interface is busy with its round-0 message until 4100, so arrivals 7300, 4300,
        // 6100; received: rank 0 at max(4300, 5300) + 100 = 5400, 1 at 6200, 2 at 7400.
        for (bool byRounds : {true, false}) {
            const SimulationResult r = run(staggeredAlltoall(), crossbar(), byRounds);
            QCOMPARE(r.perRank[0].endNs, int64_t(5400));
            QCOMPARE(r.perRank[1].endNs, int64_t(6200));
            QCOMPARE(r.perRank[2].endNs, int64_t(7400));
            QCOMPARE(r.perRank[1].mpiNs, int64_t(6200 - 500));
            QCOMPARE(r.predictedRuntimeNs, int64_t(7400));
            QCOMPARE(r.messages, uint64_t(6));
        }
    }

    void rendezvousByHand()
    {
        // Eager limit 512 bytes: a transfer starts when both ends have posted. Round 0: posts
        // at 100, 600, 3100; 0 -> 1 starts 600, arrives 2600; 1 -> 2 and 2 -> 0 start 3100,
        // arrive 5100. A sender waits for its data to arrive, then its receive (o_r after the
        // data): rank 0 at max(2600, 5200) = 5200, 1 at max(5100, 2700) = 5100, 2 at 5200.
        // Round 1: posts at 5300, 5200, 5300: every transfer starts 5300 and arrives 7300;
        // everyone ends at 7400.
        for (bool byRounds : {true, false}) {
            const SimulationResult r =
                run(staggeredAlltoall(), crossbar("eager_limit: 512B\n"), byRounds);
            for (const RankTimes& t : r.perRank)
                QCOMPARE(t.endNs, int64_t(7400));
            QCOMPARE(r.perRank[2].mpiNs, int64_t(7400 - 3000));
        }
    }

    void sameAsMessageByMessage_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("seed");
        const QString rendezvous = "eager_limit: 2KiB\n";
        // Two ranks per node: their interface is shared, so exchanges go message by message.
        const QString shared = "ranks_per_node: 2\nintra_node: nic\n";
        for (int seed = 1; seed <= 20; ++seed) {
            QTest::addRow("eager %d", seed) << QString() << seed;
            QTest::addRow("rendezvous alltoall %d", seed) << rendezvous << seed;
            QTest::addRow("shared nodes %d", seed) << shared << seed;
        }
    }
    void sameAsMessageByMessage()
    {
        // Random phases (the same on every rank, so nothing deadlocks): exchanges on the world
        // and on the even ranks, allreduces, and a ring of non-blocking eager messages that
        // stays open across an exchange. Every time must match the message-by-message replay.
        QFETCH(QString, spec);
        QFETCH(int, seed);
        std::mt19937 random{uint32_t(seed)};
        const uint32_t ranks = 5 + random() % 8;
        CollectiveProgram pr(ranks);
        std::vector<uint32_t> even;
        for (uint32_t r = 0; r < ranks; r += 2)
            even.push_back(r);
        const uint32_t evens = pr.communicator(even);
        for (int phase = 0; phase < 12; ++phase) {
            for (uint32_t r = 0; r < ranks; ++r)
                pr.compute(r, double(random() % 5000));
            switch (random() % 4) {
            case 0:
                pr.collective(CollKind::Alltoall, 0, ranks * (random() % 4000));
                break;
            case 1:
                pr.collective(CollKind::Alltoall, evens, even.size() * (random() % 4000));
                break;
            case 2:
                pr.collective(CollKind::Allreduce, 0, random() % 3000);
                break;
            default: {
                const uint64_t bytes = random() % 1000;
                std::vector<uint32_t> out(ranks);
                for (uint32_t r = 0; r < ranks; ++r)
                    out[r] = pr.message(r, (r + 1) % ranks, bytes);
                for (uint32_t r = 0; r < ranks; ++r)
                    pr.call(r, {{ActionKind::PostSend, out[r], 0},
                                {ActionKind::PostRecv, out[(r + ranks - 1) % ranks], 0}});
                pr.collective(CollKind::Alltoall, 0, ranks * 100);
                for (uint32_t r = 0; r < ranks; ++r)
                    pr.call(r, {{ActionKind::WaitSend, out[r], 0},
                                {ActionKind::WaitRecv, out[(r + ranks - 1) % ranks], 0}});
            }
            }
        }
        const ActionProgram program = pr.finish();
        const NetworkSpec network = crossbar(spec.toStdString());
        const SimulationResult rounds = run(program, network, true);
        const SimulationResult messages = run(program, network, false);
        QCOMPARE(rounds.perRank, messages.perRank);
        QCOMPARE(rounds.predictedRuntimeNs, messages.predictedRuntimeNs);
        QCOMPARE(rounds.messages, messages.messages);
    }
};

QTEST_GUILESS_MAIN(TestNetsimExchange)
#include "tst_netsimexchange.moc"
