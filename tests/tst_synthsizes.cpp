// Trace synthesis: message sizes of programs without call paths (ALGORITHMS.md §5). Faces of
// blocks with ghost cells on grids that do not divide the extent, means of uneven faces, and
// sizes that differ by the partner's direction though one call site sends them all. Expected
// sizes are worked out here from each program's formula, not read back from the synthesis.

#include "model/generator/processgrid.h"
#include "model/trace/trace.h"
#include "testsupport/bundledspec.h"
#include "testsupport/exchangetrace.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/extrap/synthfit.h"
#include "whatif/extrap/synthrules.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

/// 2-D data of 1024 x 1024 points of 8 bytes on the periodic grid MPI_Dims_create(n, 2) (last
/// dimension fastest, as ProcessGrid numbers it): each rank sends its face to its 4 neighbours
/// from one call site in one loop, 8 x 1024 / d1 bytes along dimension 0 (the face spans the
/// other dimension's local extent) and 8 x 1024 / d0 along dimension 1; then receives them.
constexpr uint64_t kExtent = 1024;

uint64_t faceBytes(const ProcessGrid& g, uint32_t from, uint32_t to)
{
    const auto a = g.coords(from), b = g.coords(to);
    const size_t along = a[0] != b[0] ? 0 : 1;
    return 8 * kExtent / g.dims()[1 - along];
}

/// The 4 neighbours on the periodic grid, in the order -0, +0, -1, +1.
Trace haloTrace(uint32_t n)
{
    const ProcessGrid g(ProcessGrid::dimsCreate(n, 2), 3);
    return test::exchangeTrace(
        n,
        [&](uint32_t r, uint32_t) {
            std::vector<uint32_t> out;
            for (const ProcessGrid::Coords& o :
                 std::vector<ProcessGrid::Coords>{{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}})
                out.push_back(uint32_t(g.neighbour(r, o)));
            return out;
        },
        [&](uint32_t from, uint32_t to, uint32_t) { return faceBytes(g, from, to); });
}

} // namespace

class TestSynthSizes : public QObject
{
    Q_OBJECT

private slots:
    void directionOnAPeriodicGrid()
    {
        // 4 x 4 periodic, last dimension fastest: rank 5 = (1, 1). Rank 6 = (1, 2) is ahead in
        // dimension 1 (digit 1 of weight 3: 3); rank 1 = (0, 1) behind in dimension 0 (2);
        // rank 7 = (1, 3) is 2 ahead, shortest either way, counted ahead (3); rank 4 = (1, 0)
        // is behind (6); rank 15 = (3, 3) from 0 = (0, 0) wraps to behind in both: 2 + 2 x 3.
        const ProcessGrid g({4, 4}, 3);
        QCOMPARE(g.direction(5, 6), 3u);
        QCOMPARE(g.direction(5, 1), 2u);
        QCOMPARE(g.direction(5, 7), 3u);
        QCOMPARE(g.direction(5, 4), 6u);
        QCOMPARE(g.direction(0, 15), 8u);
        QCOMPARE(g.direction(5, 5), 0u);
        // Not periodic: 0 -> 15 is ahead in both (1 + 3).
        QCOMPARE(ProcessGrid({4, 4}).direction(0, 15), 4u);
    }

    void blockFaceWithGhostOnUnevenGrids()
    {
        // NPB BT class A's sweeps: 240 (floor(64 / d) + 1)^2 bytes on a d x d grid, d = sqrt n.
        // 9, 16, 25 ranks: d = 3, 4, 5 -> 240 x 22^2 = 116160, 240 x 17^2 = 69360,
        // 240 x 13^2 = 40560. 64 ranks (d = 8): 240 x 9^2 = 19440 (measured so at 64 ranks).
        // N = 68 with no ghost fits the three inputs too (22, 17, 13) but gives 240 x 8^2; the
        // smallest extent is taken.
        const synth::Placement grid(synth::PlacementKind::Grid2);
        const std::vector<FitPoint> sweep{{9, 0, 116160}, {16, 0, 69360}, {25, 0, 40560}};
        QCOMPARE(synth::fitSize(sweep, 64, &grid), uint64_t(19440));
        // The back substitution's 40 bytes a point: 40 x 9^2 at 64 ranks.
        const std::vector<FitPoint> back{{9, 0, 19360}, {16, 0, 11560}, {25, 0, 6760}};
        QCOMPARE(synth::fitSize(back, 64, &grid), uint64_t(3240));
    }

    void meanOfUnevenFaces()
    {
        // The mean over ranks of d - 1 faces of (64 / d)^2 points of 80 bytes:
        // 327680 (1 / d - 1 / d^2), at d = 3, 4, 5 (72817.8, 61440, 52428.8, means of uneven
        // blocks, so no whole numbers) -> at d = 8: 327680 x 7 / 64 = 35840.
        const synth::Placement grid(synth::PlacementKind::Grid2);
        const auto at = [](double d) { return 327680.0 * (1 / d - 1 / (d * d)); };
        const std::vector<FitPoint> faces{{9, 0, at(3)}, {16, 0, at(4)}, {25, 0, at(5)}};
        QCOMPARE(synth::fitSize(faces, 64, &grid), uint64_t(35840));
    }

    void sizesByPartnerDirection()
    {
        // 16 (4 x 4), 32 (8 x 4), 64 (8 x 8) -> 128 (16 x 8): one call site sends 8 x 1024 / d1
        // bytes along dimension 0 and 8 x 1024 / d0 along dimension 1; at 128 ranks 1024 and
        // 512 bytes. One size for all four would be their mean, 768.
        std::vector<Trace> inputs;
        for (uint32_t n : {16u, 32u, 64u})
            inputs.push_back(haloTrace(n));
        SynthesisOptions o;
        o.target = 128;
        const SynthesisResult r =
            synthesise({&inputs[0], &inputs[1], &inputs[2]}, test::bundledSpec("ib-switch"), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        const ProcessGrid g(ProcessGrid::dimsCreate(128, 2), 3);
        QCOMPARE(g.dims(), (std::vector<uint32_t>{16, 8}));
        size_t messages = 0;
        for (const Message& msg : r.trace->messages()) {
            QVERIFY(msg.matched());
            const uint32_t from = r.trace->messageSender(msg).value;
            const uint32_t to = r.trace->messageReceiver(msg).value;
            QCOMPARE(msg.bytes, faceBytes(g, from, to));
            ++messages;
        }
        QCOMPARE(messages, size_t(128 * 4 * 3));
    }

    void smallestInputWithTwoRanksInADimension()
    {
        // The same program from 8 ranks on as well: 8 = 4 x 2, where the neighbours at +1 and
        // -1 in dimension 1 are one rank. More scales must give the same exact sizes at 128.
        std::vector<Trace> inputs;
        for (uint32_t n : {8u, 16u, 32u, 64u})
            inputs.push_back(haloTrace(n));
        SynthesisOptions o;
        o.target = 128;
        const SynthesisResult r = synthesise({&inputs[0], &inputs[1], &inputs[2], &inputs[3]},
                                             test::bundledSpec("ib-switch"), o);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        QVERIFY(r.warnings.empty());
        const ProcessGrid g(ProcessGrid::dimsCreate(128, 2), 3);
        for (const Message& msg : r.trace->messages())
            QCOMPARE(msg.bytes, faceBytes(g, r.trace->messageSender(msg).value,
                                          r.trace->messageReceiver(msg).value));
        QCOMPARE(r.trace->messages().size(), size_t(128 * 4 * 3));
    }
};

QTEST_GUILESS_MAIN(TestSynthSizes)
#include "tst_synthsizes.moc"
