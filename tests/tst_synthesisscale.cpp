// Trace synthesis of programs whose structure changes with the scale (ALGORITHMS.md §5, revised):
// execution intervals seen at too few scales, sampled from the nearest scale below a threshold of
// the computation time and refused above it.

#include "model/trace.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/networkspec.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

netsim::NetworkSpec ibSwitch()
{
    const QString path = rankscope::test::testData("../../resources/networks/ib-switch.yaml");
    return netsim::NetworkSpec::fromFile(path.toStdString());
}

/// n ranks: MPI_Init, 1000 ns, MPI_Barrier (site A), then the first and last rank compute
/// 1000 ns, the middle ranks 500 ns, call MPI_Comm_rank (site B) and compute 500 ns more;
/// MPI_Barrier (site C), 1000 ns, MPI_Finalize. The intervals `A - B` and `B - C` exist only
/// where there are middle ranks (3 or more ranks).
Trace middleRanksTrace(uint32_t n)
{
    test::HandTrace h;
    const RegionId main = h.user("main"), a = h.user("a"), c = h.user("c");
    const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    const RegionId barrier = h.mpi("MPI_Barrier", RegionRole::MpiCollective);
    const RegionId commRank = h.mpi("MPI_Comm_rank");
    std::vector<LocationId> locs;
    for (uint32_t r = 0; r < n; ++r)
        locs.push_back(h.addRank());
    const CommId world = h.addWorld();
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
        h.enter(l, 0, main);
        h.call(l, init, 10, 20);
        barrierAt(l, a, 1020);
        int64_t t = 1030;
        if (middle) {
            h.call(l, commRank, t + 500, t + 510);
            t += 1010;
        } else {
            t += 1000;
        }
        barrierAt(l, c, t);
        h.call(l, fin, t + 1010, t + 1020);
        h.leave(l, t + 1030, main);
    }
    return h.finish();
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
        QVERIFY(r.warnings.front().find("main>a:MPI_Barrier - main:MPI_Comm_rank") != std::string::npos);
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
};

QTEST_GUILESS_MAIN(TestSynthesisScale)
#include "tst_synthesisscale.moc"
