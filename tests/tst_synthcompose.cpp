// Trace synthesis with roles composed per grid dimension (whatif/extrap/synthcompose.h): a
// multigrid-like program whose ranks at even coordinates of a 4-rank dimension skip the coarse
// exchange and are sent its data instead, carried from 2 x 2 x 2 and 4 x 2 x 2 grids to 4 x 4 x 2,
// where a rank can sit at an even coordinate in two dimensions, as no input shows. Expected counts
// and partners are derived by hand from the program's definition below.

#include "model/trace/trace.h"
#include "testsupport/bundledspec.h"
#include "testsupport/handtrace.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/extrap/synthtile.h"

#include <QTest>
#include <array>
#include <map>
#include <set>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

constexpr int kIterations = 2;

/// Halo size along d on a grid of points^3 points: 8 bytes per point of the local face, which
/// carries the ghost layers (2 points) of the dimensions exchanged before d, or of every other
/// dimension with `whole`.
uint64_t haloBytes(const std::array<uint32_t, 3>& dims, uint32_t d, uint32_t points = 16,
                   bool whole = false)
{
    uint64_t face = 1;
    for (uint32_t f = 0; f < 3; ++f)
        if (f != d) face *= points / dims[f] + (f < d || whole ? 2 : 0);
    return 8 * face;
}

/// The program on a D0 x D1 x D2 grid (row-major, periodic), per iteration:
/// - halo, along dimension 0, 1, then 2: send to +1 (tag 101 + 10 d) and -1 (tag 100 + 10 d),
///   receive from -1 and +1;
///   with haloBytes(dims, d) each;
/// - coarse, only where every dimension of 4 ranks has an odd coordinate: the same exchange
///   with +-2 in dimensions of 4 ranks and +-1 in those of 2 (tags 200 + 10 d, 201 + 10 d);
/// - extra, in each dimension of 4 ranks: an odd coordinate sends to -1 (tag 100 + 10 d), an
///   even one receives from +1.
/// With `levels` (like NPB MG's comm3 and comm3_ex), the halo is exchanged again on a coarse
/// level of 4^3 points (the same tags), and an extra message is two whole faces of that level
/// (ghost layers on every side) instead of 32 bytes.
Trace multigridLike(std::array<uint32_t, 3> dims, bool levels = false)
{
    const uint32_t n = dims[0] * dims[1] * dims[2];
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId iter = h.user("iteration"), halo = h.user("halo");
    const RegionId coarse = h.user("coarse"), extra = h.user("extra");
    const auto rankAt = [&](uint32_t r, uint32_t d, int step) {
        std::array<int64_t, 3> c{r / (dims[1] * dims[2]), r / dims[2] % dims[1], r % dims[2]};
        c[d] = (c[d] + step + int64_t(dims[d]) * 4) % int64_t(dims[d]);
        return uint32_t((c[0] * dims[1] + c[1]) * dims[2] + c[2]);
    };
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = w.locs[r];
        const std::array<uint32_t, 3> c{r / (dims[1] * dims[2]), r / dims[2] % dims[1],
                                        r % dims[2]};
        w.begin(l);
        int64_t t = 1000;
        const auto call = [&](RegionId region, bool isSend, uint32_t partner, int32_t tag,
                              uint64_t bytes) {
            h.enter(l, t, region);
            if (isSend)
                h.builder().send(l, t + 1, partner, w.world, tag, bytes);
            else
                h.builder().recv(l, t + 1, partner, w.world, tag, bytes);
            h.leave(l, t + 2, region);
            t += 10;
        };
        const auto exchange = [&](int base, int step, uint32_t d, uint64_t bytes) {
            const int32_t tag = base + int32_t(10 * d);
            call(send, true, rankAt(r, d, step), tag + 1, bytes);
            call(send, true, rankAt(r, d, -step), tag, bytes);
            call(recv, false, rankAt(r, d, -step), tag + 1, bytes);
            call(recv, false, rankAt(r, d, step), tag, bytes);
        };
        bool alive = true;
        for (uint32_t d = 0; d < 3; ++d)
            alive = alive && (dims[d] != 4 || c[d] % 2 == 1);
        for (int it = 0; it < kIterations; ++it) {
            h.enter(l, t++, iter);
            h.enter(l, t++, halo);
            for (uint32_t d = 0; d < 3; ++d)
                exchange(100, 1, d, haloBytes(dims, d));
            for (uint32_t d = 0; levels && d < 3; ++d)
                exchange(100, 1, d, haloBytes(dims, d, 4));
            h.leave(l, t++, halo);
            h.enter(l, t++, coarse);
            if (alive)
                for (uint32_t d = 0; d < 3; ++d)
                    exchange(200, dims[d] == 4 ? 2 : 1, d, 64);
            h.leave(l, t++, coarse);
            h.enter(l, t++, extra);
            for (uint32_t d = 0; d < 3; ++d)
                if (dims[d] == 4) {
                    const uint64_t bytes = levels ? 2 * haloBytes(dims, d, 4, true) : 32;
                    if (c[d] % 2 == 1)
                        call(send, true, rankAt(r, d, -1), 100 + int32_t(10 * d), bytes);
                    else
                        call(recv, false, rankAt(r, d, 1), 100 + int32_t(10 * d), bytes);
                }
            h.leave(l, t++, extra);
            h.leave(l, t++, iter);
        }
        w.end(l, t + 10, t + 20);
    }
    return h.finish();
}

/// A program with row communicators on a D0 x D1 grid (row-major, periodic; MPI_Comm_split
/// with c0 as colour and the world rank as key), per iteration: a world halo along dimension 0
/// (send to +1 and -1, tags 100 and 101, 512 bytes), in the row communicator a send to the
/// next rank (row rank c1 + 1, tag 7, 256 bytes) and a receive from the previous, a row
/// MPI_Allreduce and a row MPI_Bcast from row rank 0.
Trace rowCommunicators(uint32_t d0, uint32_t d1)
{
    const uint32_t n = d0 * d1;
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    const RegionId allreduce = h.mpi("MPI_Allreduce", RegionRole::MpiCollective);
    const RegionId bcast = h.mpi("MPI_Bcast", RegionRole::MpiCollective);
    std::vector<CommId> rows;
    for (uint32_t c0 = 0; c0 < d0; ++c0) {
        std::vector<RankId> members;
        for (uint32_t c1 = 0; c1 < d1; ++c1)
            members.push_back(RankId(c0 * d1 + c1));
        rows.push_back(h.builder().addCommunicator(h.builder().intern("row"), members));
    }
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = w.locs[r];
        const uint32_t c0 = r / d1, c1 = r % d1;
        const CommId row = rows[c0];
        w.begin(l);
        int64_t t = 1000;
        const auto p2p = [&](bool isSend, uint32_t partner, CommId comm, int32_t tag,
                             uint64_t bytes) {
            h.enter(l, t, isSend ? send : recv);
            if (isSend)
                h.builder().send(l, t + 1, partner, comm, tag, bytes);
            else
                h.builder().recv(l, t + 1, partner, comm, tag, bytes);
            h.leave(l, t + 2, isSend ? send : recv);
            t += 10;
        };
        const auto collective = [&](RegionId region, CollectiveOp op, uint32_t root) {
            h.enter(l, t, region);
            h.builder().collectiveBegin(l, t + 1);
            h.builder().collectiveEnd(l, t + 5, op, row, root, 8, 8);
            h.leave(l, t + 6, region);
            t += 10;
        };
        const uint32_t up = (c0 + 1) % d0 * d1 + c1, down = (c0 + d0 - 1) % d0 * d1 + c1;
        for (int it = 0; it < kIterations; ++it) {
            p2p(true, up, w.world, 101, 512);
            p2p(true, down, w.world, 100, 512);
            p2p(false, down, w.world, 101, 512);
            p2p(false, up, w.world, 100, 512);
            p2p(true, (c1 + 1) % d1, row, 7, 256); // row ranks
            p2p(false, (c1 + d1 - 1) % d1, row, 7, 256);
            collective(allreduce, CollectiveOp::Allreduce, kNoRoot);
            collective(bcast, CollectiveOp::Bcast, 0);
        }
        w.end(l, t + 10, t + 20);
    }
    return h.finish();
}

std::set<uint32_t> partnersOf(const Trace& t, uint32_t rank)
{
    std::set<uint32_t> out;
    for (const Message& m : t.messages()) {
        const uint32_t s = t.messageSender(m).value, q = t.messageReceiver(m).value;
        if (s == rank) out.insert(q);
        if (q == rank) out.insert(s);
    }
    return out;
}

} // namespace

class TestSynthCompose : public QObject
{
    Q_OBJECT

private slots:
    void generatorMatchesItsDefinition()
    {
        // The 4 x 2 x 2 input: halo 16 ranks x 3 dims x 2 sends = 96; coarse on the 8 odd-c0
        // ranks, 3 dims x 2 sends = 48; extra: the 8 odd-c0 ranks send once. 152 a round.
        const Trace t = multigridLike({4, 2, 2});
        QCOMPARE(t.messages().size(), size_t(152 * kIterations));
        for (const Message& m : t.messages())
            QVERIFY(m.matched());
    }

    void evenInTwoDimensionsIsComposed()
    {
        const Trace small = multigridLike({2, 2, 2});
        const Trace large = multigridLike({4, 2, 2});
        const TiledDraft d = tileLargestInput({&small, &large}, 32, nullptr, 10'000'000);
        QVERIFY2(d.draft.has_value(), d.refusal.c_str());
        QVERIFY2(d.composed.size() == 1, d.placement.c_str());
        QVERIFY2(d.compositionFailure.empty(), d.compositionFailure.c_str());
        const Trace& t = *d.draft;
        QCOMPARE(t.rankCount(), size_t(32));
        for (const Message& m : t.messages())
            QVERIFY(m.matched());

        // At 4 x 4 x 2, per round: halo 32 x 3 x 2 = 192; coarse on the 8 ranks odd in both
        // dimensions of 4, 8 x 3 x 2 = 48; extra: 16 odd coordinates per dimension of 4, 32.
        QCOMPARE(t.messages().size(), size_t(272 * kIterations));
        std::map<int32_t, int> perTag;
        for (const Message& m : t.messages())
            ++perTag[m.tag];
        const std::map<int32_t, int> expected{
            {100, (32 + 16) * kIterations}, // halo -1 of dimension 0 and its extra messages
            {101, 32 * kIterations},        {110, (32 + 16) * kIterations}, {111, 32 * kIterations},
            {120, 32 * kIterations},        {121, 32 * kIterations},        {200, 8 * kIterations},
            {201, 8 * kIterations},         {210, 8 * kIterations},         {211, 8 * kIterations},
            {220, 8 * kIterations},         {221, 8 * kIterations},
        };
        QCOMPARE(perTag, expected);

        // Rank 10 = (1, 1, 0) is odd in both dimensions of 4: halo partners and the coarse
        // ones two away.
        QCOMPARE(partnersOf(t, 10), (std::set<uint32_t>{2, 8, 11, 12, 14, 18, 26}));
        // Rank 0 = (0, 0, 0), even in both: halo partners only.
        QCOMPARE(partnersOf(t, 0), (std::set<uint32_t>{1, 2, 6, 8, 24}));
        // Rank 8 = (1, 0, 0): even along dimension 1, so no coarse exchange.
        QCOMPARE(partnersOf(t, 8), (std::set<uint32_t>{0, 9, 10, 14, 16}));
        // Halo sizes at 4 x 4 x 2 from the face with ghost layers, by hand: along dimension 0,
        // 8 x (16/4) x (16/2) = 256; along 1, 8 x (16/4 + 2) x 8 = 384; along 2, 8 x 6 x 6 =
        // 288 (the 4 x 2 x 2 input sends 8 x 6 x 10 = 480 there).
        for (const Message& m : t.messages()) {
            if (m.tag == 100 || m.tag == 101) QCOMPARE(m.bytes, uint64_t(m.bytes == 32 ? 32 : 256));
            if (m.tag == 110 || m.tag == 111) QCOMPARE(m.bytes, uint64_t(m.bytes == 32 ? 32 : 384));
            if (m.tag == 120 || m.tag == 121) QCOMPARE(m.bytes, uint64_t(288));
            if (m.tag >= 200) QCOMPARE(m.bytes, uint64_t(64));
        }
        // From 10 to 8 with tag 110: the halo -1 send and the extra one, each round.
        int from10 = 0;
        for (const Message& m : t.messages())
            if (t.messageReceiver(m).value == 8 && t.messageSender(m).value == 10 && m.tag == 110)
                ++from10;
        QCOMPARE(from10, 2 * kIterations);
    }

    void exchangeSeenAtOneScaleTakesAWholeFace()
    {
        // The extra exchange exists only where a dimension has 4 ranks, so only the 4 x 2 x 2
        // input shows it: 2 x 8 x (4/2 + 2) x (4/2 + 2) = 256 bytes along dimension 0, and no
        // pair of inputs gives its ghost shares. Along dimension 0 the halo's faces at 4 x 2 x
        // 2 are 512 (fine) and 8 x 2 x 2 = 32 (coarse): the coarse level's, the largest not
        // above 256, is taken, whose ghost share the pair gives: along 1 its face shrinks from
        // 8 x (4/2 + 2) x 2 = 64 to 8 x (4/4 + 2) x 2 = 48 when dimension 0 goes from 2 to 4
        // ranks, so (1/2 + g) / (1/4 + g) = 4/3 and g = 1/2 (2 ghost points of 4).
        const Trace small = multigridLike({2, 2, 2}, true);
        const Trace large = multigridLike({4, 2, 2}, true);
        const TiledDraft d = tileLargestInput({&small, &large}, 32, nullptr, 10'000'000);
        QVERIFY2(d.draft.has_value(), d.refusal.c_str());
        QVERIFY2(d.compositionFailure.empty(), d.compositionFailure.c_str());
        QCOMPARE(d.composed.size(), size_t(1));
        std::map<std::pair<int32_t, uint64_t>, int> perTagAndSize;
        for (const Message& m : d.draft->messages())
            ++perTagAndSize[{m.tag, m.bytes}];
        // At 4 x 4 x 2 by hand, per round. Fine halo: along 0 8 x 4 x 8 = 256, along 1
        // 8 x (4 + 2) x 8 = 384, along 2 8 x 6 x 6 = 288; coarse halo: 8 x 1 x 2 = 16,
        // 8 x 3 x 2 = 48, 8 x 3 x 3 = 72; each from all 32 ranks per tag. The coarse-level
        // exchange of the 8 ranks odd in both dimensions of 4: 64 bytes. Extra, from the 16
        // odd coordinates of each dimension of 4, two whole coarse faces: along 0
        // 2 x 8 x (4/4 + 2) x (4/2 + 2) = 192, along 1 (composed from the inputs' dimension 0)
        // 2 x 8 x (4/4 + 2) x (4/2 + 2) = 192.
        std::map<std::pair<int32_t, uint64_t>, int> expected;
        const std::array<uint64_t, 3> fine{256, 384, 288}, coarse{16, 48, 72};
        for (int32_t dim = 0; dim < 3; ++dim)
            for (int32_t up = 0; up < 2; ++up) {
                const int32_t tag = 100 + 10 * dim + up;
                expected[{tag, fine[size_t(dim)]}] = 32 * kIterations;
                expected[{tag, coarse[size_t(dim)]}] = 32 * kIterations;
                expected[{tag + 100, 64}] = 8 * kIterations;
            }
        expected[{100, 192}] = 16 * kIterations;
        expected[{110, 192}] = 16 * kIterations;
        QCOMPARE(perTagAndSize, expected);
    }

    void rowCommunicatorsCarried()
    {
        const Trace a = rowCommunicators(2, 2), b = rowCommunicators(4, 2),
                    c = rowCommunicators(4, 4);
        const TiledDraft d = tileLargestInput({&a, &b, &c}, 32, nullptr, 10'000'000);
        QVERIFY2(d.draft.has_value(), d.refusal.c_str());
        const Trace& t = *d.draft;
        QCOMPARE(t.rankCount(), size_t(32));
        QCOMPARE(d.placement, std::string("2-D grid 8 x 4, tiled by the 16-rank run (4 x 4)"));
        // At 8 x 4: 8 row communicators of 4 ranks each, row r holding 4 r .. 4 r + 3.
        std::map<std::vector<uint32_t>, int> rows;
        for (const Communicator& comm : t.communicators())
            if (t.str(comm.name) == "row") {
                std::vector<uint32_t> m;
                for (const RankId r : comm.members)
                    m.push_back(r.value);
                ++rows[m];
            }
        QCOMPARE(rows.size(), size_t(8));
        for (uint32_t r = 0; r < 8; ++r)
            QVERIFY(rows.count({4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3}));
        // Per round: world halo 32 x 2 = 64 messages, row sends 32; all matched, every row
        // message within its row.
        QCOMPARE(t.messages().size(), size_t(96 * kIterations));
        int rowMessages = 0;
        for (const Message& m : t.messages()) {
            QVERIFY(m.matched());
            const uint32_t s = t.messageSender(m).value, q = t.messageReceiver(m).value;
            if (m.tag == 7) {
                ++rowMessages;
                QCOMPARE(q / 4, s / 4);
                QCOMPARE(q % 4, (s + 1) % 4);
            } else {
                QCOMPARE(q % 4, s % 4);
            }
        }
        QCOMPARE(rowMessages, 32 * kIterations);
        // Two row collectives per round in each of the 8 rows; the Bcast's root is the row's
        // first rank.
        int allreduces = 0, bcasts = 0;
        for (const CollectiveInstance& ci : t.collectives()) {
            QCOMPARE(t.communicator(ci.comm).members.size(), size_t(4));
            QVERIFY(ci.complete);
            if (ci.op == CollectiveOp::Allreduce) ++allreduces;
            if (ci.op == CollectiveOp::Bcast) {
                ++bcasts;
                QCOMPARE(ci.root.value, t.communicator(ci.comm).members.front().value);
            }
        }
        QCOMPARE(allreduces, 8 * kIterations);
        QCOMPARE(bcasts, 8 * kIterations);
    }

    void rowCommunicatorsPredicted()
    {
        // Through the whole synthesis: the rules refuse the row communicators, the tiled
        // fallback carries them.
        const Trace a = rowCommunicators(2, 2), b = rowCommunicators(4, 2),
                    c = rowCommunicators(4, 4);
        SynthesisOptions o;
        o.target = 32;
        const SynthesisResult r = synthesise({&a, &b, &c}, test::bundledSpec("ib-switch"), o);
        QVERIFY(r.refused.empty());
        QVERIFY(r.trace.has_value());
        QCOMPARE(r.trace->rankCount(), size_t(32));
        QCOMPARE(r.trace->messages().size(), size_t(96 * kIterations));
        bool tiled = false;
        for (const std::string& w : r.warnings)
            tiled = tiled || w.find("tiled onto the target's process grid") != std::string::npos;
        QVERIFY(tiled);
    }
};

QTEST_GUILESS_MAIN(TestSynthCompose)
#include "tst_synthcompose.moc"
