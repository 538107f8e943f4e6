// The communication matrix and message statistics on hand-built traces, with every expected
// cell worked out by hand from the timeline each test draws in its comments.

#include "model/analysis/commmatrix.h"
#include "model/analysis/messagestats.h"
#include "testsupport/handtrace.h"

#include <QTest>

using namespace rankscope;
using rankscope::test::MpiWorld;

namespace rankscope {
char* toString(const CommMatrixCell& c)
{
    return qstrdup(QStringLiteral("{%1->%2 count %3 bytes %4 timed %5 total %6 max %7}")
                       .arg(c.sender)
                       .arg(c.receiver)
                       .arg(c.count)
                       .arg(c.bytes)
                       .arg(c.timedCount)
                       .arg(c.totalNs)
                       .arg(c.maxNs)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

CommMatrixCell cell(uint32_t s, uint32_t r, uint64_t count, uint64_t bytes, uint64_t timed,
                    int64_t total, int64_t max)
{
    return {s, r, count, bytes, timed, total, max};
}

/// Three ranks in MPI_COMM_WORLD (times in ns):
///   rank 0: MPI_Send to 1 at 100 (64 B), MPI_Send to 1 at 300 (32 B), MPI_Send to 2 at 600
///           (tag 9, 5 B, never received), MPI_Irecv from 2 completed at 700 (8 B)
///   rank 1: MPI_Recv from 0 at 150 and at 400, MPI_Send to 2 at 200 (1000 B)
///   rank 2: MPI_Recv from 1 at 230, MPI_Isend to 0 at 500 (8 B)
/// and, when `collectives`, from 800 on: MPI_Bcast (root 0, 16 B to each), MPI_Allreduce (8 B
/// sent by each) and MPI_Barrier, each rank entering rank 0 at 800, 820, 840, and the others 10
/// ns later.
/// Transfers: 0->1 50 and 100 ns, 1->2 30 ns, 2->0 200 ns.
struct ThreeRanks
{
    MpiWorld w{3};
    RegionId send = w.h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    RegionId recv = w.h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    RegionId isend = w.h.mpi("MPI_Isend", RegionRole::MpiPointToPoint);
    RegionId irecv = w.h.mpi("MPI_Irecv", RegionRole::MpiPointToPoint);
    RegionId wait = w.h.mpi("MPI_Wait");
    RegionId bcast = w.h.mpi("MPI_Bcast", RegionRole::MpiCollective);
    RegionId allreduce = w.h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    RegionId barrier = w.h.mpi("MPI_Barrier", RegionRole::Barrier);

    void sendAt(int r, int64_t t, uint32_t to, uint64_t bytes, int32_t tag = 0)
    {
        w.h.enter(w.locs[r], t, send);
        w.h.builder().send(w.locs[r], t, to, w.world, tag, bytes);
        w.h.leave(w.locs[r], t + 5, send);
    }
    void recvAt(int r, int64_t t, uint32_t from, uint64_t bytes)
    {
        w.h.enter(w.locs[r], t - 5, recv);
        w.h.builder().recv(w.locs[r], t, from, w.world, 0, bytes);
        w.h.leave(w.locs[r], t, recv);
    }
    void collective(int r, int64_t b, RegionId f, CollectiveOp op, uint32_t root, uint64_t sent,
                    uint64_t received)
    {
        w.h.enter(w.locs[r], b, f);
        w.h.builder().collectiveBegin(w.locs[r], b);
        w.h.builder().collectiveEnd(w.locs[r], b + 15, op, w.world, root, sent, received);
        w.h.leave(w.locs[r], b + 15, f);
    }

    Trace build(bool collectives)
    {
        for (LocationId l : w.locs)
            w.begin(l);
        const LocationId r0 = w.locs[0], r2 = w.locs[2];
        // rank 0
        sendAt(0, 100, 1, 64);
        sendAt(0, 300, 1, 32);
        w.h.enter(r0, 450, irecv);
        w.h.builder().irecvRequest(r0, 450, 1);
        w.h.leave(r0, 455, irecv);
        sendAt(0, 600, 2, 5, 9);
        w.h.enter(r0, 650, wait);
        w.h.builder().irecv(r0, 700, 2, w.world, 0, 8, 1);
        w.h.leave(r0, 700, wait);
        // rank 1
        recvAt(1, 150, 0, 64);
        sendAt(1, 200, 2, 1000);
        recvAt(1, 400, 0, 32);
        // rank 2
        recvAt(2, 230, 1, 1000);
        w.h.enter(r2, 500, isend);
        w.h.builder().isend(r2, 500, 0, w.world, 0, 8, 2);
        w.h.leave(r2, 505, isend);
        w.h.enter(r2, 510, wait);
        w.h.builder().isendComplete(r2, 515, 2);
        w.h.leave(r2, 520, wait);
        if (collectives) {
            for (int r = 0; r < 3; ++r) {
                const int64_t late = r == 0 ? 0 : 10;
                collective(r, 800 + late, bcast, CollectiveOp::Bcast, 0, r == 0 ? 16 : 0,
                           r == 0 ? 0 : 16);
                collective(r, 820 + late, allreduce, CollectiveOp::Allreduce, kNoRoot, 8, 8);
                collective(r, 840 + late, barrier, CollectiveOp::Barrier, kNoRoot, 0, 0);
            }
        }
        for (LocationId l : w.locs)
            w.end(l, 900, 1000);
        return w.h.finish();
    }
};

} // namespace

class TestCommMatrix : public QObject
{
    Q_OBJECT

private slots:
    void pointToPoint()
    {
        ThreeRanks t;
        const Trace trace = t.build(false);
        const CommMatrix m = computeCommMatrix(trace);
        QCOMPARE(m.rankCount, 3u);
        QCOMPARE(m.unmatched, 1u); // 0 -> 2 tag 9
        const std::vector<CommMatrixCell> expected = {
            cell(0, 1, 2, 96, 2, 150, 100), // 64 + 32 B; 50 + 100 ns
            cell(1, 2, 1, 1000, 1, 30, 30),
            cell(2, 0, 1, 8, 1, 200, 200), // Isend at 500, Irecv completed at 700
        };
        QCOMPARE(m.cells, expected);
        QCOMPARE(m.find(0, 1)->meanNs(), 75.0);
        QVERIFY(m.find(1, 0) == nullptr);
        QCOMPARE(m.find(2, 0)->value(CommMatrixMetric::Bytes), 8.0);
        QCOMPARE(m.find(0, 1)->value(CommMatrixMetric::MaxTime), 100.0);
        // Collectives left out: the same matrix with them in the trace.
        ThreeRanks withColl;
        QCOMPARE(computeCommMatrix(withColl.build(true)).cells, expected);
    }

    void timeWindow()
    {
        ThreeRanks t;
        const Trace trace = t.build(false);
        CommMatrixOptions o;
        o.from = 250; // the sends at 300 and 500 are inside; 600 is the end (excluded)
        o.to = 600;
        const CommMatrix m = computeCommMatrix(trace, o);
        const std::vector<CommMatrixCell> expected = {cell(0, 1, 1, 32, 1, 100, 100),
                                                      cell(2, 0, 1, 8, 1, 200, 200)};
        QCOMPARE(m.cells, expected);
        QCOMPARE(m.unmatched, 0u);
        o.to = 601; // now the unmatched send at 600 is in
        QCOMPARE(computeCommMatrix(trace, o).unmatched, 1u);
        o.from = 100; // the first send is at 100: inclusive
        o.to = 101;
        QCOMPARE(computeCommMatrix(trace, o).cells,
                 (std::vector<CommMatrixCell>{cell(0, 1, 1, 64, 1, 50, 50)}));
    }

    void collectives()
    {
        ThreeRanks t;
        CommMatrixOptions o;
        o.includeCollectives = true;
        const CommMatrix m = computeCommMatrix(t.build(true), o);
        // Bcast: 0->1 and 0->2 16 B each. Allreduce: each rank's 8 B split over the two
        // others, 4 B each way. Barrier: nothing.
        const std::vector<CommMatrixCell> expected = {
            cell(0, 1, 4, 96 + 16 + 4, 2, 150, 100),
            cell(0, 2, 2, 16 + 4, 0, 0, 0),
            cell(1, 0, 1, 4, 0, 0, 0),
            cell(1, 2, 2, 1004, 1, 30, 30),
            cell(2, 0, 2, 12, 1, 200, 200),
            cell(2, 1, 1, 4, 0, 0, 0),
        };
        QCOMPARE(m.cells, expected);
        QCOMPARE(m.find(0, 2)->meanNs(), 0.0);

        // Window [805, 830): rank 0's Bcast begins at 800 (out), ranks 1 and 2 begin the
        // Allreduce at 830 (out), rank 0 begins it at 820 (in): only 0->1 and 0->2, 4 B each.
        o.from = 805;
        o.to = 830;
        ThreeRanks again;
        QCOMPARE(
            computeCommMatrix(again.build(true), o).cells,
            (std::vector<CommMatrixCell>{cell(0, 1, 1, 4, 0, 0, 0), cell(0, 2, 1, 4, 0, 0, 0)}));
    }

    void impliedTrafficShapes()
    {
        // Reduce to root 2 over four ranks, rank r sending 10 r B; an Alltoall where only rank
        // 0 sends, 7 B over three others: 2 each and the remainder 1 to the first (3, 2, 2).
        MpiWorld w(4);
        const RegionId reduce = w.h.mpi("MPI_Reduce", RegionRole::MpiCollective);
        const RegionId a2a = w.h.mpi("MPI_Alltoall", RegionRole::MpiCollective);
        for (uint32_t r = 0; r < 4; ++r) {
            w.begin(w.locs[r]);
            w.h.enter(w.locs[r], 100, reduce);
            w.h.builder().collectiveBegin(w.locs[r], 100);
            w.h.builder().collectiveEnd(w.locs[r], 110, CollectiveOp::Reduce, w.world, 2, 10 * r,
                                        r == 2 ? 60 : 0);
            w.h.leave(w.locs[r], 110, reduce);
            w.h.enter(w.locs[r], 200, a2a);
            w.h.builder().collectiveBegin(w.locs[r], 200);
            w.h.builder().collectiveEnd(w.locs[r], 210, CollectiveOp::Alltoall, w.world, kNoRoot,
                                        r == 0 ? 7 : 0, 0);
            w.h.leave(w.locs[r], 210, a2a);
            w.end(w.locs[r], 300, 400);
        }
        const Trace trace = w.h.finish();
        QCOMPARE(trace.collectives().size(), 2u);
        auto instanceOf = [&trace](CollectiveOp op) {
            for (const CollectiveInstance& c : trace.collectives())
                if (c.op == op) return c;
            qFatal("no collective of that operation");
        };
        // Rank 0 sends 0 B (left out), rank 2 is the root itself.
        QCOMPARE(collectiveTraffic(trace, instanceOf(CollectiveOp::Reduce)),
                 (std::vector<ImpliedTransfer>{{1, 2, 10}, {3, 2, 30}}));
        QCOMPARE(collectiveTraffic(trace, instanceOf(CollectiveOp::Alltoall)),
                 (std::vector<ImpliedTransfer>{{0, 1, 3}, {0, 2, 2}, {0, 3, 2}}));
    }

    void cancel()
    {
        ThreeRanks t;
        const Trace trace = t.build(false);
        const CommMatrix m = computeCommMatrix(trace, {}, [](double) { return false; });
        QVERIFY(m.cancelled);
        QVERIFY(m.cells.empty());
    }

    void messageStatistics()
    {
        ThreeRanks t;
        const MessageStatistics s = computeMessageStatistics(t.build(false));
        QCOMPARE(s.unmatched, 1u);
        QCOMPARE(s.all.count, 4u);
        QCOMPARE(s.all.bytes, 1104u);
        QCOMPARE(s.all.totalNs, 380);
        QCOMPARE(s.all.maxNs, 200);
        QCOMPARE(s.all.meanNs(), 95.0);
        // Sizes 64, 32, 1000, 8: bins 7 [64,128), 6 [32,64), 10 [512,1024), 4 [8,16).
        QCOMPARE(s.all.size.counts, (std::vector<uint64_t>{0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1}));
        // Transfers 50, 100, 30, 200 ns: bins 6 [32,64), 7 [64,128), 5 [16,32), 8 [128,256).
        QCOMPARE(s.all.time.counts, (std::vector<uint64_t>{0, 0, 0, 0, 0, 1, 1, 1, 1}));
        // Bandwidths: 64 B / 50 ns = 1.28e9 B/s (bit width 31), 32 / 100 = 3.2e8 (29),
        // 1000 / 30 = 3.33e10 (35), 8 / 200 = 4e7 (26).
        std::vector<uint64_t> bw(36, 0);
        bw[26] = bw[29] = bw[31] = bw[35] = 1;
        QCOMPARE(s.all.bandwidth.counts, bw);

        // Per call site: three messages sent from main:MPI_Send, one from main:MPI_Isend.
        QCOMPARE(s.byCallSite.size(), 2u);
        QCOMPARE(s.byCallSite[0].name, std::string("main:MPI_Send"));
        QCOMPARE(s.byCallSite[0].count, 3u);
        QCOMPARE(s.byCallSite[0].bytes, 1096u);
        QCOMPARE(s.byCallSite[1].name, std::string("main:MPI_Isend"));
        QCOMPARE(s.byCallSite[1].count, 1u);
        QCOMPARE(s.byCallSite[1].maxNs, 200);
        // One communicator holds them all.
        QCOMPARE(s.byCommunicator.size(), 1u);
        QCOMPARE(s.byCommunicator[0].count, 4u);
        QCOMPARE(s.byCommunicator[0].size, s.all.size);
    }

    void log2Bins_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addColumn<uint>("bin");
        QTest::newRow("negative") << qint64(-5) << 0u;
        QTest::newRow("zero") << qint64(0) << 0u;
        QTest::newRow("one") << qint64(1) << 1u;
        QTest::newRow("two") << qint64(2) << 2u;
        QTest::newRow("three") << qint64(3) << 2u;
        QTest::newRow("1023") << qint64(1023) << 10u;
        QTest::newRow("1024") << qint64(1024) << 11u;
    }
    void log2Bins()
    {
        QFETCH(qint64, value);
        QFETCH(uint, bin);
        QCOMPARE(Log2Histogram::binOf(value), bin);
        QVERIFY(uint64_t(std::max<qint64>(value, 0)) >= Log2Histogram::lower(bin));
        QVERIFY(uint64_t(std::max<qint64>(value, 0)) < Log2Histogram::upper(bin));
    }
};

QTEST_GUILESS_MAIN(TestCommMatrix)
#include "tst_commmatrix.moc"
