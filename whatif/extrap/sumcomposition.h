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
// - Rankscope, direct: max_r S(r) = L + E, with L the median over ranks of S(r) (one noisy
//   rank cannot move it) and E = max - median, the excess of the slowest rank (imbalance plus
//   noise), each a PMNF series with the noise guard; E's interval covers at least the excess
//   seen at every input scale (what the inputs say about noise at the target).
//   The Rankscope result reports the one of the two with the lower held-out error (§4.1).

#include "whatif/extrap/extrapolation.h"

#include <vector>

namespace rankscope::extrap {

/// Fills predictedSums, predictedMaxRankDeltaSum (+ low/high), sumFits, intervalMethod and
/// heldOutErrorPct of `result` (Rankscope also composition, direct and sumModel); `sums[k]`
/// is S(r) of the k-th scale of result.scales.
void composeSums(ExtrapolationResult& result, const std::vector<std::vector<double>>& sums,
                 const ExtrapolationOptions& options);

/// Phi^-1(p), the standard normal quantile, for p in (0, 1).
double normalQuantile(double p);

/// Error in % of `predicted` against `actual` (100 when actual is 0 and predicted is not).
double relativeErrorPct(double predicted, double actual);

} // namespace rankscope::extrap
