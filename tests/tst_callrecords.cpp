// MPI call records and call sites (ALGORITHMS.md §1) on hand-built traces.

#include "model/trace/callrecords.h"
#include "model/trace/callsites.h"
#include "model/trace/trace.h"
#include "testsupport/handtrace.h"

#include <QTest>
#include <functional>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace rankscope {
// Readable QCOMPARE failures (found by argument-dependent lookup).
char* toString(const CallRecord& c)
{
    return qstrdup(QStringLiteral("{region %1 site %2 events %3..%4 t %5..%6 payload %7+%8 %9}")
                       .arg(c.region.value)
                       .arg(c.callSite.value)
                       .arg(c.enterEvent)
                       .arg(c.leaveEvent)
                       .arg(c.enterTime)
                       .arg(c.leaveTime)
                       .arg(c.firstPayload)
                       .arg(c.payloadCount)
                       .arg(c.closed ? "closed" : "unclosed")
                       .toUtf8()
                       .constData());
}
char* toString(const CallPayload& p)
{
    return qstrdup(QStringLiteral("{event %1 kind %2 ref %3}")
                       .arg(p.event)
                       .arg(int(p.kind))
                       .arg(p.ref)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

using Scenario = std::function<void(HandTrace&, LocationId)>;

QStringList siteNames(const RankCallRecords& records, const CallSiteTable& table)
{
    QStringList names;
    for (const CallRecord& c : records.calls)
        names << QString::fromUtf8(table.name(c.callSite));
    return names;
}

CallRecord record(RegionId region, uint32_t site, uint32_t enterEvent, uint32_t leaveEvent,
                  int64_t enterTime, int64_t leaveTime, uint32_t firstPayload,
                  uint32_t payloadCount, bool closed = true)
{
    CallRecord c;
    c.region = region;
    c.callSite = CallSiteId(site);
    c.enterEvent = enterEvent;
    c.leaveEvent = leaveEvent;
    c.enterTime = enterTime;
    c.leaveTime = leaveTime;
    c.firstPayload = firstPayload;
    c.payloadCount = payloadCount;
    c.closed = closed;
    return c;
}

void compareCalls(const std::vector<CallRecord>& actual, const std::vector<CallRecord>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
        QCOMPARE(actual[i], expected[i]);
}

} // namespace

Q_DECLARE_METATYPE(Scenario)

class TestCallRecords : public QObject
{
    Q_OBJECT

private slots:
    void callSiteTable()
    {
        CallSiteTable a;
        QCOMPARE(a.intern("main:MPI_Send"), CallSiteId(0));
        QCOMPARE(a.intern("MPI_Barrier"), CallSiteId(1));
        QCOMPARE(a.intern("main:MPI_Send"), CallSiteId(0));
        QCOMPARE(a.find("MPI_Barrier"), CallSiteId(1));
        QVERIFY(!a.find("MPI_Recv").valid());
        QCOMPARE(a.name(CallSiteId(1)), std::string_view("MPI_Barrier"));

        CallSiteTable b;
        b.intern("MPI_Recv");
        b.intern("main:MPI_Send");
        // b's ids 0, 1 become 2 (new) and 0 (known) in a.
        const std::vector<CallSiteId> remap = a.merge(b);
        QCOMPARE(remap, (std::vector<CallSiteId>{CallSiteId(2), CallSiteId(0)}));
        QCOMPARE(a.size(), size_t(3));
    }

    void pointToPointRecords()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId main = h.user("main");
        const RegionId init = h.mpi("MPI_Init");
        const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
        const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
        const RegionId fin = h.mpi("MPI_Finalize");
        TraceBuilder& b = h.builder();
        // rank 0, event index: time
        h.enter(r0, 0, main);            // 0
        h.call(r0, init, 0, 10);         // 1, 2
        h.enter(r0, 30, send);           // 3
        b.send(r0, 32, 1, world, 5, 8);  // 4
        h.leave(r0, 35, send);           // 5
        h.enter(r0, 50, recv);           // 6
        b.recv(r0, 59, 1, world, 6, 16); // 7
        h.leave(r0, 60, recv);           // 8
        h.call(r0, fin, 90, 100);        // 9, 10
        h.leave(r0, 100, main);          // 11
        // rank 1 mirrors it: receive first, then send.
        h.enter(r1, 0, main);
        h.call(r1, init, 0, 10);
        h.enter(r1, 20, recv);
        b.recv(r1, 38, 0, world, 5, 8);
        h.leave(r1, 40, recv);
        h.enter(r1, 45, send);
        b.send(r1, 55, 0, world, 6, 16);
        h.leave(r1, 58, send);
        h.call(r1, fin, 90, 100);
        h.leave(r1, 100, main);
        const Trace trace = h.finish();

        CallSiteTable sites;
        const RankCallRecords rec0 = mpiCallRecords(trace, RankId(0), sites);
        QCOMPARE(rec0.rank, RankId(0));
        // Sites are interned in order of first sight: Init 0, Send 1, Recv 2, Finalize 3.
        compareCalls(rec0.calls,
                     {record(init, 0, 1, 2, 0, 10, 0, 0), record(send, 1, 3, 5, 30, 35, 0, 1),
                      record(recv, 2, 6, 8, 50, 60, 1, 1), record(fin, 3, 9, 10, 90, 100, 2, 0)});
        const EventStream& ev0 = trace.rankEvents(RankId(0));
        QCOMPARE(rec0.payload.size(), size_t(2));
        QCOMPARE(rec0.payload[0], (CallPayload{4, EventKind::MpiSend, ev0.ref(4)}));
        QCOMPARE(rec0.payload[1], (CallPayload{7, EventKind::MpiRecv, ev0.ref(7)}));
        QCOMPARE(rec0.payloadOf(rec0.calls[1]).size(), size_t(1));
        QCOMPARE(rec0.payloadOf(rec0.calls[1])[0].message(), ev0.message(4));
        QVERIFY(rec0.payloadOf(rec0.calls[1])[0].message().valid());
        QVERIFY(!rec0.payloadOf(rec0.calls[1])[0].collective().valid());
        QVERIFY(rec0.payloadOf(rec0.calls[0]).empty());
        QCOMPARE(rec0.unclosedCount(), size_t(0));
        QCOMPARE(siteNames(rec0, sites), (QStringList{"main:MPI_Init", "main:MPI_Send",
                                                      "main:MPI_Recv", "main:MPI_Finalize"}));

        // The same table serves rank 1: its sites are already known, so ids are shared.
        const RankCallRecords rec1 = mpiCallRecords(trace, RankId(1), sites);
        QCOMPARE(rec1.calls.size(), size_t(4));
        QCOMPARE(rec1.calls[1].callSite, CallSiteId(2)); // main:MPI_Recv
        QCOMPARE(rec1.calls[2].callSite, CallSiteId(1)); // main:MPI_Send
        QCOMPARE(sites.size(), size_t(4));
    }

    void callSites_data()
    {
        QTest::addColumn<Scenario>("scenario");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("function alone") << Scenario([](HandTrace& h, LocationId l) {
            h.call(l, h.mpi("MPI_Barrier", RegionRole::Barrier), 0, 10);
        }) << QStringList{"MPI_Barrier"};

        QTest::newRow("call path of nested user regions")
            << Scenario([](HandTrace& h, LocationId l) {
                   // main[0,100] > solve[10,90] > exchange[20,80] > MPI_Sendrecv[30,40];
                   // main > MPI_Barrier[92,98]
                   h.enter(l, 0, h.user("main"));
                   h.enter(l, 10, h.user("solve"));
                   h.enter(l, 20, h.user("exchange"));
                   h.call(l, h.mpi("MPI_Sendrecv"), 30, 40);
                   h.leave(l, 80, h.user("exchange"));
                   h.leave(l, 90, h.user("solve"));
                   h.call(l, h.mpi("MPI_Barrier"), 92, 98);
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"main>solve>exchange:MPI_Sendrecv", "main:MPI_Barrier"};

        QTest::newRow("sibling call paths") << Scenario([](HandTrace& h, LocationId l) {
            // main > a > MPI_Send, then main > b > MPI_Send: two call sites.
            h.enter(l, 0, h.user("main"));
            h.enter(l, 10, h.user("a"));
            h.call(l, h.mpi("MPI_Send"), 20, 30);
            h.leave(l, 40, h.user("a"));
            h.enter(l, 50, h.user("b"));
            h.call(l, h.mpi("MPI_Send"), 60, 70);
            h.leave(l, 80, h.user("b"));
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"main>a:MPI_Send", "main>b:MPI_Send"};

        QTest::newRow("source location wins over call path")
            << Scenario([](HandTrace& h, LocationId l) {
                   // Two MPI_Recv under main>exchange; only the first has a recorded source
                   // location.
                   TraceBuilder& b = h.builder();
                   h.enter(l, 0, h.user("main"));
                   h.enter(l, 10, h.user("exchange"));
                   h.enter(l, 20, h.mpi("MPI_Recv"));
                   b.attachSourceLocation(l, SourceLocation{b.intern("main.c"), 334});
                   h.leave(l, 30, h.mpi("MPI_Recv"));
                   h.call(l, h.mpi("MPI_Recv"), 40, 50);
                   h.leave(l, 90, h.user("exchange"));
                   h.leave(l, 100, h.user("main"));
               })
            << QStringList{"main.c:334:MPI_Recv", "main>exchange:MPI_Recv"};

        QTest::newRow("source location without a line") << Scenario([](HandTrace& h, LocationId l) {
            TraceBuilder& b = h.builder();
            h.enter(l, 0, h.mpi("MPI_Send"));
            b.attachSourceLocation(l, SourceLocation{b.intern("solver.f90"), 0});
            h.leave(l, 10, h.mpi("MPI_Send"));
        }) << QStringList{"solver.f90:MPI_Send"};

        QTest::newRow("recursion") << Scenario([](HandTrace& h, LocationId l) {
            // main > f > f > MPI_Send[30,40]; back in the outer f: MPI_Send[85,88].
            h.enter(l, 0, h.user("main"));
            h.enter(l, 10, h.user("f"));
            h.enter(l, 20, h.user("f"));
            h.call(l, h.mpi("MPI_Send"), 30, 40);
            h.leave(l, 80, h.user("f"));
            h.call(l, h.mpi("MPI_Send"), 85, 88);
            h.leave(l, 90, h.user("f"));
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"main>f>f:MPI_Send", "main>f:MPI_Send"};

        QTest::newRow("MPI call inside an MPI call") << Scenario([](HandTrace& h, LocationId l) {
            // main > MPI_Allreduce[10,50] > MPI_Isend[20,30]: only the outer call is a record.
            h.enter(l, 0, h.user("main"));
            h.enter(l, 10, h.mpi("MPI_Allreduce"));
            h.call(l, h.mpi("MPI_Isend"), 20, 30);
            h.leave(l, 50, h.mpi("MPI_Allreduce"));
            h.call(l, h.mpi("MPI_Waitall"), 60, 70);
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"main:MPI_Allreduce", "main:MPI_Waitall"};

        QTest::newRow("user region inside an MPI call") << Scenario([](HandTrace& h, LocationId l) {
            // main > MPI_Init[0,40] > callback[10,30] > MPI_Comm_rank[15,20]; main > MPI_Barrier.
            h.enter(l, 0, h.user("main"));
            h.enter(l, 0, h.mpi("MPI_Init"));
            h.enter(l, 10, h.user("callback"));
            h.call(l, h.mpi("MPI_Comm_rank"), 15, 20);
            h.leave(l, 30, h.user("callback"));
            h.leave(l, 40, h.mpi("MPI_Init"));
            h.call(l, h.mpi("MPI_Barrier"), 50, 60);
            h.leave(l, 100, h.user("main"));
        }) << QStringList{"main:MPI_Init", "main:MPI_Barrier"};
    }

    void callSites()
    {
        QFETCH(Scenario, scenario);
        QFETCH(QStringList, expected);
        HandTrace h;
        const LocationId loc = h.addRank();
        h.addWorld();
        scenario(h, loc);
        const Trace trace = h.finish();
        CallSiteTable sites;
        const RankCallRecords records = mpiCallRecords(trace, RankId(0), sites);
        QCOMPARE(siteNames(records, sites), expected);
        // Every distinct name is interned once.
        QCOMPARE(qsizetype(sites.size()), QSet<QString>(expected.begin(), expected.end()).size());
    }

    void collectivePayloadAndNestedMpi()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId main = h.user("main");
        const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
        const RegionId commSize = h.mpi("MPI_Comm_size");
        TraceBuilder& b = h.builder();
        h.enter(r0, 0, main);                                                   // 0
        h.enter(r0, 10, allreduce);                                             // 1
        b.collectiveBegin(r0, 11);                                              // 2
        h.call(r0, commSize, 12, 13);                                           // 3, 4
        b.collectiveEnd(r0, 29, CollectiveOp::Allreduce, world, kNoRoot, 8, 8); // 5
        h.leave(r0, 30, allreduce);                                             // 6
        h.leave(r0, 100, main);                                                 // 7
        h.enter(r1, 0, main);
        h.enter(r1, 20, allreduce);
        b.collectiveBegin(r1, 21);
        b.collectiveEnd(r1, 29, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        h.leave(r1, 30, allreduce);
        h.leave(r1, 100, main);
        const Trace trace = h.finish();

        CallSiteTable sites;
        const RankCallRecords rec = mpiCallRecords(trace, RankId(0), sites);
        // One record: the nested MPI_Comm_size belongs to the MPI_Allreduce call.
        compareCalls(rec.calls, {record(allreduce, 0, 1, 6, 10, 30, 0, 2)});
        const EventStream& ev = trace.rankEvents(RankId(0));
        QCOMPARE(rec.payload.size(), size_t(2));
        QCOMPARE(rec.payload[0], (CallPayload{2, EventKind::MpiCollectiveBegin, ev.ref(2)}));
        QCOMPARE(rec.payload[1], (CallPayload{5, EventKind::MpiCollectiveEnd, ev.ref(5)}));
        QVERIFY(rec.payload[1].collective().valid());
        QCOMPARE(rec.payload[1].collective(), ev.collective(5));
        QVERIFY(!rec.payload[1].message().valid());
    }

    void unclosedCallAtTraceEnd()
    {
        HandTrace h;
        const LocationId l = h.addRank();
        h.addWorld();
        const RegionId main = h.user("main");
        const RegionId init = h.mpi("MPI_Init");
        const RegionId recv = h.mpi("MPI_Recv");
        const RegionId test = h.mpi("MPI_Test");
        h.enter(l, 0, main);     // 0
        h.call(l, init, 0, 10);  // 1, 2
        h.enter(l, 50, recv);    // 3: never left
        h.call(l, test, 60, 70); // 4, 5: the location's last timestamp is 70
        const Trace trace = h.finish();

        CallSiteTable sites;
        const RankCallRecords rec = mpiCallRecords(trace, RankId(0), sites);
        compareCalls(rec.calls, {record(init, 0, 1, 2, 0, 10, 0, 0),
                                 record(recv, 1, 3, kNoEvent, 50, 70, 0, 0, false)});
        QCOMPARE(rec.unclosedCount(), size_t(1));
        QCOMPARE(rec.calls[1].duration(), int64_t(20));
    }

    void brokenNesting()
    {
        HandTrace h;
        const LocationId l = h.addRank();
        h.addWorld();
        const RegionId main = h.user("main");
        const RegionId a = h.user("a");
        const RegionId send = h.mpi("MPI_Send");
        const RegionId barrier = h.mpi("MPI_Barrier");
        const RegionId recv = h.mpi("MPI_Recv");
        h.enter(l, 0, main);        // 0
        h.enter(l, 5, a);           // 1
        h.enter(l, 10, send);       // 2
        h.leave(l, 20, a);          // 3: closes MPI_Send too (its own Leave is missing)
        h.leave(l, 25, send);       // 4: nothing open to close: ignored
        h.call(l, barrier, 30, 40); // 5, 6
        h.leave(l, 45, recv);       // 7: never entered: ignored
        h.leave(l, 50, main);       // 8
        const Trace trace = h.finish();

        CallSiteTable sites;
        const RankCallRecords rec = mpiCallRecords(trace, RankId(0), sites);
        compareCalls(rec.calls, {record(send, 0, 2, 3, 10, 20, 0, 0, false),
                                 record(barrier, 1, 5, 6, 30, 40, 0, 0)});
        QCOMPARE(siteNames(rec, sites), (QStringList{"main>a:MPI_Send", "main:MPI_Barrier"}));
    }

    void ranksWithoutMpiCalls()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        h.addRank(); // rank 1 has no events at all
        h.addWorld();
        h.enter(r0, 0, h.user("main"));
        h.call(r0, h.user("compute"), 10, 20);
        h.leave(r0, 100, h.user("main"));
        const Trace trace = h.finish();

        CallSiteTable sites;
        for (uint32_t r = 0; r < 2; ++r) {
            const RankCallRecords rec = mpiCallRecords(trace, RankId(r), sites);
            QVERIFY(rec.calls.empty());
            QVERIFY(rec.payload.empty());
        }
        QVERIFY(sites.empty());
    }
};

QTEST_GUILESS_MAIN(TestCallRecords)
#include "tst_callrecords.moc"
