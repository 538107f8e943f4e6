#include "whatif/extrap/extrapolation.h"

#include "model/intervals.h"
#include "model/intervalsamples.h"
#include "model/trace.h"
#include "model/traceerror.h"
#include "whatif/extrap/classichistogram.h"
#include "whatif/extrap/classicmodels.h"
#include "whatif/extrap/countmodel.h"
#include "whatif/extrap/pmnf.h"
#include "whatif/extrap/quantileextrapolation.h"
#include "whatif/extrap/scaleseries.h"
#include "whatif/extrap/sumcomposition.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rankscope::extrap {

namespace {

/// What the fits need from one trace.
struct ScaleData
{
    uint32_t ranks = 0;
    IntervalTable table;
    IntervalSamples samples; // classic only: every delta of every interval
};

/// Per-rank totals of one interval (count x mean delta of each rank; 0 where it does not occur).
std::vector<double> perRankTotals(const ExecutionInterval& iv, size_t ranks)
{
    std::vector<double> v(ranks, 0.0);
    for (const IntervalRankStats& r : iv.perRank)
        if (r.rank.value < ranks) v[r.rank.value] = double(r.stats.total);
    return v;
}

std::vector<double> toDoubles(const std::vector<int64_t>& v)
{
    return {v.begin(), v.end()};
}

/// Reads one trace; false when cancelled. `from`, `to`: its share of the overall progress.
bool load(const Trace& trace, const std::string& label, bool withSamples, const ProgressCallback& progress,
          double from, double to, ScaleData& out)
{
    const double mid = withSamples ? (from + to) / 2 : to;
    const auto slice = [&](double a, double b) -> ProgressCallback {
        if (!progress) return {};
        return [&progress, a, b](double f) { return progress(a + f * (b - a)); };
    };
    out.ranks = uint32_t(trace.rankCount());
    out.table = computeIntervals(trace, slice(from, mid));
    if (out.table.cancelled) return false;
    if (out.table.intervals.empty())
        throw TraceError(label + " has no delta times (no MPI calls between MPI_Init and MPI_Finalize)");
    if (withSamples) {
        out.samples = collectIntervalSamples(trace, {}, slice(mid, to));
        if (out.samples.cancelled) return false;
    }
    return true;
}

std::string labelOf(const ExtrapolationOptions& o, size_t i, const Trace& t)
{
    const std::string ranks = std::to_string(t.rankCount()) + " ranks";
    return i < o.traceNames.size() ? o.traceNames[i] + " (" + ranks + ")" : "the trace of " + ranks;
}

void validate(const std::vector<const Trace*>& traces, const ExtrapolationOptions& o)
{
    if (o.target == 0) throw std::invalid_argument("the target scale must be at least 1 rank");
    if (o.bins < 1 || o.bins > kMaxHistogramBins)
        throw std::invalid_argument("bin count " + std::to_string(o.bins) + " is not in 1.." +
                                    std::to_string(kMaxHistogramBins));
    if (o.method == Method::Rankscope && o.mode == Mode::Sum)
        throw std::invalid_argument("the Rankscope method never fits the sum directly "
                                    "(ALGORITHMS.md 4.1): use the interval mode");
    if (traces.size() < 3)
        throw TraceError("extrapolation needs traces at least at 3 distinct scales (got " +
                         std::to_string(traces.size()) + ")");
    for (size_t i = 0; i < traces.size(); ++i) {
        if (!traces[i]) throw std::invalid_argument("null trace");
        if (traces[i]->rankCount() == 0) throw TraceError(labelOf(o, i, *traces[i]) + " has no ranks");
        for (size_t j = 0; j < i; ++j)
            if (traces[j]->rankCount() == traces[i]->rankCount())
                throw TraceError(labelOf(o, j, *traces[j]) + " and " + labelOf(o, i, *traces[i]) +
                                 " have the same scale: each scale may be given once");
    }
}

/// Fits one interval across the scales where it is present (at least 3).
IntervalPrediction predictInterval(const MatchedInterval& m, const std::vector<ScaleData>& data,
                                   const ExtrapolationOptions& o)
{
    IntervalPrediction p;
    p.name = m.name;
    const double target = o.target;
    // Counts per rank: a scale without the interval really has 0 occurrences.
    std::vector<FitPoint> counts, means;
    std::vector<double> present;
    for (size_t k = 0; k < data.size(); ++k) {
        const ExecutionInterval* iv = m.atScale[k];
        counts.push_back({double(data[k].ranks), 0,
                          iv ? double(iv->stats.occurrences) / data[k].ranks : 0.0});
        if (!iv) continue;
        present.push_back(data[k].ranks);
        means.push_back({double(data[k].ranks), 0, iv->stats.mean()});
    }
    SeriesFit count = fitCount(counts, target, "count per rank");
    p.predictedCount = count.prediction;

    if (o.method == Method::Classic) {
        std::vector<Histogram> hs;
        for (size_t k = 0; k < data.size(); ++k)
            if (m.atScale[k]) hs.push_back(makeHistogram(data[k].samples.samples.at(m.name), o.bins));
        const uint64_t n = uint64_t(std::llround(p.predictedCount * target));
        ClassicHistogramPrediction h = extrapolateHistogramClassic(present, hs, target, n);
        p.predicted = std::move(h.histogram);
        const SeriesFit& mean = h.fits.front(); // the "mean" series of §3.1
        p.chosenModel = mean.chosenName();
        p.predictedMean = p.predictedMeanLow = p.predictedMeanHigh = p.predicted.mean;
        p.fits.push_back(std::move(count));
        for (SeriesFit& f : h.fits) p.fits.push_back(std::move(f));
        return p;
    }

    SeriesFit mean = fitPmnf(means, target, 0, "mean");
    p.chosenModel = mean.chosenName();
    p.predictedMean = mean.prediction;
    p.predictedMeanLow = mean.low;
    p.predictedMeanHigh = mean.high;
    // Location and shape apart: the mean per-rank total is one series; each quantile level
    // relative to that mean is another. Imbalance that grows like 1 + a log2 n is then a simple
    // PMNF term, where the quantile itself (c n (1 + a log2 n)) would need two.
    std::vector<FitPoint> totals;
    std::vector<std::vector<double>> ratios;
    for (size_t k = 0; k < data.size(); ++k) {
        if (!m.atScale[k]) continue;
        const std::vector<double> t = perRankTotals(*m.atScale[k], data[k].ranks);
        const double avg = std::accumulate(t.begin(), t.end(), 0.0) / double(t.size());
        std::vector<double> q = makeHistogram(t, 1).quantiles;
        for (double& v : q) v = avg > 0 ? v / avg : 0.0;
        totals.push_back({double(data[k].ranks), 0, avg});
        ratios.push_back(std::move(q));
    }
    SeriesFit total = fitPmnf(totals, target, 0, "per-rank total mean");
    QuantilePrediction q = extrapolateQuantiles(present, ratios, target, "per-rank total / mean ");
    std::vector<double> values;
    for (size_t i = 0; i < q.quantiles.size(); ++i) {
        values.push_back(total.prediction * q.quantiles[i]);
        p.quantilesLow.push_back(total.low * q.low[i]);
        p.quantilesHigh.push_back(total.high * q.high[i]);
    }
    p.predicted = histogramFromQuantiles(values, o.target, o.bins);
    p.fits.push_back(std::move(count));
    p.fits.push_back(std::move(mean));
    p.fits.push_back(std::move(total));
    for (SeriesFit& f : q.fits) p.fits.push_back(std::move(f));
    return p;
}

void addMeasured(IntervalPrediction& p, const ExecutionInterval* iv, const ScaleData& m,
                 const ExtrapolationOptions& o)
{
    p.measuredMean = iv ? iv->stats.mean() : 0.0;
    p.measuredCount = iv ? double(iv->stats.occurrences) / m.ranks : 0.0;
    if (!iv) {
        p.measured = Histogram{};
    } else if (o.method == Method::Classic) {
        p.measured = makeHistogram(m.samples.samples.at(p.name), o.bins);
    } else {
        p.measured = makeHistogram(perRankTotals(*iv, m.ranks), o.bins);
    }
}

} // namespace

std::string methodName(Method method)
{
    return method == Method::Classic ? "classic" : "rankscope";
}

std::string modeName(Mode mode)
{
    return mode == Mode::Sum ? "sum" : "interval";
}

double accuracyPercent(double predicted, double measured)
{
    if (measured == 0) return predicted == 0 ? 100.0 : 0.0;
    return (1 - std::abs(predicted - measured) / std::abs(measured)) * 100;
}

ExtrapolationResult extrapolate(const std::vector<const Trace*>& smallScales,
                                const ExtrapolationOptions& options, const Trace* measured)
{
    validate(smallScales, options);
    ExtrapolationResult result;
    result.method = options.method;
    result.mode = options.mode;
    result.target = options.target;

    std::vector<size_t> order(smallScales.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return smallScales[a]->rankCount() < smallScales[b]->rankCount();
    });
    const bool classic = options.method == Method::Classic;
    const size_t loads = smallScales.size() + (measured ? 1 : 0);
    const double loadShare = 0.8 / double(loads);
    std::vector<ScaleData> data(smallScales.size());
    for (size_t k = 0; k < order.size(); ++k) {
        const Trace& t = *smallScales[order[k]];
        if (!load(t, labelOf(options, order[k], t), classic, options.progress, k * loadShare,
                  (k + 1) * loadShare, data[k])) {
            result.cancelled = true;
            return result;
        }
        result.scales.push_back(data[k].ranks);
    }
    ScaleData measuredData;
    if (measured && !load(*measured, "the measured trace (" + std::to_string(measured->rankCount()) +
                                         " ranks)",
                          classic, options.progress, 0.8 - loadShare, 0.8, measuredData)) {
        result.cancelled = true;
        return result;
    }

    std::vector<const IntervalTable*> tables;
    for (const ScaleData& d : data) tables.push_back(&d.table);
    ScaleSeries series = matchIntervals(result.scales, tables);
    result.missingIntervals = std::move(series.missing);
    ProgressReporter reporter(options.progress ? ProgressCallback([&](double f) {
        return options.progress(0.8 + 0.2 * f);
    })
                                               : ProgressCallback{},
                              series.intervals.size());
    for (size_t i = 0; i < series.intervals.size(); ++i) {
        const MatchedInterval& m = series.intervals[i];
        if (m.presentCount() < 3) continue; // listed in missingIntervals: too few scales to fit
        IntervalPrediction p = predictInterval(m, data, options);
        if (measured) {
            const auto at = std::find_if(
                measuredData.table.intervals.begin(), measuredData.table.intervals.end(),
                [&](const ExecutionInterval& iv) { return measuredData.table.name(iv) == m.name; });
            addMeasured(p, at == measuredData.table.intervals.end() ? nullptr : &*at, measuredData,
                        options);
        }
        result.intervals.push_back(std::move(p));
        if (!reporter.update(i + 1)) {
            result.cancelled = true;
            return result;
        }
    }
    if (measured) {
        for (const ExecutionInterval& iv : measuredData.table.intervals) {
            const std::string name = measuredData.table.name(iv);
            const bool known = std::any_of(series.intervals.begin(), series.intervals.end(),
                                           [&](const MatchedInterval& m) { return m.name == name; });
            if (!known) result.missingIntervals.push_back(name + " (only in the measured trace)");
        }
    }

    composeSums(result, data.size(), [&](size_t k) { return toDoubles(data[k].table.rankDeltaSums); },
                options);
    if (measured) {
        result.measuredSums = makeHistogram(toDoubles(measuredData.table.rankDeltaSums), options.bins);
        result.measuredMaxRankDeltaSum = double(measuredData.table.maxRankDeltaSum());
        result.accuracyPct = accuracyPercent(result.predictedMaxRankDeltaSum, *result.measuredMaxRankDeltaSum);
        result.w1Normalized = wasserstein1Normalized(result.predictedSums, *result.measuredSums);
    }
    result.cancelled = !reporter.report(series.intervals.size());
    return result;
}

SeriesFit fitSeries(std::span<const FitPoint> points, Method method, double targetN, double targetS)
{
    if (method == Method::Classic) {
        for (const FitPoint& p : points)
            if (p.s != 0)
                throw std::invalid_argument("the classic method has no problem-size parameter");
        return fitClassic(points, targetN, "value");
    }
    return fitPmnf(points, targetN, targetS, "value");
}

} // namespace rankscope::extrap
