#include "whatif/extrap/leastsquares.h"

namespace rankscope::extrap {

std::optional<Eigen::VectorXd> solveLeastSquares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b)
{
    if (a.rows() < a.cols() || a.cols() == 0) return std::nullopt;
    // Column-pivoting QR reveals rank deficiency (e.g. two basis functions equal at every sample),
    // which the normal equations would hide in rounding noise.
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
    qr.setThreshold(1e-12);
    if (qr.rank() < a.cols()) return std::nullopt;
    Eigen::VectorXd x = qr.solve(b);
    if (!x.allFinite()) return std::nullopt;
    return x;
}

std::optional<LineFit> fitLine(const Eigen::VectorXd& x, const Eigen::VectorXd& y)
{
    const Eigen::Index m = x.size();
    if (m < 2) return std::nullopt;
    Eigen::MatrixXd a(m, 2);
    a.col(0) = x;
    a.col(1).setOnes();
    const auto c = solveLeastSquares(a, y);
    if (!c) return std::nullopt;
    LineFit f;
    f.slope = (*c)(0);
    f.intercept = (*c)(1);
    const Eigen::VectorXd fitted = a * *c;
    f.residual = (y - fitted).squaredNorm();
    f.fittedMean = fitted.mean();
    return f;
}

} // namespace rankscope::extrap
