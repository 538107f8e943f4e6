// The compact records TraceBuilder keeps while a trace is built (model/trace/tracebuilder_p.h): the
// intern table of event payloads, the links held in event references, and matching when every
// message carries a payload of its own (so the table stops looking values up). Expected values
// follow from the definitions: indices in order of first appearance, links as distances.

#include "model/trace/eventlinks.h"
#include "model/trace/interntable.h"
#include "model/trace/trace.h"
#include "testsupport/handtrace.h"

#include <QTest>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace {

struct IdentityHash
{
    size_t operator()(uint64_t v) const { return size_t(mixHash(v)); }
};

/// The message referred to by event `index` of `loc`; fails the test when there is none.
const Message* messageAt(const Trace& trace, LocationId loc, uint32_t index)
{
    const MessageId id = trace.events(loc).message(index);
    return id.valid() && id.value < trace.messages().size() ? &trace.message(id) : nullptr;
}

} // namespace

class TestBuildRecords : public QObject
{
    Q_OBJECT
private slots:
    void internTableNumbersFirstAppearances()
    {
        InternTable<uint64_t, IdentityHash> t;
        QCOMPARE(t.intern(70), 0u);
        QCOMPARE(t.intern(5), 1u);
        QCOMPARE(t.intern(70), 0u);
        QCOMPARE(t.intern(9), 2u);
        QCOMPARE(t.intern(5), 1u);
        QCOMPARE(t.size(), size_t(3));
        // Enough repeats keep it looking up: 3000 lookups of 100 values, in rounds.
        InternTable<uint64_t, IdentityHash> r;
        for (int round = 0; round < 30; ++round)
            for (uint64_t v = 0; v < 100; ++v)
                QCOMPARE(r.intern(v * 7919), uint32_t(v));
        QCOMPARE(r.size(), size_t(100));
    }

    void internTableGivesUpOnDistinctValues()
    {
        // All distinct: after 1024 values (more than one new value in four lookups) it appends
        // without looking up; indices still count up and every value stays where it was put.
        InternTable<uint64_t, IdentityHash> t;
        for (uint64_t v = 0; v < 5000; ++v)
            QCOMPARE(t.intern(v * 3 + 1), uint32_t(v));
        QCOMPARE(t.size(), size_t(5000));
        for (uint64_t v = 0; v < 5000; ++v)
            QCOMPARE(t[v], v * 3 + 1);
        // A repeat is appended again now: index 5000, not 0.
        QCOMPARE(t.intern(1), 5000u);
        t.clear();
        QVERIFY(t.empty());
        QCOMPARE(t.intern(1), 0u);
        QCOMPARE(t.intern(1), 0u); // looking up again after clear()
    }

    void linksNearAndFar()
    {
        EventStream es;
        for (int i = 0; i < 8; ++i)
            es.append(10 * i, EventKind::MpiIsendComplete, kNoEventRef);
        EventLinks links(2);  // distances above 2 go to the side table
        links.link(es, 1, 0); // back 1: in the reference
        links.link(es, 3, 5); // forward 2: in the reference
        links.link(es, 7, 2); // back 5: side table
        links.link(es, 4, 7); // forward 3: side table
        links.sort();
        QCOMPARE(es.ref(1), 1u);
        QCOMPARE(es.ref(3), 2u);
        QCOMPARE(es.ref(7), 0u);
        QCOMPARE(es.ref(4), 0u);
        QCOMPARE(links.linked(es, 1, false), 0u);
        QCOMPARE(links.linked(es, 3, true), 5u);
        QCOMPARE(links.linked(es, 7, false), 2u);
        QCOMPARE(links.linked(es, 4, true), 7u);
        QCOMPARE(links.linked(es, 6, true), kNoEvent); // never linked
    }

    void everyMessageItsOwnPayload()
    {
        // Rank 0 sends 3000 messages to rank 1, message k with tag k and k + 1 bytes; rank 1
        // receives them by tag from the highest down. Then 2000 non-blocking messages back,
        // request ids and sizes all distinct, received in posting order. Every payload is new,
        // so both intern tables give up looking values up; matching must not notice.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        TraceBuilder& b = h.builder();
        constexpr uint32_t kBlocking = 3000, kNonBlocking = 2000;
        for (uint32_t k = 0; k < kBlocking; ++k)
            b.send(r0, k, 1, world, int32_t(k), k + 1); // r0 event k
        for (uint32_t j = 0; j < kBlocking; ++j) {      // r1 event j: tag 2999 - j
            const uint32_t tag = kBlocking - 1 - j;
            b.recv(r1, 10'000 + j, 0, world, int32_t(tag), tag + 1);
        }
        // r1 events 3000 + 2k (Isend, request 100 + k) and 3001 + 2k (its completion);
        // r0 events 3000 + k (IrecvRequest 500 + k), then 5000 + k (Irecv of request 500 + k).
        for (uint32_t k = 0; k < kNonBlocking; ++k)
            b.irecvRequest(r0, 20'000 + k, 500 + k);
        for (uint32_t k = 0; k < kNonBlocking; ++k) {
            b.isend(r1, 30'000 + 2 * k, 0, world, 7, 1000 + k, 100 + k);
            b.isendComplete(r1, 30'001 + 2 * k, 100 + k);
        }
        for (uint32_t k = 0; k < kNonBlocking; ++k)
            b.irecv(r0, 40'000 + k, 1, world, 7, 1000 + k, 500 + k);
        const Trace trace = h.finish();

        QCOMPARE(trace.messages().size(), size_t(kBlocking + kNonBlocking));
        QCOMPARE(trace.diagnostics().unmatchedMessages(), uint64_t(0));
        QCOMPARE(trace.diagnostics().orphanRequestEvents, uint64_t(0));
        QVERIFY(trace.diagnostics().warnings.empty());
        for (uint32_t k = 0; k < kBlocking; ++k) {
            const Message* m = messageAt(trace, r0, k);
            QVERIFY(m);
            QCOMPARE(m->recvLocation, r1);
            QCOMPARE(m->recvEvent, kBlocking - 1 - k);
            QCOMPARE(m->tag, int32_t(k));
            QCOMPARE(m->bytes, uint64_t(k + 1));
        }
        for (uint32_t k = 0; k < kNonBlocking; ++k) {
            const Message* m = messageAt(trace, r1, kBlocking + 2 * k);
            QVERIFY(m);
            QCOMPARE(m->sendEvent, kBlocking + 2 * k);
            QCOMPARE(m->recvLocation, r0);
            QCOMPARE(m->recvEvent, kBlocking + kNonBlocking + k);
            QCOMPARE(m->bytes, uint64_t(1000 + k));
            const MessageId id = trace.events(r1).message(kBlocking + 2 * k);
            QCOMPARE(trace.events(r1).message(kBlocking + 2 * k + 1), id); // completion
            QCOMPARE(trace.events(r0).message(kBlocking + k), id);         // posting
        }
    }
};

QTEST_GUILESS_MAIN(TestBuildRecords)
#include "tst_buildrecords.moc"
