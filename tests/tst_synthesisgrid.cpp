// Trace synthesis placement from the communication graph (ALGORITHMS.md §5, revised): process
// grids recovered with their rank order and periodicity from who talks to whom, transpose and
// butterfly partners. Expected partners are computed here from the grid's definition, not read
// back from the synthesis.

#include "model/generator/processgrid.h"
#include "model/trace/trace.h"
#include "testsupport/bundledspec.h"
#include "testsupport/exchangetrace.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/extrap/synthgraph.h"
#include "whatif/extrap/synthrules.h"
#include "whatif/netsim/networkspec.h"

#include <QTest>
#include <functional>
#include <set>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

netsim::NetworkSpec ibSwitch()
{
    return test::bundledSpec("ib-switch");
}

using test::PartnerFn;

/// Every rank sends 256 bytes to each partner and receives from each (the relation is
/// symmetric), three times: MPI_Isend to all, MPI_Recv from all, MPI_Waitall.
Trace exchangeTrace(uint32_t n, const PartnerFn& partnersOf)
{
    return test::exchangeTrace(n, partnersOf, [](uint32_t, uint32_t, uint32_t) { return 256; });
}

/// Neighbours in a grid of MPI_Dims_create(n, d) factors numbered with the FIRST dimension
/// varying fastest (the reverse of MPI_Cart_create), periodic or not, in a fixed order
/// (-x, +x, -y, +y, ...), each listed once.
std::vector<uint32_t> reversedGridNeighbours(uint32_t r, uint32_t n, uint32_t d, bool periodic)
{
    const std::vector<uint32_t> dims = ProcessGrid::dimsCreate(n, d);
    std::vector<int64_t> c(d);
    uint32_t rest = r;
    for (uint32_t i = 0; i < d; ++i) {
        c[i] = rest % dims[i];
        rest /= dims[i];
    }
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < d; ++i) {
        for (const int step : {-1, 1}) {
            int64_t x = c[i] + step;
            if (periodic) x = (x + dims[i]) % dims[i];
            if (x < 0 || x >= dims[i]) continue;
            std::vector<int64_t> e = c;
            e[i] = x;
            uint32_t p = 0;
            for (uint32_t k = d; k-- > 0;)
                p = p * dims[k] + uint32_t(e[k]);
            if (p != r && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
        }
    }
    return out;
}

/// NPB CG's exchange partner in its nprows x npcols grid (npcols = nprows or 2 nprows), as the
/// benchmark computes it for n a power of 2.
uint32_t cgTranspose(uint32_t me, uint32_t n)
{
    uint32_t log2n = 0;
    while ((1u << log2n) < n)
        ++log2n;
    const uint32_t nprows = 1u << (log2n / 2);
    const uint32_t npcols = n / nprows;
    if (npcols == nprows) return (me % nprows) * nprows + me / nprows;
    return 2 * (((me / 2) % nprows) * nprows + me / 2 / nprows) + me % 2;
}

std::vector<std::set<uint32_t>> partnerSets(const Trace& t)
{
    std::vector<std::set<uint32_t>> out(t.rankCount());
    for (const Message& m : t.messages()) {
        const uint32_t a = t.messageSender(m).value, b = t.messageReceiver(m).value;
        out[a].insert(b);
        out[b].insert(a);
    }
    return out;
}

void checkPartners(const Trace& t, uint32_t n, const PartnerFn& expected)
{
    const auto got = partnerSets(t);
    QCOMPARE(got.size(), size_t(n));
    for (uint32_t r = 0; r < n; ++r) {
        const std::vector<uint32_t> e = expected(r, n);
        QCOMPARE(got[r], std::set<uint32_t>(e.begin(), e.end()));
    }
}

SynthesisResult synthesiseFrom(const std::vector<uint32_t>& scales, uint32_t target,
                               const PartnerFn& fn, std::vector<Trace>& keep)
{
    keep.clear();
    for (uint32_t n : scales)
        keep.push_back(exchangeTrace(n, fn));
    std::vector<const Trace*> in;
    for (const Trace& t : keep)
        in.push_back(&t);
    SynthesisOptions o;
    o.target = target;
    return synthesise(in, ibSwitch(), o);
}

} // namespace

class TestSynthesisGrid : public QObject
{
    Q_OBJECT

private slots:
    void transposeRule()
    {
        // Partners read off the CG class S traces with otf2-print: at 16 ranks 1 <-> 4,
        // 2 <-> 8, 6 <-> 9; at 8 ranks 2 <-> 4, 3 <-> 5, 1 with itself; at 4 ranks 1 <-> 2.
        QCOMPARE(synth::transposeOf(1, 16), std::optional<uint32_t>(4));
        QCOMPARE(synth::transposeOf(2, 16), std::optional<uint32_t>(8));
        QCOMPARE(synth::transposeOf(6, 16), std::optional<uint32_t>(9));
        QCOMPARE(synth::transposeOf(2, 8), std::optional<uint32_t>(4));
        QCOMPARE(synth::transposeOf(3, 8), std::optional<uint32_t>(5));
        QCOMPARE(synth::transposeOf(1, 8), std::optional<uint32_t>(1));
        QCOMPARE(synth::transposeOf(1, 4), std::optional<uint32_t>(2));
        // And NPB's own formula at scales the traces do not show.
        for (uint32_t n : {32u, 64u, 128u, 256u})
            for (uint32_t r = 0; r < n; ++r)
                QCOMPARE(synth::transposeOf(r, n), std::optional<uint32_t>(cgTranspose(r, n)));
        QVERIFY(!synth::transposeOf(0, 2)); // 2 ranks: no 2-D grid with rows and columns
    }

    void butterflyRule()
    {
        const auto rules = synth::rulesFor(5, 4, 16, nullptr);
        const synth::RankRule xor1{synth::RuleKind::Xor, 1, {0, 0, 0}};
        QVERIFY(std::find(rules.begin(), rules.end(), xor1) != rules.end());
        QCOMPARE(xor1.evaluate(6, 16, nullptr), std::optional<uint32_t>(7));
        QCOMPARE(xor1.text(), std::string("r xor 1"));
    }

    void transposeAndButterflyPartners()
    {
        // CG-like: each rank exchanges with r xor 1 and with its transpose partner (itself on
        // the diagonal, as CG does).
        const PartnerFn fn = [](uint32_t r, uint32_t n) {
            return std::vector<uint32_t>{r ^ 1u, cgTranspose(r, n)};
        };
        std::vector<Trace> keep;
        const SynthesisResult r = synthesiseFrom({4, 8, 16}, 32, fn, keep);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        checkPartners(*r.trace, 32, fn);
    }

    void gridWithFirstDimensionFastest()
    {
        // A 2-D grid numbered column-major: 2 x 2, 4 x 2, 4 x 4 carried to 8 x 4 ranks.
        const PartnerFn fn = [](uint32_t r, uint32_t n) {
            return reversedGridNeighbours(r, n, 2, false);
        };
        std::vector<Trace> keep;
        const SynthesisResult r = synthesiseFrom({4, 8, 16}, 32, fn, keep);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        // In MPI_Cart_create's order (last dimension fastest) that is a 4 x 8 grid.
        QCOMPARE(r.placement, std::string("2-D grid 4 x 8"));
        checkPartners(*r.trace, 32, fn);
    }

    void periodic3dGridReordered()
    {
        // A periodic 3-D grid numbered with the first dimension fastest: 3 x 3 x 3, 4 x 3 x 3,
        // 4 x 4 x 4 carried to 5 x 4 x 4 (80 ranks).
        const PartnerFn fn = [](uint32_t r, uint32_t n) {
            return reversedGridNeighbours(r, n, 3, true);
        };
        std::vector<Trace> keep;
        const SynthesisResult r = synthesiseFrom({27, 36, 64}, 80, fn, keep);
        QVERIFY2(r.refused.empty(), r.refused.empty() ? "" : r.refused.front().reason.c_str());
        QVERIFY(r.trace);
        QCOMPARE(r.placement, std::string("3-D grid 4 x 4 x 5, periodic in dimensions 1, 2, 3"));
        checkPartners(*r.trace, 80, fn);
    }

    void gridRecoveredFromGraph()
    {
        // The graph alone picks the order: the column-major 2-D grid explains every edge only
        // with the largest factor fastest.
        std::vector<std::vector<synth::Edge>> edges(3);
        const std::vector<uint32_t> scales{4, 8, 16};
        for (size_t k = 0; k < scales.size(); ++k)
            for (uint32_t r = 0; r < scales[k]; ++r)
                for (uint32_t p : reversedGridNeighbours(r, scales[k], 2, false))
                    edges[k].emplace_back(r, p);
        const synth::Placement best = synth::gridPlacements(edges, scales).front();
        QCOMPARE(best.kind(), synth::PlacementKind::Grid2);
        QCOMPARE(best.dims(8), (std::vector<uint32_t>{2, 4}));
        QCOMPARE(best.periodicMask(), 0u);
    }
};

QTEST_GUILESS_MAIN(TestSynthesisGrid)
#include "tst_synthesisgrid.moc"
