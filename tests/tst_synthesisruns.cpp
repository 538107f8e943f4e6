// Trace synthesis of runs whose length changes with the scale (ALGORITHMS.md §5; synthruns.h):
// NPB CG's shape, sums across a process-grid row by ceil(log2 n / 2) exchanges with r XOR 2^j
// whose tags are the loop index and a transpose partner, written out at a larger scale; and
// runs whose lengths follow no rule, refused with the call site and the rules tried. Expected
// partners, tags, sizes and counts are derived here from the generated program, not read back
// from the synthesis.

#include "model/trace/trace.h"
#include "testsupport/bundledspec.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/networkspec.h"

#include <QTest>
#include <tuple>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

netsim::NetworkSpec ibSwitch()
{
    return test::bundledSpec("ib-switch");
}

uint32_t log2Of(uint32_t n)
{
    uint32_t l = 0;
    while ((1u << l) < n)
        ++l;
    return l;
}

/// NPB CG's grid for n a power of 2: nprows = 2^floor(log2 n / 2) rows of npcols = n / nprows.
uint32_t cgColumns(uint32_t n)
{
    return n >> (log2Of(n) / 2);
}

/// NPB CG's transpose partner (exch_proc) in that grid.
uint32_t cgTranspose(uint32_t me, uint32_t n)
{
    const uint32_t nprows = n / cgColumns(n);
    if (cgColumns(n) == nprows) return (me % nprows) * nprows + me / nprows;
    return 2 * (((me / 2) % nprows) * nprows + me / 2 / nprows) + me % 2;
}

constexpr int32_t kTransposeTag = 7;
constexpr uint64_t kRowBytes = 12800; ///< a vector segment is kRowBytes / npcols bytes

/// One message of a rank: partner, tag, bytes.
using Exchange = std::tuple<uint32_t, int32_t, uint64_t>;

/// What a rank of cgTrace(n) sends in one iteration (and receives: every exchange is mutual).
/// L = log2 npcols = ceil(log2 n / 2), reduce partner i (1..L) = r XOR npcols / 2^i:
///   the vector sum, i = L down to 1: kRowBytes / npcols bytes, tag i;
///   the transpose: kRowBytes / npcols bytes, tag kTransposeTag;
///   the scalar sum, i = 1 up to L: 8 bytes, tag i.
std::vector<Exchange> cgIteration(uint32_t r, uint32_t n)
{
    const uint32_t npcols = cgColumns(n), l = log2Of(npcols);
    const uint64_t segment = kRowBytes / npcols;
    std::vector<Exchange> out;
    for (uint32_t i = l; i >= 1; --i)
        out.emplace_back(r ^ (npcols >> i), int32_t(i), segment);
    out.emplace_back(cgTranspose(r, n), kTransposeTag, segment);
    for (uint32_t i = 1; i <= l; ++i)
        out.emplace_back(r ^ (npcols >> i), int32_t(i), 8);
    return out;
}

/// NPB CG's communication in 3 iterations: each exchange of cgIteration as CG makes it, an
/// MPI_Irecv posted, an MPI_Send, an MPI_Wait for the receive (one call site each); an
/// MPI_Allreduce of 8 bytes ends every iteration.
Trace cgTrace(uint32_t n)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId irecv = h.mpi("MPI_Irecv", RegionRole::MpiPointToPoint);
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId wait = h.mpi("MPI_Wait");
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const CommId world = w.world;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = w.locs[r];
        w.begin(l);
        int64_t t = 1000;
        uint64_t request = 1;
        for (int it = 0; it < 3; ++it) {
            for (const auto& [partner, tag, bytes] : cgIteration(r, n)) {
                h.enter(l, t, irecv);
                h.builder().irecvRequest(l, t + 1, request);
                h.leave(l, t + 2, irecv);
                h.enter(l, t + 10, send);
                h.builder().send(l, t + 11, partner, world, tag, bytes);
                h.leave(l, t + 12, send);
                h.enter(l, t + 20, wait);
                h.builder().irecv(l, t + 30, partner, world, tag, bytes, request++);
                h.leave(l, t + 31, wait);
                t += 100;
            }
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 1000;
        }
        w.end(l, t, t + 20);
    }
    return h.finish();
}

/// 3 iterations of `length(n)` exchanges around a ring (MPI_Send of 64 bytes to r + 1 mod n,
/// MPI_Recv from r - 1 mod n) and an MPI_Allreduce.
Trace ringRunTrace(uint32_t n, uint32_t length)
{
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const CommId world = w.world;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = w.locs[r];
        w.begin(l);
        int64_t t = 100;
        for (int it = 0; it < 3; ++it) {
            for (uint32_t i = 0; i < length; ++i, t += 100) {
                h.enter(l, t, send);
                h.builder().send(l, t + 1, (r + 1) % n, world, 0, 64);
                h.leave(l, t + 2, send);
                h.enter(l, t + 10, recv);
                h.builder().recv(l, t + 20, (r + n - 1) % n, world, 0, 64);
                h.leave(l, t + 21, recv);
            }
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 1000;
        }
        w.end(l, t + 100, t + 120);
    }
    return h.finish();
}

/// A wavefront program on a periodic p x p grid (n = p^2; rank r at column i = r mod p, row
/// j = r / p), as NPB BT's multi-partition solver makes it, traced without call paths (no user
/// region around the MPI calls, as SimGrid's SMPI records them). Per iteration:
///   a face exchange: 4 MPI_Irecv posted, MPI_Send to west, east, south, north (tags 10-13,
///   kFaceBytes / p bytes each), 4 MPI_Wait completing the receives from east, west, north,
///   south;
///   a sweep along x, then one along y: p - 1 stages of [MPI_Irecv posted, MPI_Send to the
///   successor (i + 1 or j + 1), MPI_Wait completing the receive from the predecessor] of
///   kStageBytes / p bytes, tagged by the cell the stage works on (100 + ((i + s) mod p) + p j
///   along x, 200 + i + p ((j + s) mod p) along y): tags that differ from rank to rank;
///   an MPI_Allreduce of 8 bytes.
constexpr uint64_t kFaceBytes = 17280, kStageBytes = 8640; // divisible by 3, 4, 5, 6, 8

uint32_t sideOf(uint32_t n)
{
    uint32_t p = 1;
    while (p * p < n)
        ++p;
    return p;
}

Trace wavefrontTrace(uint32_t n)
{
    const uint32_t p = sideOf(n);
    test::HandTrace h;
    std::vector<LocationId> locs;
    for (uint32_t r = 0; r < n; ++r)
        locs.push_back(h.addRank());
    const CommId world = h.addWorld();
    const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    const RegionId irecv = h.mpi("MPI_Irecv", RegionRole::MpiPointToPoint);
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId wait = h.mpi("MPI_Wait");
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const auto at = [&](uint32_t i, uint32_t j) { return (i % p) + p * (j % p); };
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        const uint32_t i = r % p, j = r / p;
        h.call(l, init, 10, 20);
        int64_t t = 1000;
        uint64_t request = 1;
        // Receives posted, the sends, then the waits: one step each.
        const auto exchange = [&](const std::vector<std::tuple<uint32_t, int32_t>>& to,
                                  const std::vector<std::tuple<uint32_t, int32_t>>& from,
                                  uint64_t bytes) {
            const uint64_t first = request;
            for (size_t k = 0; k < from.size(); ++k, t += 10) {
                h.enter(l, t, irecv);
                h.builder().irecvRequest(l, t + 1, request++);
                h.leave(l, t + 2, irecv);
            }
            for (const auto& [dst, tag] : to) {
                h.enter(l, t, send);
                h.builder().send(l, t + 1, dst, world, tag, bytes);
                h.leave(l, t + 2, send);
                t += 10;
            }
            for (size_t k = 0; k < from.size(); ++k, t += 10) {
                h.enter(l, t, wait);
                const auto& [src, tag] = from[k];
                h.builder().irecv(l, t + 5, src, world, tag, bytes, first + k);
                h.leave(l, t + 6, wait);
            }
        };
        for (int it = 0; it < 3; ++it) {
            const uint64_t face = kFaceBytes / p, stage = kStageBytes / p;
            exchange({{at(i + p - 1, j), 10},
                      {at(i + 1, j), 11},
                      {at(i, j + p - 1), 12},
                      {at(i, j + 1), 13}},
                     {{at(i + 1, j), 10},
                      {at(i + p - 1, j), 11},
                      {at(i, j + 1), 12},
                      {at(i, j + p - 1), 13}},
                     face);
            for (uint32_t s = 0; s + 1 < p; ++s)
                exchange({{at(i + 1, j), int32_t(100 + at(i + s, j))}},
                         {{at(i + p - 1, j), int32_t(100 + at(i + p - 1 + s, j))}}, stage);
            for (uint32_t s = 0; s + 1 < p; ++s)
                exchange({{at(i, j + 1), int32_t(200 + at(i, j + s))}},
                         {{at(i, j + p - 1), int32_t(200 + at(i, j + p - 1 + s))}}, stage);
            h.enter(l, t, allreduce);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 9, CollectiveOp::Allreduce, world, kNoRoot, 8, 8);
            h.leave(l, t + 10, allreduce);
            t += 1000;
        }
        h.call(l, fin, t, t + 10);
    }
    return h.finish();
}

/// The messages rank `rank` of `t` sends and receives, in its order of events.
std::pair<std::vector<Exchange>, std::vector<Exchange>> exchangesOf(const Trace& t, uint32_t rank)
{
    std::vector<Exchange> sent, received;
    const EventStream& ev = t.rankEvents(RankId(rank));
    for (size_t i = 0; i < ev.size(); ++i) {
        const EventKind k = ev.kind(i);
        if (k != EventKind::MpiSend && k != EventKind::MpiRecv && k != EventKind::MpiIrecv)
            continue;
        const Message& m = t.message(ev.message(i));
        if (k == EventKind::MpiSend)
            sent.emplace_back(t.messageReceiver(m).value, m.tag, m.bytes);
        else
            received.emplace_back(t.messageSender(m).value, m.tag, m.bytes);
    }
    return {sent, received};
}

} // namespace

class TestSynthesisRuns : public QObject
{
    Q_OBJECT

private slots:
    void cgInputsFollowTheirRules()
    {
        // The generator itself, at 8 ranks (2 x 4 grid, L = 2): rank 5 is row 1, column 1; its
        // reduce partners are 5 ^ 2 = 7 and 5 ^ 1 = 4, its transpose partner
        // 2 * ((2 % 2) * 2 + 2 / 2) + 1 = 3.
        QCOMPARE(cgColumns(8), 4u);
        QCOMPARE(cgTranspose(5, 8), 3u);
        const Trace t8 = cgTrace(8);
        const std::vector<Exchange> one{
            {4, 2, 3200}, {7, 1, 3200}, {3, kTransposeTag, 3200}, {7, 1, 8}, {4, 2, 8}};
        QCOMPARE(cgIteration(5, 8), one);
        QCOMPARE(t8.diagnostics().unmatchedMessages(), uint64_t(0));
    }

    void cgRowSumsSynthesisedAtLargerScale()
    {
        const Trace t4 = cgTrace(4), t8 = cgTrace(8), t16 = cgTrace(16);
        SynthesisOptions o;
        o.target = 32;
        const SynthesisResult r = synthesise({&t4, &t8, &t16}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.rankCount(), size_t(32));
        QCOMPARE(t.diagnostics().unmatchedMessages(), uint64_t(0));
        // 32 ranks: a 4 x 8 grid, L = 3. Per iteration rank r sends, in order:
        // r^1 (tag 3), r^2 (tag 2), r^4 (tag 1) of 12800 / 8 = 1600 bytes; its transpose partner
        // 2 * (((r / 2) % 4) * 4 + r / 8) + r % 2 (tag 7, 1600 bytes); r^4 (tag 1), r^2 (tag 2),
        // r^1 (tag 3) of 8 bytes. 7 sends and receives per iteration, 21 per rank.
        for (uint32_t rank = 0; rank < 32; ++rank) {
            const uint32_t transpose = 2 * (((rank / 2) % 4) * 4 + rank / 8) + rank % 2;
            const std::vector<Exchange> iteration{
                {rank ^ 1, 3, 1600}, {rank ^ 2, 2, 1600},
                {rank ^ 4, 1, 1600}, {transpose, kTransposeTag, 1600},
                {rank ^ 4, 1, 8},    {rank ^ 2, 2, 8},
                {rank ^ 1, 3, 8}};
            std::vector<Exchange> expected;
            for (int it = 0; it < 3; ++it)
                expected.insert(expected.end(), iteration.begin(), iteration.end());
            const auto [sent, received] = exchangesOf(t, rank);
            QCOMPARE(sent, expected);
            QCOMPARE(received, expected);
        }
        QCOMPARE(t.messages().size(), size_t(32 * 21));
        QCOMPARE(t.collectives().size(), size_t(3));
        for (const CollectiveInstance& c : t.collectives())
            QCOMPARE(size_t(c.memberCount), size_t(32));
        // The loop body holds two runs of L exchanges (the vector and the scalar sum; the
        // transpose and the MPI_Allreduce part them), each read as one rule.
        bool noted = false;
        for (const std::string& n : r.notes)
            noted = noted || n.find("a run at main:MPI_Irecv repeats ceil(log2 n / 2) times "
                                    "(3 at 32 ranks), with partners r XOR 2^j (2 runs)") !=
                                 std::string::npos;
        QVERIFY(noted);
    }

    void wavefrontWithRankTagsSynthesisedAtLargerScale()
    {
        // The inputs pair up and their tags differ from rank to rank (rank 0 and rank 1 of
        // 9 ranks tag their first x stage 100 and 101).
        const Trace t9 = wavefrontTrace(9), t16 = wavefrontTrace(16), t25 = wavefrontTrace(25);
        QCOMPARE(t9.diagnostics().unmatchedMessages(), uint64_t(0));
        QCOMPARE(t25.diagnostics().unmatchedMessages(), uint64_t(0));
        QCOMPARE(std::get<1>(exchangesOf(t9, 0).first[4]), 100);
        QCOMPARE(std::get<1>(exchangesOf(t9, 1).first[4]), 101);
        SynthesisOptions o;
        o.target = 64;
        const SynthesisResult r = synthesise({&t9, &t16, &t25}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.rankCount(), size_t(64));
        QCOMPARE(t.diagnostics().unmatchedMessages(), uint64_t(0));
        // 64 ranks: p = 8. Per iteration rank (i, j) sends 17280 / 8 = 2160 bytes to west,
        // east, south, north, then 7 stages of 8640 / 8 = 1080 bytes to (i + 1, j) and 7 to
        // (i, j + 1); it receives faces from east, west, north, south, then 7 stages from
        // (i - 1, j) and 7 from (i, j - 1). Tags are set aside (0).
        const auto at = [](uint32_t i, uint32_t j) { return (i % 8) + 8 * (j % 8); };
        for (uint32_t rank = 0; rank < 64; ++rank) {
            const uint32_t i = rank % 8, j = rank / 8;
            std::vector<Exchange> sends{{at(i + 7, j), 0, 2160},
                                        {at(i + 1, j), 0, 2160},
                                        {at(i, j + 7), 0, 2160},
                                        {at(i, j + 1), 0, 2160}};
            std::vector<Exchange> receives{{at(i + 1, j), 0, 2160},
                                           {at(i + 7, j), 0, 2160},
                                           {at(i, j + 1), 0, 2160},
                                           {at(i, j + 7), 0, 2160}};
            for (int s = 0; s < 7; ++s) {
                sends.emplace_back(at(i + 1, j), 0, 1080);
                receives.emplace_back(at(i + 7, j), 0, 1080);
            }
            for (int s = 0; s < 7; ++s) {
                sends.emplace_back(at(i, j + 1), 0, 1080);
                receives.emplace_back(at(i, j + 7), 0, 1080);
            }
            std::vector<Exchange> sent3, received3;
            for (int it = 0; it < 3; ++it) {
                sent3.insert(sent3.end(), sends.begin(), sends.end());
                received3.insert(received3.end(), receives.begin(), receives.end());
            }
            const auto [sent, received] = exchangesOf(t, rank);
            QCOMPARE(sent, sent3);
            QCOMPARE(received, received3);
        }
        QCOMPARE(t.messages().size(), size_t(64 * 3 * (4 + 14)));
        QCOMPARE(t.collectives().size(), size_t(3));
        bool runNoted = false, tagsNoted = false;
        for (const std::string& n : r.notes) {
            runNoted =
                runNoted || n.find("repeats sqrt n - 1 times (7 at 64 ranks)") != std::string::npos;
            tagsNoted = tagsNoted || n.find("tags differ between ranks") != std::string::npos;
        }
        QVERIFY(runNoted);
        QVERIFY(tagsNoted);
    }

    void wavefrontFromFourRanksOn()
    {
        // The same program from 4 ranks on: at p = 2 west and east are one rank and each sweep
        // has one stage. More inputs must still give the 64-rank trace of 9/16/25: the
        // messages worked out above, 64 x 3 x (4 + 14).
        const Trace t4 = wavefrontTrace(4), t9 = wavefrontTrace(9), t16 = wavefrontTrace(16),
                    t25 = wavefrontTrace(25);
        SynthesisOptions o;
        o.target = 64;
        const SynthesisResult r = synthesise({&t4, &t9, &t16, &t25}, ibSwitch(), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        // The 4-rank run cannot be read under the larger ones' rules; it is left out of the
        // structure by name, its timing kept.
        bool leftOut = false;
        for (const std::string& w : r.warnings)
            leftOut =
                leftOut || (w.find("left out of them: the trace of 4 ranks") != std::string::npos &&
                            w.find("follow the 3 larger inputs") != std::string::npos);
        QVERIFY(leftOut);
        QCOMPARE(r.scales, (std::vector<uint32_t>{9, 16, 25}));
        QCOMPARE(r.trace->messages().size(), size_t(64 * 3 * (4 + 14)));
        QCOMPARE(r.trace->diagnostics().unmatchedMessages(), uint64_t(0));
        uint64_t bytes = 0;
        for (const Message& m : r.trace->messages())
            bytes += m.bytes;
        // Per rank and iteration 4 faces of 2160 bytes and 14 stages of 1080.
        QCOMPARE(bytes, uint64_t(64 * 3 * (4 * 2160 + 14 * 1080)));
    }

    void runsFollowingNoScaleFunctionRefused()
    {
        // 2, 3 and 5 exchanges per iteration at 4, 8 and 16 ranks: not c x f(n) for any f of
        // log2 n (2, 3, 4), ceil(log2 n / 2) (1, 2, 2), floor(log2 n / 2) (1, 1, 2), n, n - 1,
        // n / 2 (2, 4, 8), sqrt n and sqrt n - 1 (no integer at 8).
        const Trace t4 = ringRunTrace(4, 2), t8 = ringRunTrace(8, 3), t16 = ringRunTrace(16, 5);
        SynthesisOptions o;
        o.target = 32;
        const SynthesisResult r = synthesise({&t4, &t8, &t16}, ibSwitch(), o);
        QVERIFY(!r.trace);
        QVERIFY(!r.refused.empty());
        bool named = false;
        for (const Refusal& f : r.refused)
            named = named ||
                    f.reason.find("a run at main:MPI_Send repeats 2, 3, 5 times at 4, 8, 16 ranks, "
                                  "by no rule c x f(n) with f among log2 n, ceil(log2 n / 2), "
                                  "floor(log2 n / 2), n, n - 1, n / 2, sqrt n, sqrt n - 1") !=
                        std::string::npos;
        QVERIFY2(named, r.refused.front().reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSynthesisRuns)
#include "tst_synthesisruns.moc"
