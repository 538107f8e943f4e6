#include "whatif/extrap/extrapolation.h"

#include "model/deltas/intervals.h"
#include "model/deltas/intervalsamples.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/classichistogram.h"
#include "whatif/extrap/classicmodels.h"
#include "whatif/extrap/countmodel.h"
#include "whatif/extrap/pmnf.h"
#include "whatif/extrap/quantileextrapolation.h"
#include "whatif/extrap/scaleseries.h"
#include "whatif/extrap/sumcomposition.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <set>
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

/// The standard error of the mean of `v` (sample sd / sqrt(size)); 0 for fewer than 2 values.
double standardError(const std::vector<double>& v)
{
    if (v.size() < 2) return 0;
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return std::sqrt(ss / double(v.size() - 1) / double(v.size()));
}

/// Reads one trace; false when cancelled. `from`, `to`: its share of the overall progress.
bool load(const Trace& trace, const std::string& label, bool withSamples,
          const ProgressCallback& progress, double from, double to, ScaleData& out)
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
        throw TraceError(label +
                         " has no delta times (no MPI calls between MPI_Init and MPI_Finalize)");
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
    if (o.target > kMaxTargetRanks)
        throw TraceError("the target of " + std::to_string(o.target) +
                         " ranks is above the limit of " + std::to_string(kMaxTargetRanks) +
                         " (2^24) ranks");
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
        if (traces[i]->rankCount() == 0)
            throw TraceError(labelOf(o, i, *traces[i]) + " has no ranks");
        for (size_t j = 0; j < i; ++j)
            if (traces[j]->rankCount() == traces[i]->rankCount())
                throw TraceError(labelOf(o, j, *traces[j]) + " and " + labelOf(o, i, *traces[i]) +
                                 " have the same scale: each scale may be given once");
    }
    size_t largest = 0;
    for (size_t i = 1; i < traces.size(); ++i)
        if (traces[i]->rankCount() > traces[largest]->rankCount()) largest = i;
    if (!o.allowInputScaleTarget && o.target <= traces[largest]->rankCount())
        throw TraceError("the target of " + std::to_string(o.target) +
                         " ranks is not above the largest input, " +
                         labelOf(o, largest, *traces[largest]) +
                         ": extrapolation predicts a larger scale than was run");
}

/// The MPI calls of a trace by call site (each delta time starts at one call).
std::map<std::string, double> callsBySite(const IntervalTable& t)
{
    std::map<std::string, double> calls;
    for (const ExecutionInterval& iv : t.intervals)
        calls[std::string(t.callSites.name(iv.from))] += double(iv.stats.occurrences);
    return calls;
}

/// Share of a trace's MPI calls made at call sites in `known`.
double sharedCallShare(const IntervalTable& t, const std::set<std::string>& known)
{
    double all = 0, shared = 0;
    for (const auto& [site, n] : callsBySite(t)) {
        all += n;
        if (known.count(site)) shared += n;
    }
    return all > 0 ? shared / all : 0.0;
}

/// Traces of one program make their MPI calls at the same call sites: sites that come and go
/// with the scale (coarse grid levels, a phase from 16 ranks on) are allowed, but at least
/// kSameProgramShare of every input's MPI calls must be made at call sites found at every
/// input scale. A 1-rank run makes no point-to-point calls (it has no partner), so it does not
/// narrow the sites found everywhere: it is the same program when kSameProgramShare of its
/// calls (its collectives, say) are made at sites every parallel input has.
constexpr double kSameProgramShare = 0.5;

} // namespace

void checkSameProgram(const std::vector<uint32_t>& ranks,
                      const std::vector<const IntervalTable*>& tables,
                      const std::vector<std::string>& labels)
{
    const bool anyParallel =
        std::any_of(ranks.begin(), ranks.end(), [](uint32_t r) { return r > 1; });
    std::optional<std::set<std::string>> everywhere;
    for (size_t k = 0; k < tables.size(); ++k) {
        if (anyParallel && ranks[k] <= 1) continue;
        const std::map<std::string, double> here = callsBySite(*tables[k]);
        if (!everywhere) {
            everywhere.emplace();
            for (const auto& [site, n] : here)
                everywhere->insert(site);
        } else {
            std::erase_if(*everywhere, [&](const std::string& s) { return !here.count(s); });
        }
    }
    if (!everywhere) return;
    for (size_t k = 0; k < tables.size(); ++k) {
        const double share = sharedCallShare(*tables[k], *everywhere);
        if (share < kSameProgramShare)
            throw TraceError(labels[k] +
                             " is not a trace of the same program as the others: only " +
                             std::to_string(int(std::lround(share * 100))) +
                             " % of its MPI calls are made at call sites found at every " +
                             (ranks[k] <= 1 && anyParallel ? "parallel " : "") +
                             "input scale (at least 50 % is needed)");
    }
}

namespace {

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
        counts.push_back(
            {double(data[k].ranks), 0, iv ? double(iv->stats.occurrences) / data[k].ranks : 0.0});
        if (!iv) continue;
        present.push_back(data[k].ranks);
        // Noise of the mean delta: its spread over ranks (per-rank means), as a standard error.
        std::vector<double> rankMeans;
        for (const IntervalRankStats& r : iv->perRank)
            rankMeans.push_back(r.stats.mean());
        means.push_back({double(data[k].ranks), 0, iv->stats.mean(), standardError(rankMeans)});
    }
    SeriesFit count = fitCount(counts, target, "count per rank");
    p.predictedCount = count.prediction;
    // Held-out check: at the largest input scale; an interval absent there contributes nothing.
    const bool atLargest = m.atScale.back() != nullptr;
    p.heldOutCount = atLargest ? count.heldOut : 0.0;

    if (o.method == Method::Classic) {
        std::vector<Histogram> hs;
        for (size_t k = 0; k < data.size(); ++k)
            if (m.atScale[k])
                hs.push_back(makeHistogram(data[k].samples.samples.at(m.name), o.bins));
        const uint64_t n = uint64_t(std::llround(p.predictedCount * target));
        ClassicHistogramPrediction h = extrapolateHistogramClassic(present, hs, target, n);
        p.predicted = std::move(h.histogram);
        const SeriesFit& mean = h.fits.front(); // the "mean" series of §3.1
        p.chosenModel = mean.chosenName();
        p.predictedMean = p.predicted.mean;
        p.predictedMeanLow = std::min(mean.low, p.predictedMean);
        p.predictedMeanHigh = std::max(mean.high, p.predictedMean);
        p.hasHeldOut = count.hasHeldOut && (!atLargest || h.hasHeldOut);
        if (atLargest) p.heldOutPredicted = std::move(h.heldOut);
        p.fits.push_back(std::move(count));
        for (SeriesFit& f : h.fits)
            p.fits.push_back(std::move(f));
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
        for (double& v : q)
            v = avg > 0 ? v / avg : 0.0;
        totals.push_back({double(data[k].ranks), 0, avg, standardError(t)});
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
    p.hasHeldOut = count.hasHeldOut && (!atLargest || (total.hasHeldOut && !q.heldOut.empty()));
    p.heldOutPredicted.quantiles.assign(q.quantiles.size(), 0.0);
    if (atLargest && p.hasHeldOut)
        for (size_t i = 0; i < q.heldOut.size(); ++i)
            p.heldOutPredicted.quantiles[i] = std::max(0.0, total.heldOut) * q.heldOut[i];
    p.fits.push_back(std::move(count));
    p.fits.push_back(std::move(mean));
    p.fits.push_back(std::move(total));
    for (SeriesFit& f : q.fits)
        p.fits.push_back(std::move(f));
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
    switch (method) {
    case Method::Classic:
        return "classic";
    case Method::Rankscope:
        return "rankscope";
    case Method::Auto:
        return "auto";
    }
    return "";
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

namespace {

/// Everything one extrapolation reads from its traces, loaded once for every method.
struct Inputs
{
    std::vector<ScaleData> data; ///< ascending scale
    std::vector<uint32_t> scales;
    ScaleSeries series;
    std::optional<ScaleData> measured;
};

/// One method on loaded inputs; false when cancelled. `progress` covers the fitting.
bool runMethod(const Inputs& in, const ExtrapolationOptions& o, const ProgressCallback& progress,
               ExtrapolationResult& result)
{
    result.method = o.method;
    result.mode = o.mode;
    result.target = o.target;
    result.scales = in.scales;
    result.missingIntervals = in.series.missing;
    ProgressReporter reporter(progress, in.series.intervals.size());
    for (size_t i = 0; i < in.series.intervals.size(); ++i) {
        const MatchedInterval& m = in.series.intervals[i];
        if (m.presentCount() < 3) continue; // listed in missingIntervals: too few scales to fit
        IntervalPrediction p = predictInterval(m, in.data, o);
        if (in.measured) {
            const IntervalTable& t = in.measured->table;
            const auto at =
                std::find_if(t.intervals.begin(), t.intervals.end(),
                             [&](const ExecutionInterval& iv) { return t.name(iv) == m.name; });
            addMeasured(p, at == t.intervals.end() ? nullptr : &*at, *in.measured, o);
        }
        result.intervals.push_back(std::move(p));
        if (!reporter.update(i + 1)) return false;
    }
    if (in.measured) {
        for (const ExecutionInterval& iv : in.measured->table.intervals) {
            const std::string name = in.measured->table.name(iv);
            const bool known =
                std::any_of(in.series.intervals.begin(), in.series.intervals.end(),
                            [&](const MatchedInterval& m) { return m.name == name; });
            if (!known) result.missingIntervals.push_back(name + " (only in the measured trace)");
        }
    }
    std::vector<std::vector<double>> sums;
    for (const ScaleData& d : in.data)
        sums.push_back(toDoubles(d.table.rankDeltaSums));
    composeSums(result, sums, o);
    if (in.measured) {
        result.measuredSums = makeHistogram(toDoubles(in.measured->table.rankDeltaSums), o.bins);
        result.measuredMaxRankDeltaSum = double(in.measured->table.maxRankDeltaSum());
        result.accuracyPct =
            accuracyPercent(result.predictedMaxRankDeltaSum, *result.measuredMaxRankDeltaSum);
        result.w1Normalized = wasserstein1Normalized(result.predictedSums, *result.measuredSums);
    }
    return reporter.report(in.series.intervals.size());
}

MethodCandidate candidateOf(const ExtrapolationResult& r)
{
    return {r.method,
            r.mode,
            {r.predictedMaxRankDeltaSum, r.predictedMaxLow, r.predictedMaxHigh, r.heldOutErrorPct}};
}

} // namespace

ExtrapolationResult extrapolate(const std::vector<const Trace*>& smallScales,
                                const ExtrapolationOptions& options, const Trace* measured)
{
    validate(smallScales, options);
    ExtrapolationResult cancelled;
    cancelled.method = options.method;
    cancelled.mode = options.mode;
    cancelled.target = options.target;
    cancelled.cancelled = true;

    std::vector<size_t> order(smallScales.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return smallScales[a]->rankCount() < smallScales[b]->rankCount();
    });
    const bool samples = options.method != Method::Rankscope; // classic fits every delta
    const size_t loads = smallScales.size() + (measured ? 1 : 0);
    const double loadShare = 0.6 / double(loads);
    Inputs in;
    in.data.resize(smallScales.size());
    std::vector<std::string> labels;
    for (size_t k = 0; k < order.size(); ++k) {
        const Trace& t = *smallScales[order[k]];
        labels.push_back(labelOf(options, order[k], t));
        if (!load(t, labels.back(), samples, options.progress, k * loadShare, (k + 1) * loadShare,
                  in.data[k]))
            return cancelled;
        in.scales.push_back(in.data[k].ranks);
    }
    std::vector<const IntervalTable*> tables;
    for (const ScaleData& d : in.data)
        tables.push_back(&d.table);
    in.series = matchIntervals(in.scales, tables);
    checkSameProgram(in.scales, tables, labels);
    if (measured) {
        const std::string label =
            "the measured trace (" + std::to_string(measured->rankCount()) + " ranks)";
        if (measured->rankCount() != options.target)
            throw TraceError(label + " is not at the target scale of " +
                             std::to_string(options.target) +
                             " ranks: a measured run compares only at the scale predicted");
        in.measured.emplace();
        if (!load(*measured, label, samples, options.progress, 0.6 - loadShare, 0.6, *in.measured))
            return cancelled;
        std::set<std::string> known;
        for (const ScaleData& d : in.data)
            for (const auto& [site, n] : callsBySite(d.table))
                known.insert(site);
        const double share = sharedCallShare(in.measured->table, known);
        if (share < kSameProgramShare)
            throw TraceError(label + " is not a run of the program of the inputs: only " +
                             std::to_string(int(std::lround(share * 100))) +
                             " % of its MPI calls are made at call sites the inputs have "
                             "(at least 50 % is needed)");
    }

    // One run per method; auto runs all three and keeps the lowest held-out error.
    std::vector<ExtrapolationOptions> runs;
    if (options.method == Method::Auto) {
        for (auto [method, mode] :
             {std::pair{Method::Rankscope, Mode::Interval}, std::pair{Method::Classic, Mode::Sum},
              std::pair{Method::Classic, Mode::Interval}}) {
            ExtrapolationOptions o = options;
            o.method = method;
            o.mode = mode;
            runs.push_back(o);
        }
    } else {
        runs.push_back(options);
    }
    std::vector<ExtrapolationResult> results(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        const double from = 0.6 + 0.4 * double(i) / double(runs.size());
        const double to = 0.6 + 0.4 * double(i + 1) / double(runs.size());
        if (!runMethod(in, runs[i], progressSlice(options.progress, from, to), results[i]))
            return cancelled;
    }
    if (results.size() == 1) return std::move(results.front());
    // results: Rankscope, classic sum, classic interval. Classic is the default (§4.4b): with three
    // scales a held-out error is one extrapolation from two points, so Rankscope must beat the
    // better classic mode by more than the noise. Between the classic modes interval is kept
    // unless sum's held-out error is lower by more than the noise too (interval is the better
    // mode across programs: bench/extrap prints that choice left out program by program).
    const double noise = autoNoisePct(options);
    const auto error = [&](size_t i) { return results[i].heldOutErrorPct.value_or(INFINITY); };
    const auto text = [&](size_t i) {
        char buf[32];
        if (!results[i].heldOutErrorPct) return std::string("none");
        std::snprintf(buf, sizeof buf, "%.1f %%", *results[i].heldOutErrorPct);
        return std::string(buf);
    };
    const size_t classic = error(1) < error(2) - noise ? 1 : 2;
    const bool rankscope = error(0) < error(classic) - noise;
    const size_t best = rankscope ? 0 : classic;
    char reason[400];
    const char* classicName = classic == 1 ? "classic sum" : "classic interval";
    std::snprintf(reason, sizeof reason,
                  "%s: held-out error Rankscope %s, %s %s; Rankscope is chosen only when it is "
                  "lower than the better classic mode's by more than the noise (%.1f points)",
                  rankscope ? "rankscope" : classicName, text(0).c_str(), classicName,
                  text(classic).c_str(), noise);
    ExtrapolationResult chosen = std::move(results[best]);
    chosen.autoChosen = true;
    chosen.autoReason = reason;
    chosen.candidates.push_back(candidateOf(chosen));
    for (size_t i = 0; i < results.size(); ++i) {
        if (i == best) continue;
        chosen.candidates.push_back(candidateOf(results[i]));
        // Model disagreement: a method the inputs cannot rule out (its held-out error is within
        // the noise of the winner's) widens the interval to its prediction.
        if (!(error(best) < error(i) - noise)) {
            chosen.predictedMaxLow =
                std::min(chosen.predictedMaxLow, results[i].predictedMaxRankDeltaSum);
            chosen.predictedMaxHigh =
                std::max(chosen.predictedMaxHigh, results[i].predictedMaxRankDeltaSum);
        }
    }
    return chosen;
}

double autoNoisePct(const ExtrapolationOptions& options)
{
    return 100 * options.typical.noise;
}

SeriesFit fitSeries(std::span<const FitPoint> points, Method method, double targetN, double targetS)
{
    // Least squares squares the values: beyond 1e150 that overflows a double.
    constexpr double kLargest = 1e150;
    for (const FitPoint& p : points)
        if (std::abs(p.value) > kLargest || std::abs(p.n) > kLargest || std::abs(p.s) > kLargest) {
            char buf[160];
            std::snprintf(buf, sizeof buf,
                          "the point %g:%g is too large to fit (values and scales must "
                          "stay within 1e150, or the fit overflows)",
                          p.n, p.value);
            throw std::invalid_argument(buf);
        }
    if (!(targetN > 0) || targetN > kLargest || targetS > kLargest)
        throw std::invalid_argument("the target must be a positive scale within 1e150");
    if (method == Method::Classic) {
        for (const FitPoint& p : points)
            if (p.s != 0)
                throw std::invalid_argument("the classic method has no problem-size parameter");
        return fitClassic(points, targetN, "value");
    }
    SeriesFit f = fitPmnf(points, targetN, targetS, "value");
    if (f.chosen < 0) throw std::invalid_argument("no model could be fitted to these points");
    return f;
}

} // namespace rankscope::extrap
