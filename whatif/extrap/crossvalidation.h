#pragma once
// Leave-one-out cross-validation of a linear-in-coefficients model (ALGORITHMS.md §3.4, §4.2):
// each sample is left out in turn, the model is fitted to the others and judged on the one
// left out. The folds' predictions at the target also give the uncertainty interval (§4.4).

#include <Eigen/Dense>

#include <optional>
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

} // namespace rankscope::extrap
