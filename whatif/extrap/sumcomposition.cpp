#include "whatif/extrap/sumcomposition.h"

#include "whatif/extrap/classichistogram.h"
#include "whatif/extrap/fitinterval.h"
#include "whatif/extrap/pmnf.h"
#include "whatif/extrap/quantileextrapolation.h"
#include "whatif/extrap/slowestrank.h"
#include "whatif/extrap/typicalrank.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace rankscope::extrap {

namespace {

double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    const double hi = v[mid];
    if (v.size() % 2) return hi;
    return (hi + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid))) / 2;
}

/// A robust standard deviation: 1.4826 x the median absolute deviation (consistent with the
/// sd for normal data; one far-off rank does not inflate it).
double robustSd(const std::vector<double>& v)
{
    const double m = median(v);
    std::vector<double> dev;
    for (double x : v)
        dev.push_back(std::abs(x - m));
    return 1.4826 * median(std::move(dev));
}

double maxOf(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

std::optional<double> heldOutError(std::optional<double> heldOut, const std::vector<double>& last)
{
    if (!heldOut) return std::nullopt;
    return relativeErrorPct(*heldOut, maxOf(last));
}

void classicSum(ExtrapolationResult& r, const std::vector<std::vector<double>>& sums,
                const ExtrapolationOptions& o)
{
    std::vector<double> scales, spread;
    std::vector<Histogram> hs;
    for (size_t k = 0; k < sums.size(); ++k) {
        scales.push_back(r.scales[k]);
        hs.push_back(makeHistogram(sums[k], o.bins));
        spread.push_back(robustSd(sums[k]));
    }
    ClassicHistogramPrediction p =
        extrapolateHistogramClassic(scales, hs, o.target, o.target, spread);
    r.predictedSums = std::move(p.histogram);
    const SeriesFit& max = p.fits[2]; // mean, min, max, then the bins
    r.predictedMaxRankDeltaSum = r.predictedSums.max;
    r.predictedMaxLow = std::min(max.low, r.predictedMaxRankDeltaSum);
    r.predictedMaxHigh = std::max(max.high, r.predictedMaxRankDeltaSum);
    r.heldOutErrorPct = heldOutError(
        p.hasHeldOut ? std::optional<double>(p.heldOut.max) : std::nullopt, sums.back());
    r.sumFits = std::move(p.fits);
}

/// The quantiles of S(r) under the classic interval mode's independence reading, at `ranks`.
std::vector<double> classicQuantiles(const std::vector<std::pair<double, const Histogram*>>& parts,
                                     double ranks)
{
    double mean = 0, variance = 0;
    for (const auto& [count, h] : parts) {
        double v = 0;
        for (const HistogramBin& b : h->bins)
            v += b.frequency * (b.mean - h->mean) * (b.mean - h->mean);
        mean += count * h->mean;
        variance += count * v;
    }
    const double sd = std::sqrt(variance);
    const double extreme = ranks > 1 ? normalQuantile((ranks - 0.375) / (ranks + 0.25)) : 0.0;
    std::vector<double> q;
    for (int i = 0; i < Histogram::kQuantileCount; ++i) {
        const double z = i == 0 ? -extreme
                         : i + 1 == Histogram::kQuantileCount
                             ? extreme
                             : normalQuantile(Histogram::quantileLevel(i));
        q.push_back(std::max(0.0, mean + sd * z));
    }
    return monotoneRegression(std::move(q));
}

void classicInterval(ExtrapolationResult& r, const std::vector<std::vector<double>>& sums,
                     const ExtrapolationOptions& o)
{
    std::vector<std::pair<double, const Histogram*>> parts, held;
    double low = 0, high = 0;
    bool allHeld = true;
    for (const IntervalPrediction& p : r.intervals) {
        parts.push_back({p.predictedCount, &p.predicted});
        const SeriesFit& count = p.fits.front();
        low += count.low * p.predictedMeanLow;
        high += count.high * p.predictedMeanHigh;
        if (p.hasHeldOut) held.push_back({p.heldOutCount, &p.heldOutPredicted});
        allHeld = allHeld && p.hasHeldOut;
    }
    const std::vector<double> q = classicQuantiles(parts, o.target);
    r.predictedSums = histogramFromQuantiles(q, o.target, o.bins);
    r.predictedMaxRankDeltaSum = q.back();
    // The spread over ranks at the target (max - mean) is added to the ends of the mean's band.
    double mean = 0;
    for (const auto& [count, h] : parts)
        mean += count * h->mean;
    const double excess = q.back() - mean;
    r.predictedMaxLow = std::min(low + excess, q.back());
    r.predictedMaxHigh = std::max(high + excess, q.back());
    if (allHeld && !held.empty())
        r.heldOutErrorPct =
            relativeErrorPct(classicQuantiles(held, r.scales.back()).back(), maxOf(sums.back()));
}

SumEstimate rankscopeComposition(ExtrapolationResult& r,
                                 const std::vector<std::vector<double>>& sums,
                                 const ExtrapolationOptions& o)
{
    std::vector<double> q(Histogram::kQuantileCount, 0.0);
    double low = 0, high = 0, held = 0;
    bool allHeld = true;
    for (const IntervalPrediction& p : r.intervals) {
        if (p.predicted.quantiles.size() != q.size()) continue;
        for (size_t i = 0; i < q.size(); ++i)
            q[i] += p.predicted.quantiles[i];
        const double top = p.predicted.quantiles.back();
        low += p.quantilesLow.empty() ? top : std::min(top, p.quantilesLow.back());
        high += p.quantilesHigh.empty() ? top : std::max(top, p.quantilesHigh.back());
        if (p.hasHeldOut && !p.heldOutPredicted.quantiles.empty())
            held += p.heldOutPredicted.quantiles.back();
        allHeld = allHeld && p.hasHeldOut;
    }
    r.predictedSums = histogramFromQuantiles(q, o.target, o.bins);
    SumEstimate e;
    e.predicted = q.back();
    e.low = std::min(low, q.back());
    e.high = std::max(high, q.back());
    if (allHeld) e.heldOutErrorPct = relativeErrorPct(held, maxOf(sums.back()));
    return e;
}

SumEstimate rankscopeDirect(const ExtrapolationResult& r,
                            const std::vector<std::vector<double>>& sums,
                            const ExtrapolationOptions& o, Histogram& histogram,
                            std::vector<SeriesFit>& fits)
{
    const std::vector<double> scales(r.scales.begin(), r.scales.end());
    const TypicalExtreme te = predictTypicalExtreme(scales, sums, o.target, o.typical, o.slowest);
    const SumEstimate est = te.estimate;
    // The histogram: the median times the extrapolated shape (quantile / median), its top
    // replaced by the expected maximum.
    std::vector<std::vector<double>> shape;
    for (const std::vector<double>& s : sums) {
        const double m = median(s);
        std::vector<double> q = makeHistogram(s, 1).quantiles;
        for (double& v : q)
            v = m > 0 ? v / m : 0.0;
        shape.push_back(std::move(q));
    }
    QuantilePrediction s = extrapolateQuantiles(scales, shape, o.target, "S(r) / median ");
    std::vector<double> q;
    for (double v : s.quantiles)
        q.push_back(te.typical.predicted * v);
    q.back() = est.predicted;
    for (size_t i = q.size() - 1; i-- > 0;)
        q[i] = std::min(q[i], q[i + 1]);
    histogram = histogramFromQuantiles(q, o.target, o.bins);
    fits.push_back(te.typical.fit);
    SeriesFit excess;
    excess.quantity = "S(r) max / median - 1";
    for (size_t k = 0; k < scales.size(); ++k)
        excess.points.push_back({scales[k], 0, te.excess.observed[k], 0});
    // For the views, as terms in log2(n): rho (b0 + b1 ln n) (ln n + gamma - ln 2), H_n taken
    // as ln n + gamma (its error, 1 / 2n, is below 1 % of it from 8 ranks on).
    CandidateModel ev;
    const double rho = te.excess.tailFactor, b0 = te.excess.betaIntercept, b1 = te.excess.betaSlope,
                 ln2 = std::log(2.0), c = 0.57721566490153286 - ln2;
    ev.function = {{rho * b0 * c, 0, 0, 0, 0},
                   {rho * (b0 * ln2 + b1 * ln2 * c), 0, 1, 0, 0},
                   {rho * b1 * ln2 * ln2, 0, 2, 0, 0}};
    char formula[160];
    std::snprintf(formula, sizeof formula, "%.4g * beta(n) * (H_n - ln 2), beta %s: %.4g at N", rho,
                  excessGrowthName(o.slowest.growth).c_str(), te.excess.beta);
    ev.name = "extreme value";
    ev.formula = formula;
    ev.terms = b1 != 0 ? 2 : 1;
    ev.prediction = evaluate(ev, o.target);
    excess.models.push_back(ev);
    excess.chosen = 0;
    excess.prediction = te.excess.excess;
    excess.low = te.excess.low;
    excess.high = te.excess.high;
    fits.push_back(std::move(excess));
    for (SeriesFit& f : s.fits)
        fits.push_back(std::move(f));
    return est;
}

void rankscopeInterval(ExtrapolationResult& r, const std::vector<std::vector<double>>& sums,
                       const ExtrapolationOptions& o)
{
    const SumEstimate composition = rankscopeComposition(r, sums, o);
    Histogram directSums;
    std::vector<SeriesFit> directFits;
    const SumEstimate direct = rankscopeDirect(r, sums, o, directSums, directFits);
    r.composition = composition;
    r.direct = direct;
    // The typical and the slowest rank apart, or the composition when its held-out error is
    // lower (a program whose intervals follow different laws, e.g. a part that grows with n,
    // sums to a curve no single law of the typical rank follows).
    const double inf = INFINITY;
    const bool useDirect =
        direct.heldOutErrorPct.value_or(inf) <= composition.heldOutErrorPct.value_or(inf);
    const SumEstimate& chosen = useDirect ? direct : composition;
    r.sumModel = useDirect ? "direct" : "composition";
    if (useDirect) r.predictedSums = std::move(directSums);
    r.sumFits = std::move(directFits);
    r.predictedMaxRankDeltaSum = chosen.predicted;
    r.predictedMaxLow = chosen.low;
    r.predictedMaxHigh = chosen.high;
    r.heldOutErrorPct = chosen.heldOutErrorPct;
}

} // namespace

TypicalExtreme predictTypicalExtreme(const std::vector<double>& scales,
                                     const std::vector<std::vector<double>>& sums, double target,
                                     const TypicalOptions& typical, const SlowestOptions& slowest)
{
    std::vector<FitPoint> location;
    for (size_t k = 0; k < sums.size(); ++k) {
        // The median's standard error is about 1.2533 sd / sqrt(ranks).
        const double se = 1.2533 * robustSd(sums[k]) / std::sqrt(double(sums[k].size()));
        location.push_back({scales[k], 0, std::max(median(sums[k]), 1.0), se});
    }
    TypicalExtreme te{predictTypical(location, target, typical),
                      predictExcess(scales, sums, target, slowest),
                      {}};
    te.estimate.predicted = te.typical.predicted * (1 + te.excess.excess);
    te.estimate.low = te.typical.low * (1 + te.excess.low);
    te.estimate.high = te.typical.high * (1 + te.excess.high);
    if (sums.size() >= 2) {
        const std::vector<double> fewer(scales.begin(), scales.end() - 1);
        const std::vector<std::vector<double>> fewerSums(sums.begin(), sums.end() - 1);
        std::vector<FitPoint> held(location.begin(), location.end() - 1);
        const double t = predictTypical(held, scales.back(), typical).predicted;
        const double e = predictExcess(fewer, fewerSums, scales.back(), slowest).excess;
        te.estimate.heldOutErrorPct = relativeErrorPct(t * (1 + e), maxOf(sums.back()));
    }
    return te;
}

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

double relativeErrorPct(double predicted, double actual)
{
    if (actual == 0) return predicted == 0 ? 0.0 : 100.0;
    return 100.0 * std::abs(predicted - actual) / std::abs(actual);
}

void composeSums(ExtrapolationResult& result, const std::vector<std::vector<double>>& sums,
                 const ExtrapolationOptions& options)
{
    result.intervalMethod = kIntervalMethod;
    if (options.method == Method::Classic && options.mode == Mode::Sum)
        classicSum(result, sums, options);
    else if (options.method == Method::Classic)
        classicInterval(result, sums, options);
    else
        rankscopeInterval(result, sums, options);
}

} // namespace rankscope::extrap
