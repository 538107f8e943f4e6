#pragma once
// The per-rank sums S(r) at the target scale (ALGORITHMS.md §3, §4.1), from the interval
// predictions already in the result or, in classic sum mode, from the S(r) histograms directly.
//
// - Classic, sum mode: the S(r) histograms of the small scales extrapolated bin-wise (§3.3).
// - Classic, interval mode: the classic method's synthesised trace draws every delta
//   independently from its interval's predicted histogram. S(r) is then a sum of many
//   independent draws: normal with mean sum(count_i mean_i) and variance sum(count_i var_i).
//   Its quantiles are taken from that normal and its min/max are the expected extremes of N
//   draws (Blom: z = Phi^-1((N - 0.375) / (N + 0.25))), so no sampling (and no seed) is needed.
// - Rankscope: quantile levels are added across intervals, S_q = sum_i T_i,q with T_i the
//   per-rank totals of interval i. This assumes ranks keep their order across intervals (a
//   slow rank is slow everywhere, as load imbalance makes it); the predicted max is then the
//   sum of the intervals' predicted maxima, its interval the sum of their intervals.

#include "whatif/extrap/extrapolation.h"

#include <functional>
#include <vector>

namespace rankscope::extrap {

/// Fills predictedSums, predictedMaxRankDeltaSum (+ low/high) and sumFits of `result`;
/// `sumsAt(k)` gives S(r) of the k-th scale of result.scales.
void composeSums(ExtrapolationResult& result, size_t scaleCount,
                 const std::function<std::vector<double>(size_t)>& sumsAt,
                 const ExtrapolationOptions& options);

/// Phi^-1(p), the standard normal quantile, for p in (0, 1).
double normalQuantile(double p);

} // namespace rankscope::extrap
