#include "whatif/extrap/crossvalidation.h"

#include "whatif/extrap/leastsquares.h"

#include <algorithm>
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

std::optional<HeldOutResult> holdOut(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                     const std::vector<bool>& held,
                                     const Eigen::RowVectorXd& target)
{
    const Eigen::Index m = x.rows();
    const Eigen::Index kept = Eigen::Index(std::count(held.begin(), held.end(), false));
    if (kept == m || kept < x.cols()) return std::nullopt;
    Eigen::MatrixXd xf(kept, x.cols());
    Eigen::VectorXd yf(kept);
    for (Eigen::Index i = 0, row = 0; i < m; ++i)
        if (!held[size_t(i)]) {
            xf.row(row) = x.row(i);
            yf(row++) = y(i);
        }
    const auto c = solveLeastSquares(xf, yf);
    if (!c) return std::nullopt;
    HeldOutResult r;
    double count = 0;
    for (Eigen::Index i = 0; i < m; ++i)
        if (held[size_t(i)]) {
            const double p = x.row(i).dot(*c);
            r.smape += smape(p, y(i));
            r.prediction += p;
            r.actual += y(i);
            ++count;
        }
    r.smape /= count;
    r.prediction /= count;
    r.actual /= count;
    r.atTarget = target.dot(*c);
    if (!std::isfinite(r.prediction) || !std::isfinite(r.atTarget)) return std::nullopt;
    return r;
}

std::vector<bool> largestScaleRows(std::span<const FitPoint> points)
{
    double largest = 0;
    for (const FitPoint& p : points)
        largest = std::max(largest, p.n);
    std::vector<bool> held;
    for (const FitPoint& p : points)
        held.push_back(p.n == largest);
    return held;
}

Eigen::VectorXd valuesOf(std::span<const FitPoint> points)
{
    Eigen::VectorXd y(Eigen::Index(points.size()));
    for (size_t i = 0; i < points.size(); ++i)
        y(Eigen::Index(i)) = points[i].value;
    return y;
}

bool plausiblePrediction(std::span<const FitPoint> points, double prediction)
{
    const bool allPositive =
        std::all_of(points.begin(), points.end(), [](const FitPoint& p) { return p.value > 0; });
    return !(allPositive && prediction < 0);
}

double relativeNoise(std::span<const FitPoint> points)
{
    double r = 0;
    for (const FitPoint& p : points)
        if (p.noise > 0 && p.value != 0) r = std::max(r, p.noise / std::abs(p.value));
    return std::isfinite(r) ? r : 0.0;
}

} // namespace rankscope::extrap
