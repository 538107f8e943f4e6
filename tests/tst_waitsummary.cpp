// WaitSummary: the per-bucket dominant wait pattern and waiting share, checked by hand on a small
// run and against a brute-force computation on random waits.

#include "model/waits/waitsummary.h"

#include <QTest>
#include <random>

using namespace rankscope;

namespace {

WaitState wait(WaitPattern p, uint32_t rank, int64_t begin, int64_t end)
{
    WaitState w;
    w.pattern = p;
    w.rank = RankId(rank);
    w.begin = begin;
    w.end = end;
    w.cause = RankId(rank == 0 ? 1 : 0);
    return w;
}

} // namespace

class TestWaitSummary : public QObject
{
    Q_OBJECT

private slots:
    void handWorked()
    {
        // Run [0, 1000): level 0 has 1000 buckets of 1 ns; level 8 buckets of 256 ns; level 10
        // one bucket of 1024 ns (1000 inside the run). Rank 0 waits Late Sender [100, 150) and at
        // a barrier [600, 800); rank 1 never waits.
        WaitStateAnalysis a;
        a.waits = {wait(WaitPattern::LateSender, 0, 100, 150),
                   wait(WaitPattern::WaitAtBarrier, 0, 600, 800)};
        const WaitSummary s = WaitSummary::build(a, 2, 0, 1000);
        QCOMPARE(s.baseWidthNs(), int64_t(1));
        QCOMPARE(s.levels().levels(), 11u); // 1000, 500, 250, 125, 63, 32, 16, 8, 4, 2, 1

        QCOMPARE(s.cell(RankId(0), 0, 120), WaitCell::make(WaitPattern::LateSender, 31));
        QVERIFY(s.cell(RankId(0), 0, 99).empty());
        QVERIFY(s.cell(RankId(0), 0, 150).empty());
        // Level 8: [0, 256) holds 50 ns of Late Sender: ceil(50 * 31 / 256) = ceil(6.05) = 7.
        QCOMPARE(s.cell(RankId(0), 8, 0), WaitCell::make(WaitPattern::LateSender, 7));
        QVERIFY(s.cell(RankId(0), 8, 1).empty());
        // [512, 768): 168 ns of barrier: ceil(168 * 31 / 256) = ceil(20.3) = 21.
        QCOMPARE(s.cell(RankId(0), 8, 2), WaitCell::make(WaitPattern::WaitAtBarrier, 21));
        // [768, 1024) clipped to the run, 232 ns, holds 32 ns: ceil(32 * 31 / 232) = 5.
        QCOMPARE(s.cell(RankId(0), 8, 3), WaitCell::make(WaitPattern::WaitAtBarrier, 5));
        // Level 10: 50 + 200 = 250 of 1000 ns, barrier dominates: ceil(250 * 31 / 1000) = 8.
        QCOMPARE(s.cell(RankId(0), 10, 0), WaitCell::make(WaitPattern::WaitAtBarrier, 8));
        QVERIFY(s.cell(RankId(1), 10, 0).empty());

        // Four pixels of 256 ns from 0: centres 128, 384, 640, 896 -> level 8 buckets 0..3.
        std::vector<WaitCell> px(4);
        s.sample(RankId(0), 0, 256, px);
        QCOMPARE(px, (std::vector<WaitCell>{WaitCell::make(WaitPattern::LateSender, 7),
                                            {},
                                            WaitCell::make(WaitPattern::WaitAtBarrier, 21),
                                            WaitCell::make(WaitPattern::WaitAtBarrier, 5)}));
        QCOMPARE(rankWaits(a, RankId(0)).size(), size_t(2));
        QCOMPARE(rankWaits(a, RankId(1)).size(), size_t(0));
    }

    void tinyWaitVisibleAtEveryZoom()
    {
        // A 1 ns wait in a 1 s run: level 0 buckets are 2^15 ns (1e9 / 2^15 = 30518 > 2^14), and
        // at every level the bucket holding it shows the smallest non-zero coverage (step 1).
        WaitStateAnalysis a;
        a.waits = {wait(WaitPattern::EarlyReduce, 0, 500'000'000, 500'000'001)};
        const WaitSummary s = WaitSummary::build(a, 1, 0, 1'000'000'000);
        QCOMPARE(s.baseWidthNs(), int64_t(1) << 15);
        for (double npp : {1e3, 1e5, 1e6, 1e7, 1e9}) {
            std::vector<WaitCell> px(size_t(std::ceil(1e9 / npp)));
            s.sample(RankId(0), 0, npp, px);
            int marked = 0;
            for (const WaitCell& c : px)
                marked += !c.empty();
            QVERIFY2(marked >= 1, qPrintable(QString::number(npp)));
        }
        QCOMPARE(s.cell(RankId(0), s.levels().levels() - 1, 0).step(), 1);
    }

    void matchesBruteForce()
    {
        // Random non-overlapping waits on 3 ranks; every cell of every level against a direct
        // sum of overlaps per pattern.
        std::mt19937_64 rng(7);
        const int64_t runEnd = 5'000'000;
        WaitStateAnalysis a;
        for (uint32_t r = 0; r < 3; ++r) {
            int64_t t = int64_t(rng() % 1000);
            while (t < runEnd) {
                const int64_t len = 1 + int64_t(rng() % 20000);
                a.waits.push_back(
                    wait(WaitPattern(rng() % kWaitPatternCount), r, t, std::min(runEnd, t + len)));
                t += len + int64_t(rng() % 50000);
            }
        }
        const WaitSummary s = WaitSummary::build(a, 3, 0, runEnd);
        const SummaryLevels& g = s.levels();
        for (uint32_t r = 0; r < 3; ++r) {
            for (unsigned level = 0; level < g.levels(); level += 3) {
                const int64_t w = int64_t(g.width(level));
                for (uint64_t k = 0; k < g.bucketCount(level); k += 7) {
                    const int64_t lo = int64_t(k) * w, hi = std::min(runEnd, lo + w);
                    std::array<int64_t, kWaitPatternCount> ns{};
                    for (const WaitState& x : rankWaits(a, RankId(r)))
                        ns[size_t(x.pattern)] +=
                            std::max<int64_t>(0, std::min(hi, x.end) - std::max(lo, x.begin));
                    int64_t total = 0;
                    size_t best = 0;
                    for (size_t p = 0; p < ns.size(); ++p) {
                        total += ns[p];
                        if (ns[p] > ns[best]) best = p;
                    }
                    const WaitCell c = s.cell(RankId(r), level, k);
                    if (total == 0) {
                        QVERIFY(c.empty());
                        continue;
                    }
                    const double share = double(total) / double(hi - lo);
                    QCOMPARE(int(c.pattern()), int(best));
                    QCOMPARE(c.step(), std::clamp(int(std::ceil(share * 31 - 1e-9)), 1, 31));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestWaitSummary)
#include "tst_waitsummary.moc"
