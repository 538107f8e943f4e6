#include "whatif/extrap/classicmodels.h"

#include "whatif/extrap/crossvalidation.h"
#include "whatif/extrap/fitinterval.h"
#include "whatif/extrap/leastsquares.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

namespace rankscope::extrap {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// numerator / |denominator| with the stated degenerate cases (see the header). Values within
/// 1e-12 of `scale` (the largest |sample|) are rounding noise of an exact fit and count as 0.
double ratio(double numerator, double denominator, double scale)
{
    const double zero = 1e-12 * scale;
    if (std::abs(denominator) > zero) return numerator / std::abs(denominator);
    return numerator <= zero ? 0.0 : kInf;
}

/// Mean and sample sd after removing the one value farthest from the mean (§3.2 (1), (3)).
struct Trimmed
{
    double mean = 0;
    double sd = 0;
};

Trimmed trimmedMeanSd(const std::vector<double>& v)
{
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= double(v.size());
    size_t outlier = 0;
    for (size_t i = 1; i < v.size(); ++i)
        if (std::abs(v[i] - mean) > std::abs(v[outlier] - mean)) outlier = i;
    Trimmed t;
    const double m = double(v.size() - 1);
    for (size_t i = 0; i < v.size(); ++i)
        if (i != outlier) t.mean += v[i];
    t.mean /= m;
    double ss = 0;
    for (size_t i = 0; i < v.size(); ++i)
        if (i != outlier) ss += (v[i] - t.mean) * (v[i] - t.mean);
    t.sd = std::sqrt(ss / (m - 1)); // m' >= 2 because m >= 3
    return t;
}

std::string formula(const ClassicModelFit& f)
{
    char buf[160];
    switch (f.model) {
    case ClassicModel::Constant:
        std::snprintf(buf, sizeof buf, "%.6g", f.c);
        break;
    case ClassicModel::Linear:
        std::snprintf(buf, sizeof buf, "%.6g * n + %.6g", f.a, f.c);
        break;
    case ClassicModel::Inverse:
        std::snprintf(buf, sizeof buf, "%.6g / n", f.b);
        break;
    case ClassicModel::InverseConstant:
        std::snprintf(buf, sizeof buf, "%.6g / n + %.6g", f.b, f.c);
        break;
    }
    return buf;
}

/// The fitted function a n + b / n + c as terms, without the coefficients the model fixes at 0.
/// (4) is fitted on t n = c n + k, so its function in t is k / n + c.
std::vector<ModelTerm> terms(const ClassicModelFit& f)
{
    switch (f.model) {
    case ClassicModel::Constant:
        return {{f.c, 0, 0, 0, 0}};
    case ClassicModel::Linear:
        return {{f.a, 1, 0, 0, 0}, {f.c, 0, 0, 0, 0}};
    case ClassicModel::Inverse:
        return {{f.b, -1, 0, 0, 0}};
    case ClassicModel::InverseConstant:
        return {{f.b, -1, 0, 0, 0}, {f.c, 0, 0, 0, 0}};
    }
    return {};
}

} // namespace

std::string classicModelName(ClassicModel model)
{
    switch (model) {
    case ClassicModel::Constant:
        return "constant";
    case ClassicModel::Linear:
        return "linear";
    case ClassicModel::Inverse:
        return "inverse";
    case ClassicModel::InverseConstant:
        return "inverse_constant";
    }
    return "";
}

std::array<ClassicModelFit, 4> fitClassicModels(std::span<const FitPoint> points)
{
    std::set<double> distinct;
    for (const FitPoint& p : points) {
        if (!(p.n > 0) || !std::isfinite(p.value))
            throw std::invalid_argument("scales must be positive and values finite");
        distinct.insert(p.n);
    }
    if (distinct.size() < 3 || distinct.size() != points.size())
        throw std::invalid_argument(
            "the classic method needs at least 3 samples at distinct scales (got " +
            std::to_string(points.size()) + " samples at " + std::to_string(distinct.size()) +
            " distinct scales)");

    const Eigen::Index m = Eigen::Index(points.size());
    Eigen::VectorXd n(m), t(m);
    std::vector<double> values, k;
    for (Eigen::Index i = 0; i < m; ++i) {
        n(i) = points[size_t(i)].n;
        t(i) = points[size_t(i)].value;
        values.push_back(t(i));
        k.push_back(t(i) * n(i));
    }

    double scale = 0, kScale = 0;
    for (Eigen::Index i = 0; i < m; ++i) {
        scale = std::max(scale, std::abs(t(i)));
        kScale = std::max(kScale, std::abs(t(i) * n(i)));
    }
    std::array<ClassicModelFit, 4> fits;
    // (1) constant: trimmed mean, d1 = sd / c.
    const Trimmed c = trimmedMeanSd(values);
    fits[0] = {ClassicModel::Constant, 0, 0, c.mean, ratio(c.sd, c.mean, scale)};
    // (2) linear: OLS on (n, t), d2 = sqrt(residual) / average of the fitted values.
    const auto line = fitLine(n, t); // distinct n >= 3: always full rank
    fits[1] = {ClassicModel::Linear, line->slope, 0, line->intercept,
               ratio(std::sqrt(line->residual), line->fittedMean, scale)};
    // (3) inverse: k_i = t_i n_i, trimmed mean, d3 = sd / k.
    const Trimmed inv = trimmedMeanSd(k);
    fits[2] = {ClassicModel::Inverse, 0, inv.mean, 0, ratio(inv.sd, inv.mean, kScale)};
    // (4) inverse + constant through t n = c n + k: OLS on (n, t n), d4 as d2 on that line.
    const auto tl = fitLine(n, n.cwiseProduct(t));
    fits[3] = {ClassicModel::InverseConstant, 0, tl->intercept, tl->slope,
               ratio(std::sqrt(tl->residual), tl->fittedMean, kScale)};
    return fits;
}

int selectClassicModel(const std::array<ClassicModelFit, 4>& fits)
{
    int best = 0;
    for (int i = 1; i < 4; ++i) {
        const double d = fits[size_t(i)].d, bestD = fits[size_t(best)].d;
        if (d < bestD - 1e-12 * std::max(1.0, std::abs(bestD)) || (std::isinf(bestD) && d < bestD))
            best = i;
    }
    return best;
}

namespace {

Eigen::RowVectorXd classicDesignRow(ClassicModel model, double n)
{
    switch (model) {
    case ClassicModel::Constant:
        return Eigen::RowVectorXd::Constant(1, 1.0);
    case ClassicModel::Linear:
        return (Eigen::RowVectorXd(2) << 1.0, n).finished();
    case ClassicModel::Inverse:
        return Eigen::RowVectorXd::Constant(1, 1 / n);
    case ClassicModel::InverseConstant:
        return (Eigen::RowVectorXd(2) << 1.0, 1 / n).finished();
    }
    return {};
}

} // namespace

SeriesFit fitClassic(std::span<const FitPoint> points, double target, std::string quantity)
{
    SeriesFit s;
    s.quantity = std::move(quantity);
    s.points.assign(points.begin(), points.end());
    const auto fits = fitClassicModels(points);
    const Eigen::Index m = Eigen::Index(points.size());
    const Eigen::VectorXd y = valuesOf(points);
    const std::vector<bool> held = largestScaleRows(points);
    std::vector<FitPoint> smaller;
    double largest = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        if (held[i])
            largest = points[i].n;
        else
            smaller.push_back(points[i]);
    }
    std::vector<std::optional<HeldOutResult>> out;
    for (const ClassicModelFit& f : fits) {
        CandidateModel c{classicModelName(f.model), formula(f), f.d, f(target),
                         f.model == ClassicModel::Constant || f.model == ClassicModel::Inverse ? 1
                                                                                               : 2};
        c.function = terms(f);
        // Held out: the model refitted on the smaller scales, by its own procedure of §3.2 when
        // 3 or more remain, else (2 remain: no outlier can be removed) by least squares.
        Eigen::MatrixXd x(m, classicDesignRow(f.model, 1).size());
        for (Eigen::Index i = 0; i < m; ++i)
            x.row(i) = classicDesignRow(f.model, points[size_t(i)].n);
        out.push_back(holdOut(x, y, held, classicDesignRow(f.model, target)));
        if (smaller.size() >= 3 && out.back()) {
            const ClassicModelFit g = fitClassicModels(smaller)[size_t(f.model)];
            HeldOutResult& o = *out.back();
            o.prediction = g(largest);
            o.smape = smape(o.prediction, o.actual);
            o.atTarget = g(target);
        }
        if (out.back()) c.heldOutPct = out.back()->smape;
        c.plausible = plausiblePrediction(points, c.prediction);
        s.models.push_back(std::move(c));
    }
    s.chosen = selectClassicModel(fits);
    const double p = s.models[size_t(s.chosen)].prediction;
    s.clamped = p < 0;
    s.prediction = std::max(0.0, p);
    std::vector<double> refits;
    if (const auto& o = out[size_t(s.chosen)]) {
        s.heldOut = o->prediction;
        s.hasHeldOut = true;
        refits.push_back(o->atTarget);
    }
    setInterval(s, p, refits);
    return s;
}

} // namespace rankscope::extrap
