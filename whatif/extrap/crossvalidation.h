#pragma once
// Out-of-sample judging of a linear-in-coefficients model y ~ X c (ALGORITHMS.md §3.4, §4.2):
// - held-out extrapolation: the model refitted without the rows of the largest input scale
//   and judged on them (what extrapolation asks of a model: predict beyond the data);
// - leave-one-out: each sample left out in turn (with 4 or more scales; alone it rewards
//   interpolation).
// The refits' predictions at the target also feed the uncertainty interval (§4.4).

#include "whatif/extrap/seriesfit.h"

#include <Eigen/Dense>
#include <optional>
#include <span>
#include <vector>

namespace rankscope::extrap {

/// Symmetric mean absolute percentage error of one prediction, in % (0..200; 0 when both are 0).
double smape(double predicted, double actual);

struct LooResult
{
    double smape = 0;                    ///< mean SMAPE over the folds, %
    double meanAbsError = 0;             ///< mean |error| over the folds
    std::vector<double> foldPredictions; ///< each fold's model evaluated at the target row
};

/// Cross-validates y ~ X c; `target` is the design row at the prediction point. nullopt when a
/// fold has fewer samples than coefficients or is rank-deficient.
std::optional<LooResult> leaveOneOut(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                     const Eigen::RowVectorXd& target);

struct HeldOutResult
{
    double smape = 0;      ///< mean SMAPE over the held-out rows, %
    double prediction = 0; ///< mean prediction of the held-out rows
    double actual = 0;     ///< mean of their values
    double atTarget = 0;   ///< the refitted model at the target row
};

/// Refits y ~ X c without the rows marked in `held` and judges it on them. nullopt when the
/// remaining rows are fewer than the coefficients or rank-deficient, or nothing is held.
std::optional<HeldOutResult> holdOut(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                     const std::vector<bool>& held,
                                     const Eigen::RowVectorXd& target);

/// The rows at the largest scale n of `points` (every problem size at that n).
std::vector<bool> largestScaleRows(std::span<const FitPoint> points);

/// The values of `points`, as the right-hand side of a fit.
Eigen::VectorXd valuesOf(std::span<const FitPoint> points);

/// Whether a model's `prediction` can describe the series: not when it is negative for a series
/// whose samples are all positive (a time or a count cannot be negative).
bool plausiblePrediction(std::span<const FitPoint> points, double prediction);

/// The largest relative noise (noise / |value|) of the points, 0 when none is known.
double relativeNoise(std::span<const FitPoint> points);

} // namespace rankscope::extrap
