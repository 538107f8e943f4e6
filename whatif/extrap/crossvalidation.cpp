#include "whatif/extrap/crossvalidation.h"

#include "whatif/extrap/leastsquares.h"

#include <cmath>

namespace rankscope::extrap {

double smape(double predicted, double actual)
{
    const double scale = (std::abs(predicted) + std::abs(actual)) / 2;
    return scale > 0 ? 100.0 * std::abs(predicted - actual) / scale : 0.0;
}

std::optional<LooResult> leaveOneOut(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                     const Eigen::RowVectorXd& target)
{
    const Eigen::Index m = x.rows();
    if (m - 1 < x.cols() || m < 2) return std::nullopt;
    LooResult r;
    Eigen::MatrixXd xf(m - 1, x.cols());
    Eigen::VectorXd yf(m - 1);
    for (Eigen::Index out = 0; out < m; ++out) {
        for (Eigen::Index i = 0, row = 0; i < m; ++i) {
            if (i == out) continue;
            xf.row(row) = x.row(i);
            yf(row++) = y(i);
        }
        const auto c = solveLeastSquares(xf, yf);
        if (!c) return std::nullopt;
        const double p = x.row(out).dot(*c);
        r.smape += smape(p, y(out));
        r.meanAbsError += std::abs(p - y(out));
        r.foldPredictions.push_back(target.dot(*c));
    }
    r.smape /= double(m);
    r.meanAbsError /= double(m);
    return r;
}

} // namespace rankscope::extrap
