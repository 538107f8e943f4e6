#pragma once
// The per-rank sums S(r) at the target scale (ALGORITHMS.md §3, §4.1), from the interval
// predictions already in the result or, in classic sum mode, from the S(r) histograms directly,
// each with its uncertainty interval and its held-out error (the same model choices predicting
// max_r S(r) of the largest input scale from the smaller scales).
//
// - Classic, sum mode: the S(r) histograms of the small scales extrapolated bin-wise (§3.3).
// - Classic, interval mode: the classic method's synthesised trace draws every delta
//   independently from its interval's predicted histogram. S(r) is then a sum of many
//   independent draws: normal with mean sum(count_i mean_i) and variance sum(count_i var_i).
//   Its quantiles are taken from that normal and its min/max are the expected extremes of N
//   draws (Blom: z = Phi^-1((N - 0.375) / (N + 0.25))), so no sampling (and no seed) is needed.
// - Rankscope, composition: quantile levels are added across intervals, S_q = sum_i T_i,q with
//   T_i the per-rank totals of interval i. This assumes ranks keep their order across intervals
//   (a slow rank is slow everywhere, as load imbalance makes it).
// - Rankscope, direct: the typical rank and the slowest rank apart. max_r S(r) = T (1 + E), T the
//   median over ranks of S(r) predicted by its law average (typicalrank.h) and E the expected
//   relative excess of the slowest of N ranks (slowestrank.h). The Rankscope result reports it,
//   or the composition when the composition's held-out error is lower.

#include "whatif/extrap/extrapolation.h"

#include <vector>

namespace rankscope::extrap {

/// Fills predictedSums, predictedMaxRankDeltaSum (+ low/high), sumFits, intervalMethod and
/// heldOutErrorPct of `result` (Rankscope also composition, direct and sumModel); `sums[k]`
/// is S(r) of the k-th scale of result.scales.
void composeSums(ExtrapolationResult& result, const std::vector<std::vector<double>>& sums,
                 const ExtrapolationOptions& options);

/// The Rankscope direct estimate of max_r S(r) (`sums[k]`: S(r) at `scales[k]`, ascending), with
/// its interval and held-out error (the same constants predicting the largest input scale).
struct TypicalExtreme
{
    TypicalPrediction typical;
    ExcessPrediction excess;
    SumEstimate estimate;
};
TypicalExtreme predictTypicalExtreme(const std::vector<double>& scales,
                                     const std::vector<std::vector<double>>& sums, double target,
                                     const TypicalOptions& typical, const SlowestOptions& slowest);

/// Phi^-1(p), the standard normal quantile, for p in (0, 1).
double normalQuantile(double p);

/// Error in % of `predicted` against `actual` (100 when actual is 0 and predicted is not).
double relativeErrorPct(double predicted, double actual);

} // namespace rankscope::extrap
