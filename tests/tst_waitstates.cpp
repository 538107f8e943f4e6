// Wait states (ALGORITHMS.md §6.1-6.3) on hand-built traces, one per pattern and edge case, and
// on the shared Score-P trace casita-mpi-late-sender-barrier-4r. Every expected number is
// worked out by hand from the timestamps written in each test (times are ns).

#include "importers/otf2/otf2reader.h"
#include "model/matching/mpicallscanner.h"
#include "model/waits/waitstates.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

constexpr uint64_t kSmall = 100;     // below the default eager limit (64 KiB)
constexpr uint64_t kLarge = 1 << 20; // above it

/// A world of `n` ranks with helpers for the MPI calls the tests use.
struct World
{
    HandTrace h;
    std::vector<LocationId> loc;
    CommId world;

    explicit World(int n)
    {
        for (int i = 0; i < n; ++i)
            loc.push_back(h.addRank());
        world = h.addWorld();
    }
    RegionId mpi(const char* name, RegionRole role = RegionRole::MpiPointToPoint)
    {
        return h.mpi(name, role);
    }
    void send(int r, int64_t b, int64_t e, uint32_t to, uint64_t bytes = kSmall,
              const char* fn = "MPI_Send")
    {
        const RegionId f = mpi(fn);
        h.enter(loc[r], b, f);
        h.builder().send(loc[r], b, to, world, 0, bytes);
        h.leave(loc[r], e, f);
    }
    /// MPI_Recv from `from` on [b, e], the receive event at e.
    void recv(int r, int64_t b, int64_t e, uint32_t from, uint64_t bytes = kSmall)
    {
        const RegionId f = mpi("MPI_Recv");
        h.enter(loc[r], b, f);
        h.builder().recv(loc[r], e, from, world, 0, bytes);
        h.leave(loc[r], e, f);
    }
    void collective(int r, int64_t b, int64_t e, const char* fn, CollectiveOp op, CommId comm,
                    uint32_t root = kNoRoot, RegionRole role = RegionRole::MpiCollective)
    {
        const RegionId f = mpi(fn, role);
        h.enter(loc[r], b, f);
        h.builder().collectiveBegin(loc[r], b);
        h.builder().collectiveEnd(loc[r], e, op, comm, root, 8, 8);
        h.leave(loc[r], e, f);
    }
    WaitStateAnalysis analyze(uint64_t eagerLimit = 64 * 1024)
    {
        trace = h.finish();
        WaitStateOptions o;
        o.eagerLimit = eagerLimit;
        return analyzeWaitStates(trace, o);
    }
    Trace trace;
};

/// A wait without its call site and event index (those are checked separately).
struct Expected
{
    WaitPattern pattern;
    uint32_t rank;
    int64_t begin, end;
    uint32_t cause;
    bool direct;
};

void compareWaits(const WaitStateAnalysis& a, const std::vector<Expected>& expected)
{
    QCOMPARE(a.waits.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        const WaitState& w = a.waits[i];
        const Expected& e = expected[i];
        QCOMPARE(int(w.pattern), int(e.pattern));
        QCOMPARE(w.rank.value, e.rank);
        QCOMPARE(w.begin, e.begin);
        QCOMPARE(w.end, e.end);
        QCOMPARE(w.cause.value, e.cause);
        QCOMPARE(w.direct, e.direct);
    }
}

/// Sum of the MPI call durations of each rank.
std::vector<int64_t> mpiTimePerRank(const Trace& t)
{
    std::vector<int64_t> out(t.rankCount(), 0);
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        MpiCallScanner scanner(t, RankId(r));
        CallRecord c;
        while (scanner.next(c))
            out[r] += c.duration();
    }
    return out;
}

/// Rank 0 is late: MPI_Send entered at 50. Rank 1 waits in MPI_Recv [0, 60], then sends to
/// rank 2 at 70; rank 2 waits in MPI_Recv [10, 80]. Then a barrier entered at 100 (rank 0), 90
/// (1) and 85 (2). propagationChainIsIndirect derives its waits.
void propagationChain(World& w)
{
    w.send(0, 50, 55, 1);
    w.recv(1, 0, 60, 0);
    w.send(1, 70, 75, 2);
    w.recv(2, 10, 80, 1);
    for (auto [r, t] : {std::pair{0, 100}, {1, 90}, {2, 85}})
        w.collective(r, t, 110, "MPI_Barrier", CollectiveOp::Barrier, w.world, kNoRoot,
                     RegionRole::Barrier);
}

} // namespace

class TestWaitStates : public QObject
{
    Q_OBJECT

private slots:
    void patternKeys()
    {
        QCOMPARE(waitPatternKey(WaitPattern::LateSender), "late_sender");
        QCOMPARE(waitPatternKey(WaitPattern::WaitAtNxN), "wait_at_nxn");
        QCOMPARE(waitPatternName(WaitPattern::EarlyReduce), "Early Reduce");
    }

    void lateSender()
    {
        // rank 1 enters MPI_Recv at 10; rank 0 enters MPI_Send at 50: wait 50 - 10 = 40.
        World w(2);
        w.send(0, 50, 60, 1);
        w.recv(1, 10, 70, 0);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::LateSender, 1, 10, 50, 0, true}});
        QCOMPARE(a.callSites.name(a.waits[0].callSite), "MPI_Recv");
        QCOMPARE(a.byPattern[size_t(WaitPattern::LateSender)], 40);
        QCOMPARE(a.totalNs, 40);
        QCOMPARE(a.directNs, 40);
        QCOMPARE(a.indirectNs, 0);
        QCOMPARE(a.byRank, (std::vector<int64_t>{0, 40}));
        QCOMPARE(a.byCallSite.size(), size_t(1));
        QCOMPARE(a.byCallSite[0].waitNs, 40);
        QCOMPARE(a.byCallSite[0].occurrences, uint64_t(1));
    }

    void receiveNotLate()
    {
        // The send (10) is entered before the receive (30): nobody waits.
        World w(2);
        w.send(0, 10, 20, 1);
        w.recv(1, 30, 40, 0);
        const WaitStateAnalysis a = w.analyze();
        QVERIFY(a.waits.empty());
        QCOMPARE(a.totalNs, 0);
        QCOMPARE(a.byRank, (std::vector<int64_t>{0, 0}));
    }

    void waitClampedToCall()
    {
        // Clock skew: the send is entered at 100, after the receive [10, 50] ended. The wait is
        // clamped to the call: 50 - 10 = 40, not 100 - 10 = 90.
        World w(2);
        w.send(0, 100, 110, 1);
        w.recv(1, 10, 50, 0);
        compareWaits(w.analyze(), {{WaitPattern::LateSender, 1, 10, 50, 0, true}});
    }

    void waitallChargesLatestSender_data()
    {
        QTest::addColumn<int>("firstSend");
        QTest::newRow("rank 0 sends during the Waitall") << 40;
        // Sent before the Waitall began but received in it, not after it: not in wrong order.
        QTest::newRow("rank 0 sends before the Waitall") << 5;
    }

    void waitallChargesLatestSender()
    {
        // rank 1 posts receives from 0 and 2, then MPI_Waitall [10, 100]. Senders enter at
        // `firstSend` (rank 0) and 70 (rank 2): one wait 70 - 10 = 60, caused by rank 2.
        QFETCH(int, firstSend);
        World w(3);
        w.send(0, firstSend, firstSend + 3, 1);
        w.send(2, 70, 75, 1);
        auto& b = w.h.builder();
        const RegionId irecv = w.mpi("MPI_Irecv");
        const RegionId waitall = w.mpi("MPI_Waitall", RegionRole::MpiOther);
        w.h.enter(w.loc[1], 0, irecv);
        b.irecvRequest(w.loc[1], 0, 1);
        w.h.leave(w.loc[1], 1, irecv);
        w.h.enter(w.loc[1], 2, irecv);
        b.irecvRequest(w.loc[1], 2, 2);
        w.h.leave(w.loc[1], 3, irecv);
        w.h.enter(w.loc[1], 10, waitall);
        b.irecv(w.loc[1], 99, 0, w.world, 0, kSmall, 1);
        b.irecv(w.loc[1], 99, 2, w.world, 0, kSmall, 2);
        w.h.leave(w.loc[1], 100, waitall);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::LateSender, 1, 10, 70, 2, true}});
        QCOMPARE(a.callSites.name(a.waits[0].callSite), "MPI_Waitall");
        QCOMPARE(int(a.waits[0].wrongOrder), int(WrongOrder::None));
    }

    void wrongOrder_data()
    {
        // rank 0 sends to rank 1 with tag 2 at 50 (the message rank 1 waits for); an earlier
        // message m' to rank 1 is sent by `earlySender` with tag 1 at `earlySend`. Rank 1 first
        // receives tag 2 in MPI_Recv [20, 60], then tag 1 in MPI_Recv [70, 75]. The Late Sender
        // wait is [20, 50) = 30 ns; it is in wrong order when m' was sent before 20 (and it is
        // received after the first receive's Leave, at 75).
        QTest::addColumn<int>("earlySender");
        QTest::addColumn<int>("earlySend");
        QTest::addColumn<int>("expected");
        QTest::newRow("same source") << 0 << 10 << int(WrongOrder::SameSource);
        QTest::newRow("different source") << 2 << 5 << int(WrongOrder::DifferentSource);
        QTest::newRow("sent after the receive began") << 2 << 30 << int(WrongOrder::None);
    }

    void wrongOrder()
    {
        QFETCH(int, earlySender);
        QFETCH(int, earlySend);
        QFETCH(int, expected);
        World w(3);
        auto& b = w.h.builder();
        const RegionId send = w.mpi("MPI_Send");
        const RegionId recv = w.mpi("MPI_Recv");
        const auto sendCall = [&](int r, int64_t t, int32_t tag) {
            w.h.enter(w.loc[r], t, send);
            b.send(w.loc[r], t, 1, w.world, tag, kSmall);
            w.h.leave(w.loc[r], t + 2, send);
        };
        if (earlySender == 0) {
            sendCall(0, earlySend, 1);
            sendCall(0, 50, 2);
        } else {
            sendCall(0, 50, 2);
            sendCall(earlySender, earlySend, 1);
        }
        w.h.enter(w.loc[1], 20, recv);
        b.recv(w.loc[1], 60, 0, w.world, 2, kSmall);
        w.h.leave(w.loc[1], 60, recv);
        w.h.enter(w.loc[1], 70, recv);
        b.recv(w.loc[1], 75, uint32_t(earlySender), w.world, 1, kSmall);
        w.h.leave(w.loc[1], 75, recv);

        const WaitStateAnalysis a = w.analyze();
        // The second receive's message was sent at 5, 10 or 30, before its Enter at 70: no wait.
        compareWaits(a, {{WaitPattern::LateSender, 1, 20, 50, 0, true}});
        QCOMPARE(int(a.waits[0].wrongOrder), expected);
        const std::array<int64_t, 2> totals{expected == int(WrongOrder::SameSource) ? 30 : 0,
                                            expected == int(WrongOrder::DifferentSource) ? 30 : 0};
        QCOMPARE(a.wrongOrderNs, totals);
    }

    void testCallsNeverWait()
    {
        // A successful MPI_Test [10, 11] completes a receive whose send is entered at 50: a test
        // returns at once, so it is no Late Sender.
        World w(2);
        w.send(0, 50, 55, 1);
        auto& b = w.h.builder();
        const RegionId irecv = w.mpi("MPI_Irecv");
        const RegionId test = w.mpi("MPI_Test", RegionRole::MpiOther);
        w.h.enter(w.loc[1], 0, irecv);
        b.irecvRequest(w.loc[1], 0, 7);
        w.h.leave(w.loc[1], 1, irecv);
        w.h.enter(w.loc[1], 10, test);
        b.irecv(w.loc[1], 11, 0, w.world, 0, kSmall, 7);
        w.h.leave(w.loc[1], 11, test);
        QVERIFY(w.analyze().waits.empty());
    }

    void lateReceiverAboveEagerLimitOnly()
    {
        // Large message: rank 0 sends [10, 60], rank 1 enters MPI_Recv at 40: the sender waits
        // 40 - 10 = 30 (Late Receiver, cause 1). Small message: send [100, 101], receive entered
        // at 150: eager, the sender does not wait (and the receive is not late: 100 < 150).
        World w(2);
        w.send(0, 10, 60, 1, kLarge);
        w.send(0, 100, 101, 1, kSmall);
        w.recv(1, 40, 65, 0, kLarge);
        w.recv(1, 150, 160, 0, kSmall);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::LateReceiver, 0, 10, 40, 1, true}});
        QCOMPARE(a.byPattern[size_t(WaitPattern::LateReceiver)], 30);

        // With the eager limit above the large message, nobody waits.
        World w2(2);
        w2.send(0, 10, 60, 1, kLarge);
        w2.recv(1, 40, 65, 0, kLarge);
        QVERIFY(w2.analyze(2 * kLarge).waits.empty());
    }

    void lateReceiverSsendAndIrecvPost()
    {
        // MPI_Ssend of a small message [10, 90]; the receive is posted by MPI_Irecv entered at 50
        // and completed in MPI_Wait [80, 95]. The sender waits for the post: 50 - 10 = 40.
        World w(2);
        w.send(0, 10, 90, 1, kSmall, "MPI_Ssend");
        auto& b = w.h.builder();
        const RegionId irecv = w.mpi("MPI_Irecv");
        const RegionId wait = w.mpi("MPI_Wait", RegionRole::MpiOther);
        w.h.enter(w.loc[1], 50, irecv);
        b.irecvRequest(w.loc[1], 50, 3);
        w.h.leave(w.loc[1], 51, irecv);
        w.h.enter(w.loc[1], 80, wait);
        b.irecv(w.loc[1], 95, 0, w.world, 0, kSmall, 3);
        w.h.leave(w.loc[1], 95, wait);
        compareWaits(w.analyze(), {{WaitPattern::LateReceiver, 0, 10, 50, 1, true}});
    }

    void barrierOnSubCommunicator()
    {
        // MPI_Barrier on {1, 3} of 4 ranks: rank 1 enters at 10, rank 3 at 30 -> rank 1 waits
        // 20. Ranks 0 and 2 are busy meanwhile and take no part.
        World w(4);
        const CommId sub =
            w.h.builder().addCommunicator(w.h.builder().intern("sub"), {RankId(1), RankId(3)});
        w.collective(1, 10, 35, "MPI_Barrier", CollectiveOp::Barrier, sub, kNoRoot,
                     RegionRole::Barrier);
        w.collective(3, 30, 35, "MPI_Barrier", CollectiveOp::Barrier, sub, kNoRoot,
                     RegionRole::Barrier);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::WaitAtBarrier, 1, 10, 30, 3, true}});
        QCOMPARE(a.byRank, (std::vector<int64_t>{0, 20, 0, 0}));
    }

    void waitAtNxN()
    {
        // MPI_Allreduce entered at 5, 20, 12; the last is rank 1 at 20: waits 15 and 8.
        World w(3);
        w.collective(0, 5, 30, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        w.collective(1, 20, 30, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        w.collective(2, 12, 30, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::WaitAtNxN, 0, 5, 20, 1, true},
                         {WaitPattern::WaitAtNxN, 2, 12, 20, 1, true}});
        QCOMPARE(a.byPattern[size_t(WaitPattern::WaitAtNxN)], 23);
    }

    void lateBroadcast()
    {
        // MPI_Bcast with root 1 (entered at 30): rank 0 entered at 10 waits 20; rank 2 entered
        // at 40, after the root, does not wait; the root never waits.
        World w(3);
        w.collective(0, 10, 50, "MPI_Bcast", CollectiveOp::Bcast, w.world, 1);
        w.collective(1, 30, 50, "MPI_Bcast", CollectiveOp::Bcast, w.world, 1);
        w.collective(2, 40, 50, "MPI_Bcast", CollectiveOp::Bcast, w.world, 1);
        compareWaits(w.analyze(), {{WaitPattern::LateBroadcast, 0, 10, 30, 1, true}});
    }

    void earlyReduce()
    {
        // MPI_Reduce to root 0 (entered at 10); non-roots enter at 20 and 35: the root waits
        // 35 - 10 = 25 for rank 2; non-roots never wait in this pattern.
        World w(3);
        w.collective(0, 10, 50, "MPI_Reduce", CollectiveOp::Reduce, w.world, 0);
        w.collective(1, 20, 50, "MPI_Reduce", CollectiveOp::Reduce, w.world, 0);
        w.collective(2, 35, 50, "MPI_Reduce", CollectiveOp::Reduce, w.world, 0);
        compareWaits(w.analyze(), {{WaitPattern::EarlyReduce, 0, 10, 35, 2, true}});
    }

    void handleCollectivesSkipped()
    {
        // MPI_Comm_split (CreateHandle) entered at 0 and 40: no wait state.
        World w(2);
        w.collective(0, 0, 50, "MPI_Comm_split", CollectiveOp::CreateHandle, w.world);
        w.collective(1, 40, 50, "MPI_Comm_split", CollectiveOp::CreateHandle, w.world);
        QVERIFY(w.analyze().waits.empty());
    }

    void propagationChainIsIndirect()
    {
        // rank 0 is late: MPI_Send entered at 50. rank 1 waits in MPI_Recv [0, 60] for 50
        // (direct: rank 0's previous MPI call, none, held no wait), then sends to rank 2 at 70.
        // rank 2 waits in MPI_Recv [10, 80] for 70 - 10 = 60, caused by rank 1, whose MPI call
        // just before that send waited: indirect.
        // A later Barrier entered at 100 (0), 90 (1), 85 (2), last rank 0: waits 10 and 15,
        // direct because rank 0's previous call (the send) held no wait.
        World w(3);
        propagationChain(w);
        const WaitStateAnalysis a = w.analyze();
        compareWaits(a, {{WaitPattern::LateSender, 1, 0, 50, 0, true},
                         {WaitPattern::WaitAtBarrier, 1, 90, 100, 0, true},
                         {WaitPattern::LateSender, 2, 10, 70, 1, false},
                         {WaitPattern::WaitAtBarrier, 2, 85, 100, 0, true}});
        QCOMPARE(a.directNs, 50 + 10 + 15);
        QCOMPARE(a.indirectNs, 60);
        QCOMPARE(a.totalNs, 135);
        // Both receives share the call site "MPI_Recv": one row of 50 + 60 = 110, then the
        // barrier's 10 + 15 = 25.
        QCOMPARE(a.byCallSite.size(), size_t(2));
        QCOMPARE(a.byCallSite[0].waitNs, 110);
        QCOMPARE(a.byCallSite[0].occurrences, uint64_t(2));
        QCOMPARE(int(a.byCallSite[1].pattern), int(WaitPattern::WaitAtBarrier));
        QCOMPARE(a.byCallSite[1].waitNs, 25);
    }

    void totalsWithoutHoldingTheWaits()
    {
        // propagationChainIsIndirect's trace, by the two-pass totals: the same figures (derived
        // there by hand), no waits held, and the rows per (rank, call site, pattern).
        World w(3);
        propagationChain(w);
        w.trace = w.h.finish();
        const WaitStateAnalysis a = analyzeWaitTotals(w.trace);
        QVERIFY(a.waits.empty());
        QVERIFY(!a.cancelled);
        QCOMPARE(a.totalNs, 135);
        QCOMPARE(a.directNs, 50 + 10 + 15);
        QCOMPARE(a.indirectNs, 60);
        QCOMPARE(a.byPattern[size_t(WaitPattern::LateSender)], 110);
        QCOMPARE(a.byPattern[size_t(WaitPattern::WaitAtBarrier)], 25);
        QCOMPARE(a.byRank, (std::vector<int64_t>{0, 50 + 10, 60 + 15}));
        QCOMPARE(a.byCallSite.size(), size_t(2));
        QCOMPARE(a.byCallSite[0].waitNs, 110);
        QCOMPARE(a.byCallSite[1].waitNs, 25);
        // Rows by rank, then call site id, then pattern. Call sites are interned as the scan
        // meets the calls: rank 0's MPI_Send, MPI_Barrier, then rank 1's MPI_Recv.
        QCOMPARE(a.rows.size(), size_t(4));
        const CallSiteId recv = a.byCallSite[0].callSite, barrier = a.byCallSite[1].callSite;
        QCOMPARE(a.callSites.name(barrier), "MPI_Barrier");
        QVERIFY(barrier.value < recv.value);
        QCOMPARE(a.rows[0],
                 (WaitRow{WaitPattern::WaitAtBarrier, barrier, RankId(1), 10, 0, 0, 10, 1}));
        QCOMPARE(a.rows[1], (WaitRow{WaitPattern::LateSender, recv, RankId(1), 50, 0, 0, 50, 1}));
        QCOMPARE(a.rows[2],
                 (WaitRow{WaitPattern::WaitAtBarrier, barrier, RankId(2), 15, 0, 0, 15, 1}));
        QCOMPARE(a.rows[3], (WaitRow{WaitPattern::LateSender, recv, RankId(2), 60, 60, 0, 60, 1}));

        WaitStateOptions stop;
        int calls = 0;
        stop.progress = [&](double f) { return ++calls < 3 || f < 0.5; }; // stops in pass 2
        QVERIFY(analyzeWaitTotals(w.trace, stop).cancelled);
    }

    void indirectThroughNonBlockingSend()
    {
        // rank 1 waits in MPI_Recv [0, 60] for rank 0 (send entered at 50), then MPI_Irecv,
        // then MPI_Isend to rank 2 at 70. rank 2's MPI_Wait [10, 90] completes that message:
        // waits 70 - 10 = 60 for rank 1, whose last synchronising call before the MPI_Isend
        // (the MPI_Recv; the MPI_Irecv and MPI_Isend depend on nobody) waited: indirect.
        World w(3);
        auto& b = w.h.builder();
        const RegionId isend = w.mpi("MPI_Isend");
        const RegionId irecv = w.mpi("MPI_Irecv");
        const RegionId wait = w.mpi("MPI_Wait", RegionRole::MpiOther);
        w.send(0, 50, 55, 1);
        w.recv(1, 0, 60, 0);
        w.h.call(w.loc[1], irecv, 62, 63);
        w.h.enter(w.loc[1], 70, isend);
        b.isend(w.loc[1], 70, 2, w.world, 0, kSmall, 5);
        w.h.leave(w.loc[1], 71, isend);
        w.h.enter(w.loc[2], 10, wait);
        b.recv(w.loc[2], 90, 1, w.world, 0, kSmall);
        w.h.leave(w.loc[2], 90, wait);
        compareWaits(w.analyze(), {{WaitPattern::LateSender, 1, 0, 50, 0, true},
                                   {WaitPattern::LateSender, 2, 10, 70, 1, false}});
    }

    void directAfterSynchronisationWithoutWait()
    {
        // rank 1 waits in MPI_Recv [0, 60] for rank 0 (send at 50, direct), then joins an
        // MPI_Allreduce last (entered at 65; ranks 0 and 2 at 56 and 5 wait 9 and 60 for it,
        // indirect: rank 1's last synchronising call before, the MPI_Recv, waited). Then rank 1
        // sends to rank 2 at 70; rank 2's MPI_Recv entered at 68 waits 2. rank 1's last
        // synchronising call before that send is the MPI_Allreduce, where it did not wait:
        // direct, although rank 1 waited two calls earlier.
        World w(3);
        w.send(0, 50, 55, 1);
        w.recv(1, 0, 60, 0);
        w.collective(1, 65, 67, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        w.collective(2, 5, 67, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        w.collective(0, 56, 67, "MPI_Allreduce", CollectiveOp::Allreduce, w.world);
        w.send(1, 70, 75, 2);
        w.recv(2, 68, 80, 1);
        compareWaits(w.analyze(), {{WaitPattern::WaitAtNxN, 0, 56, 65, 1, false},
                                   {WaitPattern::LateSender, 1, 0, 50, 0, true},
                                   {WaitPattern::WaitAtNxN, 2, 5, 65, 1, false},
                                   {WaitPattern::LateSender, 2, 68, 70, 1, true}});
    }

    void sharedLateSenderBarrierTrace()
    {
        // casita-mpi-late-sender-barrier-4r, timestamps from otf2-print (1 GHz: ticks are ns).
        // Late Sender (rank: Recv Enter, sender's Send Enter):
        //   1: 106107922094015, rank 0 at 106116946908054 -> 9024814039
        //   2: 106107918769568, rank 1 at 106117924094517 -> 10005324949
        //   3: 106107985107808, rank 2 at 106118975541798 -> 10990433990   sum 30020572978
        // (each Recv lasts longer: it leaves after the MPI_RECV event, so nothing is clamped).
        // Wait at Barrier: the last to enter MPI_Barrier is rank 0 at 106126796092142;
        //   1 entered 106118960929793 -> 7835162349, 2: 106119952296334 -> 6843795808,
        //   3: 106120065783752 -> 6730308390                                  sum 21409266547
        // Indirect: ranks 2 and 3 wait for senders (1, 2) whose previous MPI call (their own
        // MPI_Recv) waited: 10005324949 + 10990433990 = 20995758939; the rest is direct.
        const QString anchor = traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
        const Trace t = readOtf2(QDir::toNativeSeparators(anchor).toStdString());
        const WaitStateAnalysis a = analyzeWaitStates(t);
        QCOMPARE(a.byPattern[size_t(WaitPattern::LateSender)], 30020572978);
        QCOMPARE(a.byPattern[size_t(WaitPattern::WaitAtBarrier)], 21409266547);
        QCOMPARE(a.totalNs, 51429839525);
        QCOMPARE(a.indirectNs, 20995758939);
        QCOMPARE(a.directNs, 30434080586);
        QCOMPARE(a.byRank,
                 (std::vector<int64_t>{0, 9024814039 + 7835162349, 10005324949 + 6843795808,
                                       10990433990 + 6730308390}));
        QCOMPARE(a.byCallSite.size(), size_t(2));
        QCOMPARE(a.callSites.name(a.byCallSite[0].callSite), "main>late_sender:MPI_Recv");
        QCOMPARE(a.byCallSite[0].occurrences, uint64_t(3));
        QCOMPARE(a.callSites.name(a.byCallSite[1].callSite), "main>barrier:MPI_Barrier");
    }

    void totalsNeverExceedMpiTime_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"casita-cloverleaf-mpi-openacc-2r", "casita-jacobi-mpi-cuda-2r",
                              "casita-mpi-late-sender-barrier-4r", "casita-mpi-tags-10r",
                              "pipit-ping-pong-2r", "pipit-ping-pong-papi-2r",
                              "scorep84-npb-cg-S-16", "scorep84-npb-cg-S-4", "scorep84-npb-cg-S-8",
                              "scorep84-npb-mg-W-16", "scorep84-npb-mg-W-32", "scorep84-npb-mg-W-4",
                              "scorep84-npb-mg-W-8", "tracer-stencil4d-32r", "tracer-stencil4d-64r",
                              // generated, checked in under resources/demo/traces
                              "stencil2d-9", "stencil2d-36"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    void totalsNeverExceedMpiTime()
    {
        QFETCH(QString, name);
        const QString anchor = traceAnchor(name); // the shared trace, or the checked-in one
        if (anchor.isEmpty()) QSKIP("shared trace not available");
        const Trace t = readOtf2(anchor.toStdString());
        const WaitStateAnalysis a = analyzeWaitStates(t);
        const std::vector<int64_t> mpi = mpiTimePerRank(t);
        int64_t mpiTotal = 0;
        for (uint32_t r = 0; r < t.rankCount(); ++r) {
            QVERIFY2(a.byRank[r] <= mpi[r], qPrintable(QStringLiteral("rank %1").arg(r)));
            mpiTotal += mpi[r];
        }
        QVERIFY(a.totalNs <= mpiTotal);
        QCOMPARE(a.directNs + a.indirectNs, a.totalNs);
        int64_t patterns = 0, sites = 0;
        for (int64_t p : a.byPattern)
            patterns += p;
        for (const CallSiteWait& c : a.byCallSite)
            sites += c.waitNs;
        QCOMPARE(patterns, a.totalNs);
        QCOMPARE(sites, a.totalNs);
        for (size_t i = 1; i < a.byCallSite.size(); ++i)
            QVERIFY(a.byCallSite[i - 1].waitNs >= a.byCallSite[i].waitNs);
        // The two-pass totals agree with the totals of the waits held.
        const WaitStateAnalysis totals = analyzeWaitTotals(t);
        QCOMPARE(totals.totalNs, a.totalNs);
        QCOMPARE(totals.directNs, a.directNs);
        QCOMPARE(totals.indirectNs, a.indirectNs);
        QCOMPARE(totals.byPattern, a.byPattern);
        QCOMPARE(totals.wrongOrderNs, a.wrongOrderNs);
        QCOMPARE(totals.byRank, a.byRank);
        QCOMPARE(totals.byCallSite, a.byCallSite);
        QCOMPARE(totals.rows, waitRows(a));
        for (size_t i = 0; i < a.waits.size(); ++i) {
            QVERIFY(a.waits[i].end > a.waits[i].begin);
            QVERIFY(a.waits[i].cause != a.waits[i].rank);
            if (i > 0 && a.waits[i].rank == a.waits[i - 1].rank) // sorted, never overlapping
                QVERIFY(a.waits[i - 1].end <= a.waits[i].begin);
        }
    }

    void cancelled()
    {
        World w(2);
        w.send(0, 50, 60, 1);
        w.recv(1, 10, 70, 0);
        w.trace = w.h.finish();
        WaitStateOptions o;
        o.progress = [](double) { return false; };
        QVERIFY(analyzeWaitStates(w.trace, o).cancelled);
    }
};

QTEST_GUILESS_MAIN(TestWaitStates)
#include "tst_waitstates.moc"
