// Message and collective matching done by TraceBuilder::finish(), checked against the MPI rules
// (source, tag, communicator; non-overtaking per pair; receives match in posting order;
// partners and roots are communicator ranks; the k-th collective on a communicator is one
// instance). Messages and instances are found through the events that refer to them, so the
// tests do not depend on the order in which the builder numbers them.

#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "testsupport/handtrace.h"

#include <QTest>
#include <algorithm>
#include <map>
#include <tuple>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace rankscope {
// Readable QCOMPARE failures (found by argument-dependent lookup).
char* toString(const Message& m)
{
    return qstrdup(QStringLiteral("{send loc %1 ev %2, recv loc %3 ev %4, tag %5 comm %6 bytes %7}")
                       .arg(qint64(m.sendLocation.valid() ? m.sendLocation.value : -1))
                       .arg(qint64(m.sendEvent == kNoEvent ? -1 : m.sendEvent))
                       .arg(qint64(m.recvLocation.valid() ? m.recvLocation.value : -1))
                       .arg(qint64(m.recvEvent == kNoEvent ? -1 : m.recvEvent))
                       .arg(m.tag)
                       .arg(qint64(m.comm.valid() ? m.comm.value : -1))
                       .arg(m.bytes)
                       .toUtf8()
                       .constData());
}
char* toString(const CollectiveMember& m)
{
    return qstrdup(QStringLiteral("{loc %1 events %2..%3 bytes %4/%5}")
                       .arg(m.location.value)
                       .arg(m.beginEvent)
                       .arg(m.endEvent)
                       .arg(m.bytesSent)
                       .arg(m.bytesReceived)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

Message message(LocationId sendLoc, uint32_t sendEvent, LocationId recvLoc, uint32_t recvEvent,
                int32_t tag, CommId comm, uint64_t bytes)
{
    Message m;
    m.sendLocation = sendLoc;
    m.sendEvent = sendEvent;
    m.recvLocation = recvLoc;
    m.recvEvent = recvEvent;
    m.tag = tag;
    m.comm = comm;
    m.bytes = bytes;
    return m;
}

/// The message referred to by event `index` of `loc` (must be valid).
/// Two world ranks, rank 0 also on a second thread: its location r0b comes after r0 and r1.
struct RankWithThread
{
    HandTrace h;
    LocationId r0 = h.addRank();
    LocationId r1 = h.addRank();
    LocationId r0b =
        h.builder().addLocation(RankId(0), h.builder().intern("thread 1"), LocationType::CpuThread);
    CommId world = h.addWorld();
    std::tuple<LocationId, LocationId, LocationId, CommId> ids() const
    {
        return {r0, r1, r0b, world};
    }
};

const Message& messageAt(const Trace& trace, LocationId loc, uint32_t index)
{
    const MessageId id = trace.events(loc).message(index);
    if (!id.valid() || id.value >= trace.messages().size())
        qFatal("event %u of location %u refers to no message", index, loc.value);
    return trace.message(id);
}

/// The members of a collective instance, by location.
std::map<uint32_t, CollectiveMember> membersOf(const Trace& trace, const CollectiveInstance& c)
{
    std::map<uint32_t, CollectiveMember> byLocation;
    for (uint32_t i = 0; i < c.memberCount; ++i) {
        const CollectiveMember& m = trace.collectiveMembers()[c.firstMember + i];
        byLocation[m.location.value] = m;
    }
    return byLocation;
}

CollectiveMember member(LocationId loc, uint32_t begin, uint32_t end, uint64_t sent,
                        uint64_t received)
{
    CollectiveMember m;
    m.location = loc;
    m.beginEvent = begin;
    m.endEvent = end;
    m.bytesSent = sent;
    m.bytesReceived = received;
    return m;
}

} // namespace

class TestMatching : public QObject
{
    Q_OBJECT

private slots:
    void blockingPair()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        h.builder().send(r0, 10, 1, world, 7, 100); // r0 event 0
        h.builder().recv(r1, 20, 0, world, 7, 100); // r1 event 0
        const Trace trace = h.finish();

        QCOMPARE(trace.messages().size(), size_t(1));
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 0, 7, world, 100));
        QCOMPARE(trace.events(r1).message(0), trace.events(r0).message(0));
        QVERIFY(messageAt(trace, r0, 0).matched());
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void nonOvertakingPerPair()
    {
        // Two sends with the same source, tag and communicator match the receives in order.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.send(r0, 10, 1, world, 1, 10); // event 0
        b.send(r0, 20, 1, world, 1, 20); // event 1
        b.recv(r1, 30, 0, world, 1, 10); // event 0
        b.recv(r1, 40, 0, world, 1, 20); // event 1
        const Trace trace = h.finish();
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 0, 1, world, 10));
        QCOMPARE(messageAt(trace, r0, 1), message(r0, 1, r1, 1, 1, world, 20));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void tagSelects()
    {
        // The receiver takes tag 2 first: it matches the second send, not the first.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.send(r0, 10, 1, world, 1, 10); // event 0
        b.send(r0, 20, 1, world, 2, 20); // event 1
        b.recv(r1, 30, 0, world, 2, 20); // event 0
        b.recv(r1, 40, 0, world, 1, 10); // event 1
        const Trace trace = h.finish();
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 1, 1, world, 10));
        QCOMPARE(messageAt(trace, r0, 1), message(r0, 1, r1, 0, 2, world, 20));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void sourceSelects()
    {
        // Rank 1 sends first in time, but rank 2 receives from rank 0 first.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const LocationId r2 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.send(r0, 10, 2, world, 0, 8);  // r0 event 0
        b.send(r1, 5, 2, world, 0, 16);  // r1 event 0
        b.recv(r2, 20, 0, world, 0, 8);  // r2 event 0
        b.recv(r2, 30, 1, world, 0, 16); // r2 event 1
        const Trace trace = h.finish();
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r2, 0, 0, world, 8));
        QCOMPARE(messageAt(trace, r1, 0), message(r1, 0, r2, 1, 0, world, 16));
    }

    void communicatorSelects()
    {
        // Same pair and tag on two communicators with the same members: matched per communicator.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        const CommId dup = b.addCommunicator(b.intern("dup"), {RankId(0), RankId(1)}, world);
        b.send(r0, 10, 1, dup, 0, 4);   // event 0
        b.send(r0, 20, 1, world, 0, 8); // event 1
        b.recv(r1, 30, 0, world, 0, 8); // event 0
        b.recv(r1, 40, 0, dup, 0, 4);   // event 1
        const Trace trace = h.finish();
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 1, 0, dup, 4));
        QCOMPARE(messageAt(trace, r0, 1), message(r0, 1, r1, 0, 0, world, 8));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void nonBlocking()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.isend(r0, 10, 1, world, 3, 64, 100); // r0 event 0
        b.isendComplete(r0, 50, 100);          // r0 event 1
        b.irecvRequest(r1, 5, 200);            // r1 event 0
        b.irecv(r1, 40, 0, world, 3, 64, 200); // r1 event 1
        const Trace trace = h.finish();

        QCOMPARE(trace.messages().size(), size_t(1));
        // sendEvent is the Isend, recvEvent the Irecv completion.
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 1, 3, world, 64));
        // The completion and the posted request refer to the same message.
        const MessageId id = trace.events(r0).message(0);
        QCOMPARE(trace.events(r0).kind(1), EventKind::MpiIsendComplete);
        QCOMPARE(trace.events(r0).message(1), id);
        QCOMPARE(trace.events(r1).kind(0), EventKind::MpiIrecvRequest);
        QCOMPARE(trace.events(r1).message(0), id);
        QCOMPARE(trace.events(r1).message(1), id);
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
        QCOMPARE(trace.diagnostics().orphanRequestEvents, uint64_t(0));
    }

    void postingOrderDecidesIrecvMatching()
    {
        // Rank 1 posts request 1 then request 2 for the same source and tag; request 2 completes
        // first. MPI matches receives in posting order: request 1 gets the first message.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.send(r0, 10, 1, world, 5, 8);      // r0 event 0: first message
        b.send(r0, 20, 1, world, 5, 16);     // r0 event 1: second message
        b.irecvRequest(r1, 1, 1);            // r1 event 0: request 1 posted
        b.irecvRequest(r1, 2, 2);            // r1 event 1: request 2 posted
        b.irecv(r1, 30, 0, world, 5, 16, 2); // r1 event 2: request 2 completes
        b.irecv(r1, 40, 0, world, 5, 8, 1);  // r1 event 3: request 1 completes
        const Trace trace = h.finish();

        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, r1, 3, 5, world, 8));
        QCOMPARE(messageAt(trace, r0, 1), message(r0, 1, r1, 2, 5, world, 16));
        QCOMPARE(trace.events(r1).message(0), trace.events(r0).message(0));
        QCOMPARE(trace.events(r1).message(1), trace.events(r0).message(1));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void threadCountDoesNotChangeTheResult()
    {
        // A ring on 7 ranks, 5 rounds: each rank posts Irecvs from both neighbours (tags 1 and
        // 2), sends to both, and completes the receives in reverse posting order; rank 6 also
        // sends one message nobody receives; every round ends in an allreduce. Matching on 1 and
        // on 3 threads must agree exactly.
        auto build = [](unsigned threads) {
            HandTrace h;
            std::vector<LocationId> loc;
            for (int r = 0; r < 7; ++r)
                loc.push_back(h.addRank());
            const CommId world = h.addWorld();
            TraceBuilder& b = h.builder();
            uint64_t request = 1;
            for (int round = 0; round < 5; ++round) {
                const int64_t t0 = 100 * round;
                for (uint32_t r = 0; r < 7; ++r) {
                    const uint32_t left = (r + 6) % 7, right = (r + 1) % 7;
                    const uint64_t fromLeft = request++, fromRight = request++;
                    b.irecvRequest(loc[r], t0 + 1, fromLeft);
                    b.irecvRequest(loc[r], t0 + 2, fromRight);
                    b.send(loc[r], t0 + 3, right, world, 1, 64);
                    b.send(loc[r], t0 + 4, left, world, 2, 64);
                    b.irecv(loc[r], t0 + 5, right, world, 2, 64, fromRight);
                    b.irecv(loc[r], t0 + 6, left, world, 1, 64, fromLeft);
                    b.collectiveBegin(loc[r], t0 + 7);
                    b.collectiveEnd(loc[r], t0 + 8, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
                }
            }
            b.send(loc[6], 1000, 0, world, 99, 8);
            return h.finish(threads);
        };
        const Trace one = build(1);
        const Trace three = build(3);
        QVERIFY(three.sameContent(one));
        QCOMPARE(one.messages().size(), size_t(7 * 2 * 5 + 1));
        QCOMPARE(three.diagnostics().unmatchedSends, uint64_t(1));
        QCOMPARE(three.diagnostics().unmatchedReceives, uint64_t(0));
        QCOMPARE(three.collectives().size(), size_t(5));
        QCOMPARE(three.collectiveMembers().size(), size_t(5 * 7));
    }

    void unmatchedMessagesAreKept()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        b.send(r0, 10, 1, world, 9, 32);      // r0 event 0: never received
        b.isend(r0, 20, 1, world, 10, 48, 5); // r0 event 1: never received
        b.isendComplete(r0, 30, 5);           // r0 event 2
        b.recv(r1, 40, 0, world, 8, 24);      // r1 event 0: never sent
        const Trace trace = h.finish();

        QCOMPARE(trace.messages().size(), size_t(3));
        // The missing side's event field keeps the partner's world rank (message.h): the
        // sends named world rank 1, the receive named world rank 0.
        QCOMPARE(messageAt(trace, r0, 0), message(r0, 0, LocationId(), 1, 9, world, 32));
        QCOMPARE(messageAt(trace, r0, 1), message(r0, 1, LocationId(), 1, 10, world, 48));
        // An unmatched receive keeps the receiver's byte count.
        QCOMPARE(messageAt(trace, r1, 0), message(LocationId(), 0, r1, 0, 8, world, 24));
        QVERIFY(!messageAt(trace, r1, 0).matched());
        QCOMPARE(trace.messageReceiver(messageAt(trace, r0, 0)), RankId(1));
        QCOMPARE(trace.messageSender(messageAt(trace, r0, 0)), RankId(0));
        QCOMPARE(trace.messageSender(messageAt(trace, r1, 0)), RankId(0));
        QCOMPARE(trace.messageReceiver(messageAt(trace, r1, 0)), RankId(1));
        QCOMPARE(trace.diagnostics().unmatchedSends, uint64_t(2));
        QCOMPARE(trace.diagnostics().unmatchedReceives, uint64_t(1));
    }

    void partnersAreCommunicatorRanks()
    {
        // sub = {world 1, world 3}: communicator rank 0 is world rank 1, rank 1 is world rank 3.
        HandTrace h;
        std::vector<LocationId> r;
        for (int i = 0; i < 4; ++i)
            r.push_back(h.addRank());
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        const CommId sub = b.addCommunicator(b.intern("sub"), {RankId(1), RankId(3)}, world);
        b.send(r[1], 10, 1, sub, 0, 4); // world 1 -> comm rank 1 = world 3
        b.recv(r[3], 20, 0, sub, 0, 4); // world 3 <- comm rank 0 = world 1
        b.send(r[3], 30, 0, sub, 1, 6); // world 3 -> comm rank 0 = world 1
        b.recv(r[1], 40, 1, sub, 1, 6); // world 1 <- comm rank 1 = world 3
        const Trace trace = h.finish();

        QCOMPARE(messageAt(trace, r[1], 0), message(r[1], 0, r[3], 0, 0, sub, 4));
        QCOMPARE(messageAt(trace, r[3], 1), message(r[3], 1, r[1], 1, 1, sub, 6));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void partnerOutsideCommunicatorIsAnError()
    {
        HandTrace h;
        std::vector<LocationId> r;
        for (int i = 0; i < 4; ++i)
            r.push_back(h.addRank());
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        const CommId sub = b.addCommunicator(b.intern("sub"), {RankId(1), RankId(3)}, world);
        b.send(r[1], 10, 5, sub, 0, 4); // sub has 2 ranks: 5 is outside
        bool thrown = false;
        try {
            h.finish();
        } catch (const TraceError&) {
            thrown = true;
        }
        QVERIFY(thrown);
    }

    void collectiveInstances()
    {
        // Three ranks: MPI_Bcast with root 1, then MPI_Allreduce, on MPI_COMM_WORLD.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const LocationId r2 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        const auto bcast = [&](LocationId l, int64_t t0, int64_t t1, uint64_t sent,
                               uint64_t recvd) {
            b.collectiveBegin(l, t0);
            b.collectiveEnd(l, t1, CollectiveOp::Bcast, world, 1, sent, recvd);
        };
        const auto allreduce = [&](LocationId l, int64_t t0, int64_t t1) {
            b.collectiveBegin(l, t0);
            b.collectiveEnd(l, t1, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        };
        bcast(r0, 10, 20, 0, 8); // events 0, 1
        allreduce(r0, 30, 40);   // events 2, 3
        bcast(r1, 5, 20, 16, 0); // the root sends to two ranks
        allreduce(r1, 31, 41);
        bcast(r2, 12, 22, 0, 8);
        allreduce(r2, 32, 42);
        const Trace trace = h.finish();

        QCOMPARE(trace.collectives().size(), size_t(2));
        const CollectiveId bcastId = trace.events(r0).collective(1);
        const CollectiveId allreduceId = trace.events(r0).collective(3);
        QVERIFY(bcastId.valid() && allreduceId.valid() && bcastId != allreduceId);
        for (const LocationId l : {r0, r1, r2}) {
            QCOMPARE(trace.events(l).collective(0), bcastId); // begin and end refer to it
            QCOMPARE(trace.events(l).collective(1), bcastId);
            QCOMPARE(trace.events(l).collective(2), allreduceId);
            QCOMPARE(trace.events(l).collective(3), allreduceId);
        }

        const CollectiveInstance& bc = trace.collective(bcastId);
        QCOMPARE(bc.comm, world);
        QCOMPARE(bc.op, CollectiveOp::Bcast);
        QCOMPARE(bc.root, RankId(1));
        QCOMPARE(bc.memberCount, uint32_t(3));
        QVERIFY(bc.complete);
        auto members = membersOf(trace, bc);
        QCOMPARE(members.size(), size_t(3));
        QCOMPARE(members[r0.value], member(r0, 0, 1, 0, 8));
        QCOMPARE(members[r1.value], member(r1, 0, 1, 16, 0));
        QCOMPARE(members[r2.value], member(r2, 0, 1, 0, 8));

        const CollectiveInstance& ar = trace.collective(allreduceId);
        QCOMPARE(ar.op, CollectiveOp::Allreduce);
        QVERIFY(!ar.root.valid());
        QVERIFY(ar.complete);
        members = membersOf(trace, ar);
        QCOMPARE(members.size(), size_t(3));
        QCOMPARE(members[r2.value], member(r2, 2, 3, 8, 8));
        QCOMPARE(trace.diagnostics().incompleteCollectives, uint64_t(0));
    }

    void collectivesCountPerCommunicator()
    {
        // sub = {world 1, world 3}. World rank 3 is the Bcast root (communicator rank 1) and
        // broadcasts eagerly before the world barrier; world rank 1 joins the Bcast after it.
        // Instances are the k-th collective per communicator, whatever the order across them.
        HandTrace h;
        std::vector<LocationId> r;
        for (int i = 0; i < 4; ++i)
            r.push_back(h.addRank());
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        const CommId sub = b.addCommunicator(b.intern("sub"), {RankId(1), RankId(3)}, world);
        const auto barrier = [&](LocationId l) {
            b.collectiveBegin(l, 10);
            b.collectiveEnd(l, 40, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
        };
        barrier(r[0]);                                                // r0 events 0, 1
        barrier(r[2]);                                                // r2 events 0, 1
        b.collectiveBegin(r[3], 5);                                   // r3 event 0
        b.collectiveEnd(r[3], 8, CollectiveOp::Bcast, sub, 1, 4, 0);  // r3 event 1
        barrier(r[3]);                                                // r3 events 2, 3
        barrier(r[1]);                                                // r1 events 0, 1
        b.collectiveBegin(r[1], 41);                                  // r1 event 2
        b.collectiveEnd(r[1], 45, CollectiveOp::Bcast, sub, 1, 0, 4); // r1 event 3
        const Trace trace = h.finish();

        QCOMPARE(trace.collectives().size(), size_t(2));
        const CollectiveInstance& bc = trace.collective(trace.events(r[3]).collective(1));
        QCOMPARE(trace.events(r[1]).collective(3), trace.events(r[3]).collective(1));
        QCOMPARE(bc.comm, sub);
        QCOMPARE(bc.op, CollectiveOp::Bcast);
        QCOMPARE(bc.root, RankId(3)); // communicator rank 1 = world rank 3
        QVERIFY(bc.complete);
        auto members = membersOf(trace, bc);
        QCOMPARE(members.size(), size_t(2));
        QCOMPARE(members[r[1].value], member(r[1], 2, 3, 0, 4));
        QCOMPARE(members[r[3].value], member(r[3], 0, 1, 4, 0));

        const CollectiveInstance& bar = trace.collective(trace.events(r[0]).collective(1));
        QCOMPARE(bar.comm, world);
        QCOMPARE(bar.op, CollectiveOp::Barrier);
        QCOMPARE(bar.memberCount, uint32_t(4));
        members = membersOf(trace, bar);
        QCOMPARE(members[r[1].value], member(r[1], 0, 1, 0, 0));
        QCOMPARE(members[r[3].value], member(r[3], 2, 3, 0, 0));
        QCOMPARE(trace.diagnostics().incompleteCollectives, uint64_t(0));
    }

    void sendsOfARanksThreadsPairByTime()
    {
        // World rank 0 sends on two threads to rank 1 with one tag: 10 bytes at t = 10 from its
        // second thread, 30 bytes at t = 30 from its main one. Messages between one pair of
        // ranks do not overtake, so rank 1's first receive (10 bytes, t = 40) takes the send at
        // t = 10 and its second (30 bytes, t = 50) the one at t = 30, though the main thread's
        // location comes first; on any thread count, and without a size mismatch.
        for (unsigned threads : {1u, 3u}) {
            RankWithThread t;
            const auto [r0, r1, r0b, world] = t.ids();
            TraceBuilder& b = t.h.builder();
            b.send(r0, 30, 1, world, 5, 30);
            b.send(r0b, 10, 1, world, 5, 10);
            b.recv(r1, 40, 0, world, 5, 10);
            b.recv(r1, 50, 0, world, 5, 30);
            const Trace trace = t.h.finish(threads);
            QCOMPARE(trace.messages().size(), size_t(2));
            QCOMPARE(messageAt(trace, r1, 0), message(r0b, 0, r1, 0, 5, world, 10));
            QCOMPARE(messageAt(trace, r1, 1), message(r0, 0, r1, 1, 5, world, 30));
            QVERIFY(trace.diagnostics().warnings.empty());
        }
    }

    void collectivesOfARanksThreadsMergeByTime()
    {
        // World rank 0 records its collectives on two threads: the barrier at t = 10 on its
        // second thread, the allreduce at t = 30 on its main one. Its k-th collective on the
        // world is the k-th by time over both threads, so the barrier pairs with rank 1's first
        // call and the allreduce with its second, though the second thread's location comes
        // after the main one. A rank outside `sub` that records a call on it is counted.
        RankWithThread ranks;
        HandTrace& h = ranks.h;
        const auto [r0, r1, r0b, world] = ranks.ids();
        TraceBuilder& b = h.builder();
        const CommId sub = b.addCommunicator(b.intern("sub"), {RankId(1)}, world);
        b.collectiveBegin(r0, 30); // r0 events 0, 1
        b.collectiveEnd(r0, 35, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        b.collectiveBegin(r0b, 10); // r0b events 0, 1
        b.collectiveEnd(r0b, 15, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
        b.collectiveBegin(r0b, 50); // r0b events 2, 3
        b.collectiveEnd(r0b, 55, CollectiveOp::Barrier, sub, kNoRoot, 0, 0);
        for (const auto& [t, op] :
             {std::pair{12, CollectiveOp::Barrier}, std::pair{32, CollectiveOp::Allreduce}}) {
            b.collectiveBegin(r1, t);
            b.collectiveEnd(r1, t + 5, op, world, kNoRoot, op == CollectiveOp::Barrier ? 0 : 8,
                            op == CollectiveOp::Barrier ? 0 : 8);
        }
        const Trace trace = h.finish();

        const CollectiveInstance& barrier = trace.collective(trace.events(r1).collective(1));
        QCOMPARE(barrier.op, CollectiveOp::Barrier);
        QCOMPARE(barrier.comm, world);
        QCOMPARE(trace.events(r0b).collective(0), trace.events(r1).collective(0));
        auto members = membersOf(trace, barrier);
        QCOMPARE(members.size(), size_t(2));
        QCOMPARE(members[r0b.value], member(r0b, 0, 1, 0, 0));
        QCOMPARE(members[r1.value], member(r1, 0, 1, 0, 0));
        const CollectiveInstance& allreduce = trace.collective(trace.events(r1).collective(3));
        QCOMPARE(allreduce.op, CollectiveOp::Allreduce);
        QCOMPARE(trace.events(r0).collective(1), trace.events(r1).collective(3));
        members = membersOf(trace, allreduce);
        QCOMPARE(members[r0.value], member(r0, 0, 1, 8, 8));
        QCOMPARE(members[r1.value], member(r1, 2, 3, 8, 8));
        // sub's one instance holds rank 0's call alone: one member, as many as sub has.
        QCOMPARE(trace.diagnostics().incompleteCollectives, uint64_t(0));
        QVERIFY(std::any_of(trace.diagnostics().warnings.begin(),
                            trace.diagnostics().warnings.end(), [](const std::string& w) {
                                return w.find("1 rank(s) record collectives on a communicator "
                                              "they are not a member of") != std::string::npos;
                            }));
    }

    void incompleteCollectiveIsCounted()
    {
        // All three ranks join the first MPI_Allreduce; rank 2 never joins the second.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const LocationId r2 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        for (const LocationId l : {r0, r1, r2}) {
            b.collectiveBegin(l, 10);
            b.collectiveEnd(l, 20, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        }
        for (const LocationId l : {r0, r1}) {
            b.collectiveBegin(l, 30);
            b.collectiveEnd(l, 40, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        }
        const Trace trace = h.finish();

        QCOMPARE(trace.collectives().size(), size_t(2));
        const CollectiveInstance& first = trace.collective(trace.events(r2).collective(1));
        QVERIFY(first.complete);
        QCOMPARE(first.memberCount, uint32_t(3));
        const CollectiveInstance& second = trace.collective(trace.events(r0).collective(3));
        QCOMPARE(trace.events(r1).collective(3), trace.events(r0).collective(3));
        QVERIFY(!second.complete);
        QCOMPARE(second.memberCount, uint32_t(2));
        const auto members = membersOf(trace, second);
        QCOMPARE(members.size(), size_t(2));
        QVERIFY(members.count(r0.value) && members.count(r1.value));
        QCOMPARE(trace.diagnostics().incompleteCollectives, uint64_t(1));
    }

    void cancelledAndOrphanRequests()
    {
        HandTrace h;
        const LocationId r0 = h.addRank();
        h.addRank();
        h.addWorld();
        TraceBuilder& b = h.builder();
        b.irecvRequest(r0, 1, 7);     // posted ...
        b.requestCancelled(r0, 2, 7); // ... and cancelled
        b.isendComplete(r0, 3, 99);   // request 99 was never posted
        const Trace trace = h.finish();
        QCOMPARE(trace.diagnostics().cancelledRequests, uint64_t(1));
        QCOMPARE(trace.diagnostics().orphanRequestEvents, uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestMatching)
#include "tst_matching.moc"
