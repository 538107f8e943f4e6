#include "whatif/extrap/sumcomposition.h"

#include "whatif/extrap/classichistogram.h"
#include "whatif/extrap/quantileextrapolation.h"

#include <algorithm>
#include <cmath>

namespace rankscope::extrap {

namespace {

void classicSum(ExtrapolationResult& r, size_t scaleCount,
                const std::function<std::vector<double>(size_t)>& sumsAt, const ExtrapolationOptions& o)
{
    std::vector<double> scales;
    std::vector<Histogram> hs;
    for (size_t k = 0; k < scaleCount; ++k) {
        scales.push_back(r.scales[k]);
        hs.push_back(makeHistogram(sumsAt(k), o.bins));
    }
    ClassicHistogramPrediction p = extrapolateHistogramClassic(scales, hs, o.target, o.target);
    r.predictedSums = std::move(p.histogram);
    r.sumFits = std::move(p.fits);
    r.predictedMaxRankDeltaSum = r.predictedMaxLow = r.predictedMaxHigh = r.predictedSums.max;
}

void classicInterval(ExtrapolationResult& r, const ExtrapolationOptions& o)
{
    double mean = 0, variance = 0;
    for (const IntervalPrediction& p : r.intervals) {
        const Histogram& h = p.predicted;
        double v = 0;
        for (const HistogramBin& b : h.bins) v += b.frequency * (b.mean - h.mean) * (b.mean - h.mean);
        mean += p.predictedCount * h.mean;
        variance += p.predictedCount * v;
    }
    const double sd = std::sqrt(variance);
    const double n = o.target;
    const double extreme = n > 1 ? normalQuantile((n - 0.375) / (n + 0.25)) : 0.0;
    std::vector<double> q;
    for (int i = 0; i < Histogram::kQuantileCount; ++i) {
        const double level = Histogram::quantileLevel(i);
        const double z = i == 0 ? -extreme
                         : i + 1 == Histogram::kQuantileCount ? extreme
                                                              : normalQuantile(level);
        q.push_back(std::max(0.0, mean + sd * z));
    }
    q = monotoneRegression(std::move(q));
    r.predictedSums = histogramFromQuantiles(q, o.target, o.bins);
    r.predictedMaxRankDeltaSum = r.predictedMaxLow = r.predictedMaxHigh = q.back();
}

void rankscopeInterval(ExtrapolationResult& r, const ExtrapolationOptions& o)
{
    std::vector<double> q(Histogram::kQuantileCount, 0.0);
    double low = 0, high = 0;
    for (const IntervalPrediction& p : r.intervals) {
        if (p.predicted.quantiles.size() != q.size()) continue;
        for (size_t i = 0; i < q.size(); ++i) q[i] += p.predicted.quantiles[i];
        const double top = p.predicted.quantiles.back();
        const double l = p.quantilesLow.empty() ? top : std::min(top, p.quantilesLow.back());
        const double h = p.quantilesHigh.empty() ? top : std::max(top, p.quantilesHigh.back());
        low += l;
        high += h;
    }
    r.predictedSums = histogramFromQuantiles(q, o.target, o.bins);
    r.predictedMaxRankDeltaSum = q.back();
    r.predictedMaxLow = std::min(low, q.back());
    r.predictedMaxHigh = std::max(high, q.back());
}

} // namespace

double normalQuantile(double p)
{
    // Bisection on the CDF 0.5 erfc(-x / sqrt 2): 80 halvings of [-40, 40] reach double precision.
    double lo = -40, hi = 40;
    for (int i = 0; i < 80; ++i) {
        const double mid = (lo + hi) / 2;
        if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

void composeSums(ExtrapolationResult& result, size_t scaleCount,
                 const std::function<std::vector<double>(size_t)>& sumsAt,
                 const ExtrapolationOptions& options)
{
    if (options.method == Method::Classic && options.mode == Mode::Sum)
        classicSum(result, scaleCount, sumsAt, options);
    else if (options.method == Method::Classic)
        classicInterval(result, options);
    else
        rankscopeInterval(result, options);
}

} // namespace rankscope::extrap
