#pragma once
// The uncertainty interval of a fitted series (ALGORITHMS.md §4.4), the same for every method:
// it spans
// - the prediction itself,
// - the chosen model refitted on subsets of the scales (held out, leave-one-out) and evaluated
//   at the target: how much the choice depends on single scales,
// - the plausible candidates whose held-out error is within the guard margin of the chosen
//   one's: models the data cannot tell apart (model disagreement),
// widened by twice the relative noise of the samples (the spread over ranks and iterations).
// The interval is named by kIntervalMethod in the output.

#include "whatif/extrap/seriesfit.h"

#include <span>

namespace rankscope::extrap {

inline constexpr const char* kIntervalMethod = "model_spread_and_noise";

/// The margin (percentage points of held-out SMAPE) within which two models count as
/// indistinguishable: the guard's absolute margin, or twice the noise in %, if larger.
double indistinguishableMargin(std::span<const FitPoint> points);

/// Sets s.low and s.high around the raw (unclamped) prediction `raw` of the chosen model;
/// `refits` are the chosen model's predictions at the target from subsets of the scales.
/// Both ends are clamped to >= 0.
void setInterval(SeriesFit& s, double raw, std::span<const double> refits);

} // namespace rankscope::extrap
