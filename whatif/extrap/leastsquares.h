#pragma once
// Ordinary least squares for the small systems of the extrapolation models (Eigen).

#include <Eigen/Dense>
#include <optional>

namespace rankscope::extrap {

/// The x minimising |A x - b|^2, or nullopt when A does not have full column rank.
std::optional<Eigen::VectorXd> solveLeastSquares(const Eigen::MatrixXd& a,
                                                 const Eigen::VectorXd& b);

/// A straight line y = slope x + intercept fitted by ordinary least squares.
struct LineFit
{
    double slope = 0;
    double intercept = 0;
    double residual = 0;   ///< sum of squared residuals
    double fittedMean = 0; ///< mean of the fitted values at the sample x
};

/// Fits a line to (x_i, y_i); nullopt when the x are all equal or fewer than two.
std::optional<LineFit> fitLine(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

} // namespace rankscope::extrap
