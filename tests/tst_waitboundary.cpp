// The pieces rankscope-mpi's parallel wait analysis adds to model/waits, checked in one process:
// - boundaryMessageEnds: the ends of a trace read in two parts, paired by (communicator, sender,
//   receiver, tag, k), are exactly the messages the importer matched across the cut in the
//   whole trace (its own matching, a second method), with the send's time from the whole trace.
// - mergeWaitTotals: totals of two blocks of ranks, each with its own call-site table, merge to
//   the totals analyzeWaitStates gives for the whole trace (same call sites in the same order).

#include "importers/otf2/otf2reader.h"
#include "model/trace/trace.h"
#include "model/waits/waitboundary.h"
#include "model/waits/waitcalllocator.h"
#include "model/waits/waitscan.h"
#include "testsupport/testpaths.h"

#include <QTest>
#include <map>
#include <set>
#include <tuple>

using namespace rankscope;

namespace {

Trace readPart(const QString& anchor, uint32_t first, uint32_t end)
{
    Otf2ReadOptions options;
    options.selectRanks = [&](const std::vector<uint64_t>& events) {
        std::vector<bool> held(events.size(), false);
        for (uint32_t r = first; r < end && r < events.size(); ++r)
            held[r] = true;
        return held;
    };
    return readOtf2(anchor.toStdString(), options);
}

using Ends = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; // send loc/event, recv loc/event

} // namespace

class TestWaitBoundary : public QObject
{
    Q_OBJECT

private slots:
    void pairsAsTheImporterMatches_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("cut");
        for (int cut : {1, 4, 8})
            QTest::addRow("stencil2d-9 at %d", cut) << "stencil2d-9" << cut;
        for (int cut : {1, 32, 63})
            QTest::addRow("tracer-stencil4d-64r at %d", cut) << "tracer-stencil4d-64r" << cut;
        QTest::addRow("late-sender-barrier at 2") << "casita-mpi-late-sender-barrier-4r" << 2;
    }

    void pairsAsTheImporterMatches()
    {
        QFETCH(QString, trace);
        QFETCH(int, cut);
        const QString anchor = test::checkedInTraceAnchor(trace);
        QVERIFY(!anchor.isEmpty());
        const Trace whole = readOtf2(anchor.toStdString());
        const auto n = uint32_t(whole.rankCount());
        const auto c = uint32_t(cut);

        // The messages matched across the cut, by the importer over the whole trace.
        std::set<Ends> expected;
        for (const Message& m : whole.messages()) {
            if (!m.matched()) continue;
            const bool sendLow = whole.rankOf(m.sendLocation).value < c;
            const bool recvLow = whole.rankOf(m.recvLocation).value < c;
            if (sendLow != recvLow)
                expected.insert(
                    {m.sendLocation.value, m.sendEvent, m.recvLocation.value, m.recvEvent});
        }
        QVERIFY(!expected.empty());

        const Trace low = readPart(anchor, 0, c);
        const Trace high = readPart(anchor, c, n);
        const WaitCallLocator lowLocator(low), highLocator(high);
        const auto lowEnds =
            boundaryMessageEnds(low, lowLocator, [&](RankId r) { return r.value < c; });
        const auto highEnds =
            boundaryMessageEnds(high, highLocator, [&](RankId r) { return r.value >= c; });
        using Key = std::tuple<uint32_t, uint32_t, uint32_t, int32_t, uint64_t, bool>;
        std::map<Key, const BoundaryMessageEnd*> byKey;
        for (const BoundaryMessageEnd& e : highEnds)
            byKey[{e.comm, e.sender, e.receiver, e.tag, e.sequence, e.send}] = &e;

        std::set<Ends> paired;
        for (const BoundaryMessageEnd& a : lowEnds) {
            const auto it = byKey.find({a.comm, a.sender, a.receiver, a.tag, a.sequence, !a.send});
            if (it == byKey.end()) continue;
            const BoundaryMessageEnd& b = *it->second;
            const BoundaryMessageEnd& send = a.send ? a : b;
            const BoundaryMessageEnd& recv = a.send ? b : a;
            const Message& ms = (a.send ? low : high).message(send.message);
            const Message& mr = (a.send ? high : low).message(recv.message);
            paired.insert(
                {ms.sendLocation.value, ms.sendEvent, mr.recvLocation.value, mr.recvEvent});
            // The send's time as the whole trace has it.
            QCOMPARE(send.sendFacts.sendTime, whole.events(ms.sendLocation).time(ms.sendEvent));
        }
        QCOMPARE(paired.size(), expected.size());
        QVERIFY(paired == expected);
    }

    void totalsOfBlocksMergeToTheWhole()
    {
        for (const char* name : {"stencil2d-9", "casita-mpi-late-sender-barrier-4r"}) {
            const QString anchor = test::checkedInTraceAnchor(name);
            QVERIFY(!anchor.isEmpty());
            const Trace trace = readOtf2(anchor.toStdString());
            const WaitStateAnalysis whole = analyzeWaitStates(trace);
            QVERIFY(whole.totalNs > 0);

            const WaitScanner scanner(trace, WaitStateOptions());
            const auto n = uint32_t(trace.rankCount());
            const uint32_t cut = n / 2;
            std::vector<RankWaits> ranks;
            std::vector<WaitStateAnalysis> parts(2);
            for (uint32_t r = 0; r < n; ++r)
                ranks.push_back(scanner.scan(RankId(r), parts[r < cut ? 0 : 1].callSites, {}));
            for (RankWaits& r : ranks)
                for (size_t i = 0; i < r.waits.size(); ++i)
                    r.waits[i].direct =
                        causeWasIdle(ranks[r.waits[i].cause.value], r.links[i].causeEvent);
            for (uint32_t r = 0; r < n; ++r) {
                auto& w = parts[r < cut ? 0 : 1].waits;
                w.insert(w.end(), ranks[r].waits.begin(), ranks[r].waits.end());
            }
            for (WaitStateAnalysis& p : parts)
                addWaitTotals(p, n);
            // The second block's table starts afresh: its ids differ from the whole trace's.
            QVERIFY(parts[1].callSites.size() > 0);

            const WaitStateAnalysis merged = mergeWaitTotals(parts, n);
            QVERIFY(merged.callSites == whole.callSites);
            QCOMPARE(merged.byCallSite, whole.byCallSite);
            QCOMPARE(merged.byRank, whole.byRank);
            QCOMPARE(merged.byPattern, whole.byPattern);
            QCOMPARE(merged.totalNs, whole.totalNs);
            QCOMPARE(merged.directNs, whole.directNs);
            QCOMPARE(merged.indirectNs, whole.indirectNs);
            QCOMPARE(merged.wrongOrderNs, whole.wrongOrderNs);
        }
    }
};

QTEST_GUILESS_MAIN(TestWaitBoundary)
#include "tst_waitboundary.moc"
