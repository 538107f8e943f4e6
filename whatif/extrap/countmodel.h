#pragma once
// Event-count extrapolation (ALGORITHMS.md §3.4): how often an execution interval occurs per
// rank, fitted as a small linear model in basis functions of n, chosen by leave-one-out mean
// absolute error (ties to the earlier, simpler basis). Predictions are rounded to integers and
// never negative. Used by both methods. Problem size is not a count parameter here.

#include "whatif/extrap/seriesfit.h"

#include <span>
#include <string>

namespace rankscope::extrap {

/// Fits the count series `points` (at least 3 distinct n) and predicts at `target`.
SeriesFit fitCount(std::span<const FitPoint> points, double target, std::string quantity = "count");

} // namespace rankscope::extrap
