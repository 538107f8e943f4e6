// Trace synthesis of programs whose structure changes with the scale (ALGORITHMS.md §5, revised):
// execution intervals seen at too few scales, sampled from the nearest scale below a threshold of
// the computation time and refused above it; the comparison of a predicted trace with a run at
// the target scale (`predict --measured`).

#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "testsupport/bundledspec.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "whatif/extrap/synthcompare.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/extrap/synthfit.h"
#include "whatif/netsim/networkspec.h"

#include <QTest>
#include <algorithm>
#include <string>
#include <tuple>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

netsim::NetworkSpec ibSwitch()
{
    return test::bundledSpec("ib-switch");
}

/// n ranks: MPI_Init, 1000 ns, MPI_Barrier (site A), then the first and last rank compute
/// 1000 ns, the middle ranks 500 ns, call MPI_Comm_rank (site B) and compute 500 ns more;
/// MPI_Barrier (site C), 1000 ns, MPI_Finalize. The intervals `A - B` and `B - C` exist only
/// where there are middle ranks (3 or more ranks).
Trace middleRanksTrace(uint32_t n)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId a = h.user("a"), c = h.user("c");
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::MpiCollective);
    const RegionId commRank = h.mpi("MPI_Comm_rank");
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    const auto barrierAt = [&](LocationId l, RegionId site, int64_t t) {
        h.enter(l, t, site);
        h.enter(l, t, barrier);
        h.builder().collectiveBegin(l, t + 1);
        h.builder().collectiveEnd(l, t + 9, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
        h.leave(l, t + 10, barrier);
        h.leave(l, t + 10, site);
    };
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        const bool middle = r > 0 && r + 1 < n;
        w.begin(l);
        barrierAt(l, a, 1020);
        int64_t t = 1030;
        if (middle) {
            h.call(l, commRank, t + 500, t + 510);
            t += 1010;
        } else {
            t += 1000;
        }
        barrierAt(l, c, t);
        w.end(l, t + 1010, t + 1030);
    }
    return h.finish();
}

/// n ranks: MPI_Init, then 3 times 1000 ns of computation and an MPI_Allreduce of 8 bytes;
/// from 16 ranks on each MPI_Allreduce is followed 10 ns later by an MPI_Barrier in the region
/// "extra" (a call site present from n >= 16 on); MPI_Finalize.
Trace growingTrace(uint32_t n)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId extra = h.user("extra");
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::MpiCollective);
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        w.begin(l);
        int64_t t = 20;
        for (int it = 0; it < 3; ++it) {
            t += 1000;
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 10;
            if (n >= 16) {
                h.enter(l, t + 10, extra);
                h.enter(l, t + 10, barrier);
                h.builder().collectiveBegin(l, t + 11);
                h.builder().collectiveEnd(l, t + 19, CollectiveOp::Barrier, world, kNoRoot, 0, 0);
                h.leave(l, t + 20, barrier);
                h.leave(l, t + 20, extra);
                t += 20;
            }
        }
        w.end(l, t + 100, t + 120);
    }
    return h.finish();
}

/// NPB CG's reduction inside a loop: 3 iterations of log2(n) exchanges with r xor 2^i
/// (MPI_Send then MPI_Recv, one call site each) and an MPI_Allreduce; with `extraRanks`, the
/// ranks r with r * 7 % 5 == 0 also call MPI_Comm_rank at the end (no placement explains them).
Trace butterflyTrace(uint32_t n, bool extraRanks = false)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const RegionId commRank = h.mpi("MPI_Comm_rank");
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        w.begin(l);
        int64_t t = 100;
        for (int it = 0; it < 3; ++it) {
            for (uint32_t bit = 1; bit < n; bit <<= 1, t += 100) {
                h.enter(l, t, send);
                h.builder().send(l, t + 1, r ^ bit, world, 0, 64);
                h.leave(l, t + 2, send);
                h.enter(l, t + 10, recv);
                h.builder().recv(l, t + 20, r ^ bit, world, 0, 64);
                h.leave(l, t + 21, recv);
            }
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 1000;
        }
        if (extraRanks && r * 7 % 5 == 0) h.call(l, commRank, t, t + 10);
        w.end(l, t + 100, t + 120);
    }
    return h.finish();
}

/// 4 ranks in a ring: MPI_Init ends at 20 + r, each rank sends `bytes` to r+1 (mod 4) and
/// receives from r-1 `sends` times at one call site, then one MPI_Allreduce; MPI_Finalize ends
/// at 5000 + 10 r.
Trace ringTrace(uint64_t bytes, int sends, bool skipLastPartner = false, bool selfComm = false)
{
    test::MpiWorld w(4);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    const CommId self = h.builder().addCommunicator(h.builder().intern("self"), {RankId(0)});
    for (uint32_t r = 0; r < 4; ++r) {
        const LocationId l = locs[r];
        w.begin(l, 20 + r);
        if (selfComm && r == 0) {
            h.builder().misc(l, 30, MiscEvent{MiscKind::CommCreate, self.value, 0});
            h.builder().misc(l, 31, MiscEvent{MiscKind::CommDestroy, self.value, 0});
        }
        int64_t t = 100;
        for (int i = 0; i < sends; ++i, t += 100) {
            const bool skip = skipLastPartner && i == sends - 1;
            if (!(skip && r == 3)) {
                h.enter(l, t, send);
                h.builder().send(l, t + 1, (r + 1) % 4, world, 0, bytes);
                h.leave(l, t + 2, send);
            }
            if (!(skip && r == 0)) {
                h.enter(l, t + 10, recv);
                h.builder().recv(l, t + 20, (r + 3) % 4, world, 0, bytes);
                h.leave(l, t + 21, recv);
            }
        }
        h.enter(l, t, allreduce);
        h.builder().collectiveBegin(l, t + 1);
        h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
        h.leave(l, t + 10, allreduce);
        w.end(l, 4990 + 10 * r, 6000);
    }
    return h.finish();
}

/// How pairTrace's ranks change from 16 ranks on.
enum class From16
{
    Reorder,   // odd ranks call MPI_Comm_rank before the loop instead of after it
    Deadlock,  // odd ranks receive before the loop instead of after it
    ExtraSend, // even ranks send to r + 1 before the loop too
};

/// n ranks (n even): MPI_Init, 3 times 1000 ns and an MPI_Allreduce of 8 bytes, then even
/// ranks send 64 bytes with tag 0 to r + 1 and odd ranks receive them (after MPI_Comm_rank),
/// MPI_Finalize; from 16 ranks on changed as `change` says, by no rule in the scale.
Trace pairTrace(uint32_t n, From16 change)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const RegionId commRank = h.mpi("MPI_Comm_rank");
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    const bool changed = n >= 16;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        const bool odd = r % 2 == 1;
        w.begin(l);
        int64_t t = 100;
        const auto p2p = [&] {
            if (odd) {
                h.enter(l, t, recv);
                h.builder().recv(l, t + 10, r - 1, world, 0, 64);
                h.leave(l, t + 11, recv);
            } else {
                h.enter(l, t, send);
                h.builder().send(l, t + 1, r + 1, world, 0, 64);
                h.leave(l, t + 2, send);
            }
            t += 100;
        };
        const bool early = changed && ((odd && change != From16::ExtraSend) ||
                                       (!odd && change == From16::ExtraSend));
        if (early && change == From16::Reorder) h.call(l, commRank, t, t + 10), t += 100;
        if (early && change != From16::Reorder) p2p();
        for (int it = 0; it < 3; ++it) {
            t += 1000;
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 10;
        }
        if (odd && !(early && change == From16::Reorder)) h.call(l, commRank, t, t + 10);
        t += 100;
        if (!(early && change == From16::Deadlock)) p2p();
        w.end(l, t + 100, t + 120);
    }
    return h.finish();
}

SynthesisResult pairsAt32(From16 change)
{
    const Trace t4 = pairTrace(4, change), t8 = pairTrace(8, change), t16 = pairTrace(16, change);
    SynthesisOptions o;
    o.target = 32;
    o.maxUnruledShare = 1.0; // the changed ranks' intervals are seen at 16 ranks only
    return synthesise({&t4, &t8, &t16}, ibSwitch(), o);
}

bool anyHas(const std::vector<std::string>& texts, const std::string& part)
{
    return std::any_of(texts.begin(), texts.end(),
                       [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

/// The MPI regions rank r enters, in order.
std::vector<std::string> mpiCalls(const Trace& t, uint32_t r)
{
    std::vector<std::string> calls;
    const EventStream& ev = t.rankEvents(RankId(r));
    for (size_t i = 0; i < ev.size(); ++i) {
        if (ev.kind(i) != EventKind::Enter) continue;
        const std::string name(t.str(t.region(ev.region(i)).name));
        if (name.rfind("MPI_", 0) == 0) calls.push_back(name);
    }
    return calls;
}

} // namespace

class TestSynthesisScale : public QObject
{
    Q_OBJECT

private slots:
    void unruledIntervalsBelowThreshold()
    {
        // At 4 ranks the computation time is 4 x 1000 (Init - A) + 2 x 1000 (A - C of the ends)
        // + 2 x (500 + 500) (A - B, B - C of the middle) + 4 x 1000 (C - Finalize) = 12000 ns;
        // A - B and B - C, seen at 3 and 4 ranks only, carry 1000 ns each: 8.33 % apiece.
        const Trace t2 = middleRanksTrace(2), t3 = middleRanksTrace(3), t4 = middleRanksTrace(4);
        SynthesisOptions o;
        o.target = 8;
        o.maxUnruledShare = 0.20;
        const SynthesisResult r = synthesise({&t2, &t3, &t4}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        QCOMPARE(r.unruled.size(), size_t(2));
        for (const synth::UnruledInterval& u : r.unruled) {
            QCOMPARE(u.scale, 4u);
            QVERIFY(std::abs(u.share - 1000.0 / 12000.0) < 1e-9);
            // Both middle ranks of 4 spend 500 ns in each.
            QCOMPARE(u.rankMeans, (std::vector<double>{500.0, 500.0}));
        }
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY(r.warnings.front().find("16.67 %") != std::string::npos);
        QVERIFY(r.warnings.front().find("main>a:MPI_Barrier - main:MPI_Comm_rank") !=
                std::string::npos);
        QCOMPARE(r.trace->rankCount(), size_t(8));
    }

    void unruledIntervalsAboveThresholdRefused()
    {
        // The same 16.67 % against the default limit of 10 %.
        const Trace t2 = middleRanksTrace(2), t3 = middleRanksTrace(3), t4 = middleRanksTrace(4);
        SynthesisOptions o;
        o.target = 8;
        const SynthesisResult r = synthesise({&t2, &t3, &t4}, ibSwitch(), o);
        QVERIFY(!r.trace);
        QCOMPARE(r.refused.size(), size_t(1));
        QVERIFY(r.refused.front().reason.find("16.67 %") != std::string::npos);
        QVERIFY(r.refused.front().reason.find("--max-unruled-share") != std::string::npos);
    }

    void sizeFollowsGridDimension()
    {
        // A halo face of 100 + 960 / d0 bytes, d0 the first dimension of MPI_Dims_create(n, 2):
        // 2 x 2, 4 x 2, 4 x 4 give 580, 340, 340; 32 ranks are 8 x 4, so 100 + 120 = 220.
        const std::vector<FitPoint> points{{4, 0, 580}, {8, 0, 340}, {16, 0, 340}};
        const synth::Placement grid(synth::PlacementKind::Grid2);
        QCOMPARE(synth::fitSize(points, 32, &grid), uint64_t(220));
    }

    void callSiteFromSixteenRanksOn()
    {
        const Trace t4 = growingTrace(4), t8 = growingTrace(8), t16 = growingTrace(16);
        SynthesisOptions o;
        o.target = 32;
        // The computation before MPI_Allreduce follows MPI_Barrier at 16 ranks: an interval
        // seen at one scale only, which carries most of the time; allowed here.
        o.maxUnruledShare = 1.0;
        const SynthesisResult r = synthesise({&t4, &t8, &t16}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        // Present for n >= 16, so at 32 ranks: 3 MPI_Allreduce and 3 MPI_Barrier instances.
        size_t allreduces = 0, barriers = 0;
        for (const CollectiveInstance& c : r.trace->collectives()) {
            allreduces += c.op == CollectiveOp::Allreduce ? 1 : 0;
            barriers += c.op == CollectiveOp::Barrier ? 1 : 0;
            QCOMPARE(size_t(c.memberCount), size_t(32));
        }
        QCOMPARE(allreduces, size_t(3));
        QCOMPARE(barriers, size_t(3));
        bool ruled = false;
        for (const std::string& n : r.notes)
            ruled = ruled || n.find("main>extra:MPI_Barrier is present from 16 ranks on") !=
                                 std::string::npos;
        QVERIFY(ruled);
    }

    void loopCountInsideTheLoopSynthesised()
    {
        // NPB CG's (and MG's) shape: a loop whose trip count changes with the scale (log2 n
        // exchanges) inside the main loop, read as a run of log2 n copies with r XOR 2^j.
        const Trace t4 = butterflyTrace(4), t8 = butterflyTrace(8), t16 = butterflyTrace(16);
        SynthesisOptions o;
        o.target = 32;
        const SynthesisResult r = synthesise({&t4, &t8, &t16}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.rankCount(), size_t(32));
        // butterflyTrace at 32 ranks: 3 iterations of bit = 1, 2, 4, 8, 16 (5 = log2 32), each
        // an MPI_Send of 64 bytes with tag 0 to r ^ bit and an MPI_Recv from r ^ bit.
        for (uint32_t rank = 0; rank < 32; ++rank) {
            std::vector<std::tuple<uint32_t, int32_t, uint64_t>> expected, sent, received;
            for (int it = 0; it < 3; ++it)
                for (uint32_t bit = 1; bit < 32; bit <<= 1)
                    expected.emplace_back(rank ^ bit, 0, 64);
            const EventStream& ev = t.rankEvents(RankId(rank));
            for (size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind(i) != EventKind::MpiSend && ev.kind(i) != EventKind::MpiRecv) continue;
                const Message& m = t.message(ev.message(i));
                QVERIFY(m.matched());
                if (ev.kind(i) == EventKind::MpiSend)
                    sent.emplace_back(t.messageReceiver(m).value, m.tag, m.bytes);
                else
                    received.emplace_back(t.messageSender(m).value, m.tag, m.bytes);
            }
            QCOMPARE(sent, expected);
            QCOMPARE(received, expected);
        }
        QCOMPARE(t.messages().size(), size_t(32 * 15));
        // One MPI_Allreduce of all 32 ranks per iteration.
        QCOMPARE(t.collectives().size(), size_t(3));
        for (const CollectiveInstance& c : t.collectives()) {
            QCOMPARE(c.op, CollectiveOp::Allreduce);
            QCOMPARE(size_t(c.memberCount), size_t(32));
        }
        bool noted = false;
        for (const std::string& n : r.notes)
            noted = noted || n.find("a run at main:MPI_Send repeats log2 n times (5 at 32 ranks), "
                                    "with partners r XOR 2^j") != std::string::npos;
        QVERIFY(noted);
    }

    void ranksNoPlacementExplainsRefused()
    {
        // What still refuses NPB MG from 8/16/32: ranks of one role at one scale that make
        // different calls whatever the placement (here r * 7 % 5 == 0 adds a call).
        const Trace t8 = butterflyTrace(8, true), t16 = butterflyTrace(16, true),
                    t32 = butterflyTrace(32, true);
        SynthesisOptions o;
        o.target = 64;
        const SynthesisResult r = synthesise({&t8, &t16, &t32}, ibSwitch(), o);
        QVERIFY(!r.trace);
        QVERIFY(!r.refused.empty());
        bool named = false;
        for (const Refusal& f : r.refused)
            named = named || f.reason.find("but make different MPI calls") != std::string::npos;
        QVERIFY(named);
    }

    void roleCarriedFromLargestScale()
    {
        // The odd ranks' calls at 16 ranks follow no rule from 4 and 8: carried as 16 runs
        // them, with a warning, not refused.
        const SynthesisResult r = pairsAt32(From16::Reorder);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.rankCount(), size_t(32));
        QVERIFY(anyHas(r.warnings, "ranks make other MPI calls at 4, 8 ranks than at 16 ranks"));
        // pairTrace's 16-rank form at 32: odd ranks MPI_Comm_rank before the loop, even ranks
        // none; every even rank sends 64 bytes to r + 1.
        const std::vector<std::string> odd{"MPI_Init",      "MPI_Comm_rank", "MPI_Allreduce",
                                           "MPI_Allreduce", "MPI_Allreduce", "MPI_Recv",
                                           "MPI_Finalize"};
        const std::vector<std::string> even{"MPI_Init",      "MPI_Allreduce", "MPI_Allreduce",
                                            "MPI_Allreduce", "MPI_Send",      "MPI_Finalize"};
        for (uint32_t rank = 0; rank < 32; ++rank)
            QCOMPARE(mpiCalls(t, rank), rank % 2 ? odd : even);
        QCOMPARE(t.messages().size(), size_t(16));
        for (const Message& m : t.messages()) {
            QVERIFY(m.matched());
            QCOMPARE(t.messageReceiver(m).value, t.messageSender(m).value + 1);
            QCOMPARE(m.bytes, uint64_t(64));
        }
        QCOMPARE(t.collectives().size(), size_t(3));
    }

    void carriedCallsWithoutPartnerLeftOut()
    {
        // From 16 ranks on even ranks send to r + 1 twice, odd ranks still receive once: at 32
        // ranks each of the 16 even ranks has one send more than its partner receives, so 16
        // sends are written without their message.
        const SynthesisResult r = pairsAt32(From16::ExtraSend);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        QVERIFY(anyHas(r.warnings, "16 sends and 0 receives of carried roles find no matching "
                                   "call at 32 ranks"));
        QCOMPARE(r.trace->messages().size(), size_t(16));
        for (const Message& m : r.trace->messages())
            QVERIFY(m.matched());
    }

    void carriedRolesThatCannotRunRefused()
    {
        // From 16 ranks on odd ranks wait for their message before the MPI_Allreduce their
        // partner sends it after: carried, the ranks wait for each other forever.
        const SynthesisResult r = pairsAt32(From16::Deadlock);
        QVERIFY(!r.trace);
        // The carried roles' failure, why the odd ranks could not be found without carrying
        // (their calls at 16 ranks against 4 and 8), and the tiled 16-rank run's failure: its
        // ranks wait for each other too.
        QCOMPARE(r.refused.size(), size_t(3));
        QVERIFY(r.refused.front().reason.find("carried without a rule") != std::string::npos);
        QVERIFY(r.refused.front().reason.find("wait for each other forever") != std::string::npos);
        // Where: at 32 ranks odd rank 1 receives from rank 0 in its first call after MPI_Init
        // (its role's step 2, MPI_Init being step 1), while rank 0 is in the MPI_Allreduce.
        QVERIFY(r.refused.front().reason.find(
                    "rank 1 (role 'odd ranks') waits in step 2 of its ") != std::string::npos);
        QVERIFY(r.refused.front().reason.find(
                    "at main:MPI_Recv, whose partners follow the rule r-1") != std::string::npos);
        QVERIFY(r.refused.front().reason.find(
                    "rank 1 waits in its MPI call 1 after MPI_Init for a message of 64 bytes "
                    "from rank 0") != std::string::npos);
        QVERIFY(r.refused[1].reason.find("make different MPI calls") != std::string::npos);
        QVERIFY(r.refused.back().reason.find("tiled") != std::string::npos);
    }

    void structureMatch()
    {
        const Trace measured = ringTrace(1000, 3);
        // simulate's span: the last rank's end of MPI_Init (20 + 3 = 23, rank 3) to the end of
        // MPI_Finalize (5030, rank 3).
        QCOMPARE(initToFinalizeNs(measured), std::optional<int64_t>(5007));
        const StructureMatch same = compareStructure(measured, measured, "m");
        QCOMPARE(same.messagesPct, 0.0);
        QCOMPARE(same.bytesPct, 0.0);
        QVERIFY(same.collectivesEqual);
        QCOMPARE(same.partnersEqualRanksPct, 100.0);
        QCOMPARE(same.eventsEqualRanksPct, 100.0);
        QCOMPARE(same.measuredMessages, uint64_t(12));

        // 1010 bytes instead of 1000: 1 % more bytes at the send site, as many messages.
        const StructureMatch bytes = compareStructure(ringTrace(1010, 3), measured, "m");
        QCOMPARE(bytes.messagesPct, 0.0);
        QVERIFY(std::abs(bytes.bytesPct - 1.0) < 1e-9);
        QCOMPARE(bytes.differences.size(), size_t(1));
        QCOMPARE(bytes.differences.front().callSite, std::string("main:MPI_Send"));

        // Rank 0's records of a communicator of its own coming and going are not counted.
        const Trace withSelf = ringTrace(1000, 3, false, true);
        QCOMPARE(withSelf.rankEvents(RankId(0)).size(), measured.rankEvents(RankId(0)).size() + 2);
        const StructureMatch self = compareStructure(measured, withSelf, "m");
        QCOMPARE(self.eventsEqualRanksPct, 100.0);

        // 4 sends instead of 3: 16 messages against 12 (33.3 %); partners unchanged.
        const StructureMatch more = compareStructure(ringTrace(1000, 4), measured, "m");
        QVERIFY(std::abs(more.messagesPct - 100.0 / 3.0) < 1e-9);
        QCOMPARE(more.partnersEqualRanksPct, 100.0);
        QCOMPARE(more.eventsEqualRanksPct, 0.0);

        // Ranks 3 -> 0 talk only in the last round, which is dropped: ranks 0 and 3 lose a
        // partner, ranks 1 and 2 keep theirs.
        const StructureMatch fewer =
            compareStructure(ringTrace(1000, 1, true), ringTrace(1000, 1), "m");
        QCOMPARE(fewer.partnersEqualRanksPct, 50.0);
        QVERIFY(fewer.collectivesEqual);
    }

    void structureMatchNeedsTheTargetScale()
    {
        const Trace four = ringTrace(1000, 1);
        const Trace two = middleRanksTrace(2);
        try {
            compareStructure(four, two, "run-2");
            QFAIL("no error");
        } catch (const TraceError& e) {
            QVERIFY(std::string(e.what()).find("run-2 holds 2 ranks") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestSynthesisScale)
#include "tst_synthesisscale.moc"
