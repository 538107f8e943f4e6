// Histograms of ALGORITHMS.md §2, quantiles, and the normalised W1 distance of §3.5. Expected
// values are worked out by hand in the comments.

#include "model/deltas/histogram.h"
#include "model/deltas/quantilefunction.h"

#include <QTest>
#include <cmath>
#include <stdexcept>
#include <vector>

using namespace rankscope;

class TestHistogram : public QObject
{
    Q_OBJECT

private slots:
    void binsAndQuantiles()
    {
        // {1, 2, 3, 4}, 2 bins: width (4 - 1) / 2 = 1.5, bin 0 = [1, 2.5) holds 1, 2 (mean 1.5),
        // bin 1 = [2.5, 4] holds 3, 4 (mean 3.5; 4 = max lands in the closed last bin).
        const std::vector<double> x = {4, 1, 3, 2};
        const Histogram h = makeHistogram(x, 2);
        QCOMPARE(h.count, uint64_t(4));
        QCOMPARE(h.mean, 2.5);
        QCOMPARE(h.min, 1.0);
        QCOMPARE(h.max, 4.0);
        QCOMPARE(h.bins.size(), size_t(2));
        QCOMPARE(h.bins[0], (HistogramBin{1.0, 2.5, 2, 0.5, 1.5}));
        QCOMPARE(h.bins[1], (HistogramBin{2.5, 4.0, 2, 0.5, 3.5}));
        // Type-7 quantiles: position p * (m - 1) in the sorted samples.
        QCOMPARE(h.quantiles.size(), size_t(Histogram::kQuantileCount));
        QCOMPARE(h.quantiles[0], 1.0);
        QCOMPARE(h.quantiles[5], 1.75); // p 0.25: position 0.75 -> 1 + 0.75
        QCOMPARE(h.quantiles[10], 2.5); // p 0.5: position 1.5 -> 2.5
        QCOMPARE(h.quantiles[20], 4.0);
    }

    void equalAndEmptySamples()
    {
        const std::vector<double> x = {5, 5, 5};
        const Histogram h = makeHistogram(x, 4);
        QCOMPARE(h.bins[0].count, uint64_t(3));
        QCOMPARE(h.bins[0].frequency, 1.0);
        QCOMPARE(h.bins[3].count, uint64_t(0));
        QCOMPARE(h.bins[3].lower, 5.0);
        QCOMPARE(h.quantiles[20], 5.0);
        QVERIFY(makeHistogram(std::vector<double>{}, 3).empty());
        // W1 of two point masses at 5 and 7: 2, normalised by 7.
        const Histogram g = makeHistogram(std::vector<double>{7, 7}, 4);
        QCOMPARE(wasserstein1Normalized(h, g), 2.0 / 7.0);
    }

    void badBinCount()
    {
        const std::vector<double> x = {1, 2};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeHistogram(x, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeHistogram(x, kMaxHistogramBins + 1));
    }

    void fromQuantiles()
    {
        // q_i = i (i = 0..20): the uniform distribution on [0, 20]. Four bins of width 5 hold a
        // quarter each, with means 2.5, 7.5, 12.5, 17.5; the overall mean is 10.
        std::vector<double> q;
        for (int i = 0; i < Histogram::kQuantileCount; ++i)
            q.push_back(i);
        const Histogram h = histogramFromQuantiles(q, 100, 4);
        QCOMPARE(h.count, uint64_t(100));
        QCOMPARE(h.mean, 10.0);
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(h.bins[size_t(k)].frequency, 0.25);
            QCOMPARE(h.bins[size_t(k)].count, uint64_t(25));
            QCOMPARE(h.bins[size_t(k)].mean, 2.5 + 5 * k);
        }
        for (size_t i = 0; i < q.size(); ++i)
            QVERIFY(std::abs(h.quantiles[i] - q[i]) < 1e-12);
    }

    void wassersteinShift()
    {
        // One bin each: uniform on [0, 2] against uniform on [1, 3]. Q differ by 1 everywhere,
        // W1 = 1; the measured mean is 2, so 0.5.
        const Histogram p = makeHistogram(std::vector<double>{0, 2}, 1);
        const Histogram m = makeHistogram(std::vector<double>{1, 3}, 1);
        QCOMPARE(wasserstein1Normalized(p, m), 0.5);
        QCOMPARE(wasserstein1Normalized(m, m), 0.0);
    }

    void wassersteinCrossing()
    {
        // Uniform on [0, 4] (Q = 4u) against uniform on [1, 3] (Q = 1 + 2u): the difference
        // 2u - 1 changes sign at u = 1/2; the integral of |2u - 1| over [0, 1] is 1/2. Measured
        // mean 2: 0.25.
        const Histogram p = makeHistogram(std::vector<double>{0, 4}, 1);
        const Histogram m = makeHistogram(std::vector<double>{1, 3}, 1);
        QCOMPARE(wasserstein1Normalized(p, m), 0.25);
    }

    void quantileFunction()
    {
        // Knots (0, 0), (0.5, 1), (1, 3): F(2) = 0.5 + 0.5 * (2 - 1) / 2 = 0.75; the integral
        // over [0, 1] is 0.5 * 0.5 + 0.5 * 2 = 1.25.
        const QuantileFunction q({{0, 0}, {0.5, 1}, {1, 3}});
        QCOMPARE(q(0.25), 0.5);
        QCOMPARE(q.cdf(2), 0.75);
        QCOMPARE(q.integral(0, 1), 1.25);
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
