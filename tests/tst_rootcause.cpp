// Root causes of wait states, H-CWP-DM (ALGORITHMS.md §6.4). The hand-built cases give the
// analysis a WaitStateAnalysis written by hand (what the detector would find), so they test the
// charging alone; every expected number is worked out next to its timeline.

#include "importers/otf2/otf2reader.h"
#include "model/trace/trace.h"
#include "model/waits/rootcause.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace rankscope {
// Readable QCOMPARE failures (found by argument-dependent lookup).
char* toString(const RootCauseCost& c)
{
    return qstrdup(QStringLiteral("{function %1 rank %2 cost %3}")
                       .arg(c.function.value)
                       .arg(c.rank.value)
                       .arg(c.costNs)
                       .toUtf8()
                       .constData());
}
char* toString(const FunctionCause& c)
{
    return qstrdup(QStringLiteral("{function %1 cost %2 share %3}")
                       .arg(c.function.value)
                       .arg(c.costNs)
                       .arg(c.shareOfWaiting)
                       .toUtf8()
                       .constData());
}
char* toString(const CallSiteCause& c)
{
    return qstrdup(QStringLiteral("{callsite %1 function %2 cost %3 share %4}")
                       .arg(c.callSite.value)
                       .arg(c.function.value)
                       .arg(c.costNs)
                       .arg(c.shareOfWaitingAtCallSite)
                       .toUtf8()
                       .constData());
}
} // namespace rankscope

namespace {

/// MPI_Send [begin, end] on `loc` sending one message to world rank `to`.
void sendCall(HandTrace& h, LocationId loc, int64_t begin, int64_t end, uint32_t to, CommId world)
{
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    h.enter(loc, begin, send);
    h.builder().send(loc, begin, to, world, 0, 8);
    h.leave(loc, end, send);
}

/// MPI_Recv [begin, end] on `loc` receiving one message from world rank `from`.
void recvCall(HandTrace& h, LocationId loc, int64_t begin, int64_t end, uint32_t from, CommId world)
{
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    h.enter(loc, begin, recv);
    h.builder().recv(loc, end, from, world, 0, 8);
    h.leave(loc, end, recv);
}

void barrierCall(HandTrace& h, LocationId loc, int64_t begin, int64_t end, CommId world)
{
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::Barrier);
    h.enter(loc, begin, barrier);
    h.builder().collectiveBegin(loc, begin);
    h.builder().collectiveEnd(loc, end, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
    h.leave(loc, end, barrier);
}

RegionId regionNamed(const Trace& trace, std::string_view name)
{
    for (uint32_t i = 0; i < trace.regions().size(); ++i) {
        if (trace.regionName(RegionId(i)) == name) return RegionId(i);
    }
    return {};
}

/// Adds the wait of the MPI call `function` entered at `begin` on `rank`, lasting until `end`
/// (the cause's Enter), with its call site `site` interned in the analysis' table.
void addWait(WaitStateAnalysis& a, const Trace& trace, WaitPattern pattern, uint32_t rank,
             std::string_view function, std::string_view site, int64_t begin, int64_t end,
             uint32_t cause)
{
    WaitState w;
    w.pattern = pattern;
    w.rank = RankId(rank);
    w.region = regionNamed(trace, function);
    const EventStream& ev = trace.rankEvents(w.rank);
    for (size_t i = ev.window(begin, begin + 1).first; i < ev.size(); ++i) {
        if (ev.kind(i) == EventKind::Enter && ev.region(i) == w.region) {
            w.enterEvent = uint32_t(i);
            break;
        }
    }
    w.callSite = a.callSites.intern(site);
    w.begin = begin;
    w.end = end;
    w.cause = RankId(cause);
    a.waits.push_back(w);
    a.totalNs += w.duration();
}

// The worked example of the brief, 2 ranks, functions A and B:
//   rank 0: A [0,20]  B [20,30]  MPI_Recv [30,75]            (waits from 30 to 70: 40 ns)
//   rank 1: A [0,50]  B [50,70]  MPI_Send [70,80]
// Interval before the wait (no earlier synchronisation): t(0,A) = 20, t(0,B) = 10,
// t(1,A) = 50, t(1,B) = 20, so sigma(1,A) = 30, sigma(1,B) = 10, sum 40:
//   cost(A on 1) = 30/40 * 40 = 30 (75 %), cost(B on 1) = 10/40 * 40 = 10 (25 %).
// Hotspots: exclusive A 20+50 = 70, B 10+20 = 30, MPI 45+10 = 55, total 155: both > 1 %.
Trace workedExample()
{
    HandTrace h;
    const LocationId r0 = h.addRank();
    const LocationId r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId a = h.user("A");
    const RegionId b = h.user("B");
    h.call(r0, a, 0, 20);
    h.call(r0, b, 20, 30);
    recvCall(h, r0, 30, 75, 1, world);
    h.call(r1, a, 0, 50);
    h.call(r1, b, 50, 70);
    sendCall(h, r1, 70, 80, 0, world);
    return h.finish();
}

#ifdef RANKSCOPE_CLI
using rankscope::test::CliResult;
using rankscope::test::runCli;

/// Runs the rankscope-cli built with these tests.
#endif

// casita-mpi-late-sender-barrier-4r, from otf2-print (timestamps in ns, 1 GHz clock). Every rank
// runs main > late_sender > foo, then MPI; then main > barrier > foo, MPI_Barrier. foo is
// nearly all computation (main, late_sender and barrier have microseconds of exclusive time;
// MPI is no candidate), so foo is the only hotspot at 1 %.
// - Late Sender chain 0 -> 1 -> 2 -> 3:
//     rank 1 MPI_Recv enters 106107922094015, rank 0's MPI_Send 106116946908054: 9024814039
//     rank 2 MPI_Recv        106107918769568, rank 1's MPI_Send 106117924094517: 10005324949
//     rank 3 MPI_Recv        106107985107808, rank 2's MPI_Send 106118975541798: 10990433990
// - MPI_Barrier, rank 0 enters last at 106126796092142:
//     rank 1 106118960929793: 7835162349, rank 2 106119952296334: 6843795808,
//     rank 3 106120065783752: 6730308390
// Total 51429839525. Charging:
// - rank 1 waits for 0: foo ran 10.10 s on rank 0 (106106850417947..106116946770357) against
//   1.07 s on rank 1 before its MPI_Recv: foo on 0 charged the whole 9024814039.
// - rank 2 waits for 1: rank 1's interval starts at its MPI_Recv (a synchronisation point);
//   after it foo ran 0.977 s (106116946957369..106117924063839), less than rank 2's 1.068 s
//   before its MPI_Recv: sigma = 0, nothing charged (the wait is indirect: rank 1 was late
//   only because it waited itself). Likewise rank 3 for 2 (1.051 s against 1.135 s).
// - Barrier: rank 0's interval starts at its MPI_Send; foo then ran 9.849 s
//   (106116946940710..106126795980477), far longer than on ranks 1-3 since their previous
//   synchronisation point (about 1 s each): foo on 0 charged all three barrier waits.
// Explained: 9024814039 + 7835162349 + 6843795808 + 6730308390 = 30434080586, i.e. 59.18 %,
// all to foo on rank 0.
constexpr int64_t kCasitaTotal = 51429839525;
constexpr int64_t kCasitaExplained = 30434080586;

} // namespace

class TestRootCause : public QObject
{
    Q_OBJECT

private slots:
    void workedExample()
    {
        const Trace trace = ::workedExample();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "main:MPI_Recv", 30, 70, 1);
        const RegionId a = regionNamed(trace, "A");
        const RegionId b = regionNamed(trace, "B");

        RootCauseReport expected;
        expected.hotspots = {a, b};
        expected.perFunctionRank = {{a, RankId(1), 30}, {b, RankId(1), 10}};
        expected.perFunction = {{a, 30, 0.75}, {b, 10, 0.25}};
        expected.perCallSite = {{CallSiteId(0), a, 30, 0.75}, {CallSiteId(0), b, 10, 0.25}};
        expected.totalWaitNs = 40;
        expected.explainedNs = 40;
        const RootCauseReport report = analyzeRootCauses(trace, waits);
        QCOMPARE(report.perFunctionRank, expected.perFunctionRank);
        QCOMPARE(report.perFunction, expected.perFunction);
        QCOMPARE(report.perCallSite, expected.perCallSite);
        QCOMPARE(report, expected);
    }

    void barrierLastRankLateBecauseOfHotspot()
    {
        // rank 0: solve [0,50]             MPI_Barrier [50,100]  waits 50..90 = 40
        // rank 1: solve [0,60]             MPI_Barrier [60,100]  waits 60..90 = 30
        // rank 2: solve [0,50] io [50,90]  MPI_Barrier [90,100]  last to arrive
        // p = 0: t(0,solve) = 50, t(0,io) = 0 vs t(2,solve) = 50, t(2,io) = 40:
        //        sigma(2,solve) = 0, sigma(2,io) = 40 -> io on 2 charged all 40.
        // p = 1: t(1,solve) = 60 > 50, so sigma(2,solve) = 0; sigma(2,io) = 40 -> io charged 30.
        // io on 2: 70 of 70 ns waiting (100 %). solve ran longer on rank 1 than on 2 but is
        // never charged: only the cause's excess counts.
        // Hotspots: solve 160, barrier 50+40+10 = 100 (MPI, no candidate), io 40: of 300,
        // io is 13.3 %.
        HandTrace h;
        std::vector<LocationId> locs;
        for (int r = 0; r < 3; ++r)
            locs.push_back(h.addRank());
        const CommId world = h.addWorld();
        const RegionId solve = h.user("solve");
        const RegionId io = h.user("io");
        h.call(locs[0], solve, 0, 50);
        barrierCall(h, locs[0], 50, 100, world);
        h.call(locs[1], solve, 0, 60);
        barrierCall(h, locs[1], 60, 100, world);
        h.call(locs[2], solve, 0, 50);
        h.call(locs[2], io, 50, 90);
        barrierCall(h, locs[2], 90, 100, world);
        const Trace trace = h.finish();

        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::WaitAtBarrier, 0, "MPI_Barrier", "MPI_Barrier", 50, 90,
                2);
        addWait(waits, trace, WaitPattern::WaitAtBarrier, 1, "MPI_Barrier", "MPI_Barrier", 60, 90,
                2);

        RootCauseReport expected;
        expected.hotspots = {solve, io};
        expected.perFunctionRank = {{io, RankId(2), 70}};
        expected.perFunction = {{io, 70, 1.0}};
        expected.perCallSite = {{CallSiteId(0), io, 70, 1.0}};
        expected.totalWaitNs = 70;
        expected.explainedNs = 70;
        QCOMPARE(analyzeRootCauses(trace, waits), expected);
    }

    void threshold_data()
    {
        QTest::addColumn<double>("percent");
        QTest::addColumn<QStringList>("hotspots");
        QTest::addColumn<qint64>("costA");
        QTest::addColumn<qint64>("costTiny");

        // rank 0: A [0,100]                 MPI_Recv [100,200]   waits 100..200 = 100
        // rank 1: A [0,198]  tiny [198,200] MPI_Send [200,210]
        // Exclusive: A 298, tiny 2, MPI 110, total 410: A 72.7 %, tiny 0.49 %.
        // Excess of rank 1: sigma(A) = 198 - 100 = 98, sigma(tiny) = 2 - 0 = 2.
        // Default 1 %: tiny is no hotspot, so A, the only one, is charged all 100 ns.
        QTest::newRow("default 1%") << 1.0 << QStringList{"A"} << qint64(100) << qint64(0);
        // 0.4 %: tiny too; A gets 98/100 * 100 = 98, tiny 2/100 * 100 = 2.
        QTest::newRow("0.4%") << 0.4 << QStringList{"A", "tiny"} << qint64(98) << qint64(2);
        // 80 %: no hotspot at all, nothing charged.
        QTest::newRow("80%") << 80.0 << QStringList{} << qint64(0) << qint64(0);
        // 100 %: still none (A is 72.7 %).
        QTest::newRow("100%") << 100.0 << QStringList{} << qint64(0) << qint64(0);
    }

    void threshold()
    {
        QFETCH(double, percent);
        QFETCH(QStringList, hotspots);
        QFETCH(qint64, costA);
        QFETCH(qint64, costTiny);

        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId a = h.user("A");
        const RegionId tiny = h.user("tiny");
        h.call(r0, a, 0, 100);
        recvCall(h, r0, 100, 200, 1, world);
        h.call(r1, a, 0, 198);
        h.call(r1, tiny, 198, 200);
        sendCall(h, r1, 200, 210, 0, world);
        const Trace trace = h.finish();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 100, 200, 1);

        RootCauseOptions options;
        options.hotspotThresholdPercent = percent;
        const RootCauseReport report = analyzeRootCauses(trace, waits, options);
        QStringList names;
        for (RegionId r : report.hotspots)
            names << QString::fromUtf8(trace.regionName(r));
        QCOMPARE(names, hotspots);

        std::vector<RootCauseCost> expected;
        if (costA > 0) expected.push_back({a, RankId(1), costA});
        if (costTiny > 0) expected.push_back({tiny, RankId(1), costTiny});
        QCOMPARE(report.perFunctionRank, expected);
        QCOMPARE(report.totalWaitNs, qint64(100));
        QCOMPARE(report.explainedNs, costA + costTiny);
    }

    void noChargeWithoutExcess()
    {
        // rank 0: A [0,50]  MPI_Recv [50,110]                 waits 50..100 = 50
        // rank 1: A [0,50]  MPI_Comm_dup [50,100]  MPI_Send [100,110]
        // Rank 1 was late in MPI, not in a hotspot: sigma(1,A) = 50 - 50 = 0, the sum of
        // excesses is 0, so nothing is charged and nothing is explained.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId a = h.user("A");
        h.call(r0, a, 0, 50);
        recvCall(h, r0, 50, 110, 1, world);
        h.call(r1, a, 0, 50);
        h.call(r1, h.mpi("MPI_Comm_dup"), 50, 100);
        sendCall(h, r1, 100, 110, 0, world);
        const Trace trace = h.finish();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 50, 100, 1);

        RootCauseReport expected;
        expected.hotspots = {a};
        expected.totalWaitNs = 50;
        expected.explainedNs = 0;
        QCOMPARE(analyzeRootCauses(trace, waits), expected);
    }

    void intervalStartsAtPreviousSynchronisation()
    {
        // A late-sender chain 0 -> 1 -> 2:
        //   rank 0: A [0,100]                      MPI_Send to 1 [100,110]
        //   rank 1: B [0,10]  MPI_Recv [10,105]  A [105,130]  MPI_Send to 2 [130,135]
        //   rank 2: A [0,20]  MPI_Recv [20,140]
        // Wait 1: rank 1 waits 10..100 (90) for rank 0. Intervals from the start:
        //   p = 1: A 0, B 10; q = 0: A 100, B 0 -> sigma A = 100, B = 0: A on 0 charged 90.
        // Wait 2: rank 2 waits 20..130 (110) for rank 1. p = 2 from the start: A 20, B 0.
        //   q = 1 from its previous synchronisation point, the Enter of its MPI_Recv at 10 (not
        //   from time 0): A 25, B 0 -> sigma A = 5, B = 0: A on 1 charged all 110.
        //   (Counting from 0 would give B 10 and split the wait 5:10 between A and B.)
        // Exclusive: A 100+25+20 = 145, B 10, MPI 10+95+5+120 = 230, total 385: B is 2.6 %.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const LocationId r2 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId a = h.user("A");
        const RegionId b = h.user("B");
        h.call(r0, a, 0, 100);
        sendCall(h, r0, 100, 110, 1, world);
        h.call(r1, b, 0, 10);
        recvCall(h, r1, 10, 105, 0, world);
        h.call(r1, a, 105, 130);
        sendCall(h, r1, 130, 135, 2, world);
        h.call(r2, a, 0, 20);
        recvCall(h, r2, 20, 140, 1, world);
        const Trace trace = h.finish();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 1, "MPI_Recv", "r1:MPI_Recv", 10, 100, 0);
        addWait(waits, trace, WaitPattern::LateSender, 2, "MPI_Recv", "r2:MPI_Recv", 20, 130, 1);

        RootCauseReport expected;
        expected.hotspots = {a, b};
        expected.perFunctionRank = {{a, RankId(1), 110}, {a, RankId(0), 90}};
        expected.perFunction = {{a, 200, 1.0}};
        expected.perCallSite = {{CallSiteId(1), a, 110, 1.0}, {CallSiteId(0), a, 90, 1.0}};
        expected.totalWaitNs = 200;
        expected.explainedNs = 200;
        QCOMPARE(analyzeRootCauses(trace, waits), expected);
    }

    void roundingChargesEachWaitExactly()
    {
        // rank 0: MPI_Recv [0,10]                         waits 0..10 = 10
        // rank 1: A [0,4]  B [4,7]  C [7,10]  MPI_Send [10,11]
        // sigma: A 4, B 3, C 3 (rank 0 ran nothing), sum 10: exact shares 4, 3, 3.
        // Second wait, rank 0 again: MPI_Recv [11,18] waits 11..14 = 3 for
        // rank 1: A [11,12] B [12,13] C [13,14] MPI_Send [14,15]: sigma 1, 1, 1 of 3 ns:
        // shares 1, 1, 1. Third, MPI_Recv [18,30] waits 18..20 = 2 for
        // rank 1: A [15,16] B [16,17] C [17,20] MPI_Send [20,21]: sigma 1, 1, 3 of 5 ns:
        // floors 2/5 -> 0, 0, 6/5 -> 1; the remaining 1 ns goes to the largest excess, C.
        // Totals: A 4+1+0 = 5, B 3+1+0 = 4, C 3+1+2 = 6, of 15. Exclusive A 6, B 5, C 7.
        HandTrace h;
        const LocationId r0 = h.addRank();
        const LocationId r1 = h.addRank();
        const CommId world = h.addWorld();
        const RegionId a = h.user("A");
        const RegionId b = h.user("B");
        const RegionId c = h.user("C");
        recvCall(h, r0, 0, 10, 1, world);
        recvCall(h, r0, 11, 18, 1, world);
        recvCall(h, r0, 18, 30, 1, world);
        h.call(r1, a, 0, 4);
        h.call(r1, b, 4, 7);
        h.call(r1, c, 7, 10);
        sendCall(h, r1, 10, 11, 0, world);
        h.call(r1, a, 11, 12);
        h.call(r1, b, 12, 13);
        h.call(r1, c, 13, 14);
        sendCall(h, r1, 14, 15, 0, world);
        h.call(r1, a, 15, 16);
        h.call(r1, b, 16, 17);
        h.call(r1, c, 17, 20);
        sendCall(h, r1, 20, 21, 0, world);
        const Trace trace = h.finish();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 0, 10, 1);
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 11, 14, 1);
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 18, 20, 1);

        const RootCauseReport report = analyzeRootCauses(trace, waits);
        const std::vector<RootCauseCost> expected = {
            {c, RankId(1), 6}, {a, RankId(1), 5}, {b, RankId(1), 4}};
        QCOMPARE(report.perFunctionRank, expected);
        QCOMPARE(report.explainedNs, qint64(15));
        QCOMPARE(report.totalWaitNs, qint64(15));
        QCOMPARE(report.hotspots, (std::vector<RegionId>{c, a, b}));
    }

    void endToEndWithDetector()
    {
        // The worked example through the real wait-state detector: it must find the one
        // Late Sender of 40 ns (MPI_Recv entered at 30, MPI_Send at 70), charged 30 / 10.
        const Trace trace = ::workedExample();
        const WaitStateAnalysis waits = analyzeWaitStates(trace);
        QCOMPARE(waits.waits.size(), size_t(1));
        const RootCauseReport report = analyzeRootCauses(trace, waits);
        const RegionId a = regionNamed(trace, "A");
        const RegionId b = regionNamed(trace, "B");
        QCOMPARE(report.perFunctionRank,
                 (std::vector<RootCauseCost>{{a, RankId(1), 30}, {b, RankId(1), 10}}));
        QCOMPARE(report.totalWaitNs, qint64(40));
        QCOMPARE(report.explainedNs, qint64(40));
    }

    void realTraceFooExplainsTheWaiting()
    {
        const QString anchor =
            rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
        const Trace trace = readOtf2(anchor.toStdString());
        const WaitStateAnalysis waits = analyzeWaitStates(trace);
        const RootCauseReport report = analyzeRootCauses(trace, waits);
        const RegionId foo = regionNamed(trace, "foo");

        QCOMPARE(report.totalWaitNs, kCasitaTotal);
        QCOMPARE(report.hotspots, std::vector<RegionId>{foo});
        QCOMPARE(report.explainedNs, kCasitaExplained);
        QCOMPARE(report.perFunctionRank,
                 (std::vector<RootCauseCost>{{foo, RankId(0), kCasitaExplained}}));
        QCOMPARE(report.perFunction.size(), size_t(1));
        QCOMPARE(report.perFunction[0].function, foo);
        QCOMPARE(report.perFunction[0].costNs, kCasitaExplained);
        QCOMPARE(report.perFunction[0].shareOfWaiting,
                 double(kCasitaExplained) / double(kCasitaTotal));
        QVERIFY(!report.cancelled);
    }

#ifdef RANKSCOPE_CLI
    void cliJsonAndText()
    {
        const QString anchor =
            rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces

        const CliResult json = runCli({"rootcause", anchor, "--json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value("total_wait_ns").toInteger(), kCasitaTotal);
        QCOMPARE(o.value("explained_ns").toInteger(), kCasitaExplained);
        QCOMPARE(o.value("hotspots").toArray(), QJsonArray{"foo"});
        const QJsonArray functions = o.value("functions").toArray();
        QCOMPARE(functions.size(), 1);
        QCOMPARE(functions[0].toObject().value("function").toString(), QStringLiteral("foo"));
        QCOMPARE(functions[0].toObject().value("cost_ns").toInteger(), kCasitaExplained);
        // Call sites: the MPI_Recv of rank 1 and the MPI_Barrier, both explained by foo.
        const QJsonArray sites = o.value("callsites").toArray();
        QVERIFY(!sites.isEmpty());
        int64_t siteSum = 0;
        for (const QJsonValue& v : sites) {
            QCOMPARE(v.toObject().value("function").toString(), QStringLiteral("foo"));
            siteSum += v.toObject().value("cost_ns").toInteger();
        }
        QCOMPARE(siteSum, kCasitaExplained);
        const QJsonArray pairs = o.value("function_ranks").toArray();
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs[0].toObject().value("rank").toInt(), 0);

        const CliResult text = runCli({"rootcause", anchor, "--hotspot-threshold", "5"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("balancing foo would remove up to 59.2% of the waiting"),
                 text.out.constData());
    }

    void cliBadThreshold_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("zero") << "0";
        QTest::newRow("negative") << "-1";
        QTest::newRow("above 100") << "100.5";
        QTest::newRow("not a number") << "abc";
    }

    void cliBadThreshold()
    {
        QFETCH(QString, value);
        const QString anchor =
            rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
        QCOMPARE(runCli({"rootcause", anchor, "--hotspot-threshold", value}).exitCode, 2);
    }
#endif

    void cancelled()
    {
        const Trace trace = ::workedExample();
        WaitStateAnalysis waits;
        addWait(waits, trace, WaitPattern::LateSender, 0, "MPI_Recv", "MPI_Recv", 30, 70, 1);
        RootCauseOptions options;
        options.progress = [](double) { return false; };
        QVERIFY(analyzeRootCauses(trace, waits, options).cancelled);

        double last = -1;
        bool monotone = true;
        options.progress = [&](double f) {
            monotone = monotone && f >= last && f <= 1.0;
            last = f;
            return true;
        };
        QVERIFY(!analyzeRootCauses(trace, waits, options).cancelled);
        QVERIFY(monotone);
        QCOMPARE(last, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestRootCause)
#include "tst_rootcause.moc"
