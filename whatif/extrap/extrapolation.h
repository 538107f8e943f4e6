#pragma once
// Timing extrapolation from traces at several small scales to a target scale (ALGORITHMS.md
// §3 classic, §4 Rankscope). The driver: computes the intervals and histograms of every input
// trace, matches intervals across scales by name, fits the series, composes the per-rank sums
// and, when a measured trace of the target scale is given, compares prediction and measurement.

#include "model/deltas/histogram.h"
#include "model/support/progressreporter.h"
#include "whatif/extrap/seriesfit.h"
#include "whatif/extrap/slowestrank.h"
#include "whatif/extrap/typicalrank.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope {
class Trace;
struct IntervalTable;
} // namespace rankscope

namespace rankscope::extrap {

enum class Method
{
    Classic,   ///< §3: four models, bin-wise histogram fitting
    Rankscope, ///< §4: per-interval composition or a direct robust fit, PMNF search, quantiles
    Auto       ///< §4.4b: classic unless Rankscope's held-out advantage exceeds the noise
};

enum class Mode
{
    Sum,     ///< fit the per-rank sums S(r) directly (classic only; §4.1 forbids it for Rankscope)
    Interval ///< fit every execution interval, compose S(r)
};

/// "classic" / "rankscope" / "auto", "sum" / "interval".
std::string methodName(Method method);
std::string modeName(Mode mode);

struct ExtrapolationOptions
{
    Method method = Method::Auto;
    Mode mode = Mode::Interval;
    uint32_t target = 0;                 ///< the target rank count N
    int bins = 20;                       ///< histogram bins (1..kMaxHistogramBins)
    ProgressCallback progress;           ///< 0..1; returning false cancels (the result says so)
    std::vector<std::string> traceNames; ///< optional, one per small-scale trace, for messages
    /// Accept a target at or below the largest input (synthesis rebuilding a scale that was run,
    /// to compare); extrapolation proper refuses it.
    bool allowInputScaleTarget = false;
    /// Rankscope: the typical rank's law average and the slowest rank's excess (§4.1).
    TypicalOptions typical;
    SlowestOptions slowest;
};

/// The prediction for one execution interval.
struct IntervalPrediction
{
    std::string name;         ///< `A - B`
    std::string chosenModel;  ///< the model chosen for the mean delta per occurrence
    double predictedMean = 0; ///< delta per occurrence, ns
    double predictedMeanLow = 0;
    double predictedMeanHigh = 0;
    double predictedCount = 0;        ///< occurrences per rank (mean over ranks), an integer
    Histogram predicted;              ///< delta times (classic) / per-rank totals (Rankscope)
    std::vector<double> quantilesLow; ///< Rankscope: band around predicted.quantiles
    std::vector<double> quantilesHigh;
    std::optional<double> measuredMean;
    std::optional<double> measuredCount;
    std::optional<Histogram> measured; ///< the same quantity as `predicted`, measured
    std::vector<SeriesFit> fits;       ///< every fitted series, with its candidates and samples
    /// Held-out check (the interval at the largest input scale, predicted from the smaller
    /// ones by the same model choices): occurrences per rank, and the predicted quantity
    /// (classic: the delta histogram; Rankscope: the per-rank totals' quantiles).
    bool hasHeldOut = false;
    double heldOutCount = 0;
    Histogram heldOutPredicted;

    bool operator==(const IntervalPrediction& o) const
    {
        return std::tie(name, chosenModel, predictedMean, predictedMeanLow, predictedMeanHigh,
                        predictedCount, predicted, quantilesLow, quantilesHigh, measuredMean,
                        measuredCount, measured, fits, hasHeldOut, heldOutCount,
                        heldOutPredicted) ==
               std::tie(o.name, o.chosenModel, o.predictedMean, o.predictedMeanLow,
                        o.predictedMeanHigh, o.predictedCount, o.predicted, o.quantilesLow,
                        o.quantilesHigh, o.measuredMean, o.measuredCount, o.measured, o.fits,
                        o.hasHeldOut, o.heldOutCount, o.heldOutPredicted);
    }
};

/// One estimate of max_r S(r) at the target with its interval and its held-out error: the
/// error (%) of the same model choices predicting max_r S(r) of the largest input scale from
/// the smaller scales (nullopt when it cannot be computed).
struct SumEstimate
{
    double predicted = 0;
    double low = 0;
    double high = 0;
    std::optional<double> heldOutErrorPct;
    bool operator==(const SumEstimate&) const = default;
};

/// A method scored for `auto` (§4.4b).
struct MethodCandidate
{
    Method method = Method::Rankscope;
    Mode mode = Mode::Interval;
    SumEstimate estimate;
    bool operator==(const MethodCandidate&) const = default;
};

struct ExtrapolationResult
{
    Method method = Method::Rankscope;
    Mode mode = Mode::Interval;
    uint32_t target = 0;
    std::vector<uint32_t> scales;        ///< the input rank counts, ascending
    double predictedMaxRankDeltaSum = 0; ///< max_r S(r) at the target, ns
    double predictedMaxLow = 0;
    double predictedMaxHigh = 0;
    Histogram predictedSums;        ///< S(r) over the target's ranks
    std::vector<SeriesFit> sumFits; ///< sum mode: the fitted series of the S(r) histogram
    std::optional<double> measuredMaxRankDeltaSum;
    std::optional<Histogram> measuredSums;
    std::optional<double> accuracyPct;         ///< §3.5, of max_r S(r)
    std::optional<double> w1Normalized;        ///< §3.5, predicted vs measured S(r) histograms
    std::vector<IntervalPrediction> intervals; ///< interval mode, sorted by name
    std::vector<std::string> missingIntervals; ///< "A - B (missing at 16, 36)"
    bool cancelled = false;
    /// How low/high were made (fitinterval.h).
    std::string intervalMethod;
    /// This result's own held-out error (%) on the inputs, as in SumEstimate.
    std::optional<double> heldOutErrorPct;
    /// Rankscope: the per-interval composition and the direct robust fit of max_r S(r), and
    /// which of them the result reports ("composition" or "direct": the lower held-out error).
    std::optional<SumEstimate> composition;
    std::optional<SumEstimate> direct;
    std::string sumModel;
    /// Auto: this result is the winner of `candidates` (every method scored, winner first).
    bool autoChosen = false;
    std::vector<MethodCandidate> candidates;
    /// Auto: why this method was chosen, with the held-out errors and the noise compared.
    std::string autoReason;

    bool operator==(const ExtrapolationResult& o) const
    {
        return std::tie(method, mode, target, scales, predictedMaxRankDeltaSum, predictedMaxLow,
                        predictedMaxHigh, predictedSums, sumFits, measuredMaxRankDeltaSum,
                        measuredSums, accuracyPct, w1Normalized, intervals, missingIntervals,
                        cancelled, intervalMethod, heldOutErrorPct, composition, direct, sumModel,
                        autoChosen, candidates, autoReason) ==
               std::tie(o.method, o.mode, o.target, o.scales, o.predictedMaxRankDeltaSum,
                        o.predictedMaxLow, o.predictedMaxHigh, o.predictedSums, o.sumFits,
                        o.measuredMaxRankDeltaSum, o.measuredSums, o.accuracyPct, o.w1Normalized,
                        o.intervals, o.missingIntervals, o.cancelled, o.intervalMethod,
                        o.heldOutErrorPct, o.composition, o.direct, o.sumModel, o.autoChosen,
                        o.candidates, o.autoReason);
    }
};

/// Largest target accepted (2^24 ranks).
inline constexpr uint32_t kMaxTargetRanks = 1u << 24;

/// Extrapolates `smallScales` (at least 3 traces of distinct rank counts) to options.target.
/// Throws TraceError for bad input naming what is wrong: too few or repeated scales, a target
/// not above the largest input or above kMaxTargetRanks, a trace without MPI calls, traces that
/// are not of the same program, a measured trace of another program or not at the target
/// scale, Rankscope with Mode::Sum. `measured`: a trace at the target scale. Method::Auto runs
/// classic (sum and interval) and Rankscope and returns classic (interval unless sum's held-out
/// error is lower by more than the noise) unless Rankscope's held-out error is lower than
/// classic's by more than the noise (autoNoisePct); autoReason says which and why.
ExtrapolationResult extrapolate(const std::vector<const Trace*>& smallScales,
                                const ExtrapolationOptions& options,
                                const Trace* measured = nullptr);

/// Refuses a set of traces that is not of one program (TraceError naming `labels[k]`, the
/// first trace that is not): at least half of each trace's MPI calls must be made at call sites
/// every input scale has (a 1-rank run is measured against the parallel runs' sites only).
/// `ranks[k]` and `tables[k]` (computeIntervals) are trace k's. extrapolate() and the POP
/// metrics (whatif/pop/popmetrics.h) refuse a set by this one check.
void checkSameProgram(const std::vector<uint32_t>& ranks,
                      const std::vector<const IntervalTable*>& tables,
                      const std::vector<std::string>& labels);

/// Fits one series (the `fit` command): classic (needs >= 3 distinct n, no problem size) or
/// Rankscope (PMNF in n, or in (n, s) when the points give s). Throws std::invalid_argument.
SeriesFit fitSeries(std::span<const FitPoint> points, Method method, double targetN,
                    double targetS = 0);

/// The noise, in percentage points of held-out error, that Rankscope's advantage over classic
/// must exceed for auto to choose it: the typical rank's relative noise, in %.
double autoNoisePct(const ExtrapolationOptions& options);

/// Accuracy[%] = (1 - |predicted - measured| / measured) * 100 (§3.5); 100 when both are 0,
/// 0 when only the measured value is 0.
double accuracyPercent(double predicted, double measured);

} // namespace rankscope::extrap
