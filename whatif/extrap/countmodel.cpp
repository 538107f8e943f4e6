#include "whatif/extrap/countmodel.h"

#include "whatif/extrap/crossvalidation.h"
#include "whatif/extrap/leastsquares.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace rankscope::extrap {

namespace {

/// A basis: its functions of n, each a term n^i log2(n)^j (the coefficient is fitted).
struct Basis
{
    const char* name;
    std::vector<ModelTerm> functions;
};

const std::vector<Basis>& bases()
{
    const ModelTerm one{1, 0, 0, 0, 0};
    static const std::vector<Basis> b = {
        {"{1}", {one}},
        {"{1, n}", {one, {1, 1, 0, 0, 0}}},
        {"{1, log2 n}", {one, {1, 0, 1, 0, 0}}},
        {"{1, 1/n}", {one, {1, -1, 0, 0, 0}}},
        {"{n}", {{1, 1, 0, 0, 0}}},
        {"{1, sqrt n}", {one, {1, 0.5, 0, 0, 0}}},
    };
    return b;
}

Eigen::RowVectorXd row(const Basis& b, double n)
{
    Eigen::RowVectorXd r(Eigen::Index(b.functions.size()));
    for (size_t i = 0; i < b.functions.size(); ++i)
        r(Eigen::Index(i)) = powerLog2(n, b.functions[i].i, b.functions[i].j);
    return r;
}

double rounded(double v)
{
    return std::max(0.0, std::round(v));
}

} // namespace

SeriesFit fitCount(std::span<const FitPoint> points, double target, std::string quantity)
{
    if (points.size() < 3) throw std::invalid_argument("a count series needs at least 3 scales");
    SeriesFit s;
    s.quantity = std::move(quantity);
    s.points.assign(points.begin(), points.end());
    const Eigen::Index m = Eigen::Index(points.size());
    Eigen::VectorXd y(m);
    for (Eigen::Index i = 0; i < m; ++i)
        y(i) = points[size_t(i)].value;

    std::vector<std::vector<double>> folds;
    std::vector<std::optional<HeldOutResult>> out;
    const std::vector<bool> held = largestScaleRows(points);
    for (const Basis& b : bases()) {
        Eigen::MatrixXd x(m, Eigen::Index(b.functions.size()));
        for (Eigen::Index i = 0; i < m; ++i)
            x.row(i) = row(b, points[size_t(i)].n);
        const Eigen::RowVectorXd t = row(b, target);
        const auto c = solveLeastSquares(x, y);
        const auto loo = c ? leaveOneOut(x, y, t) : std::nullopt;
        if (!loo) continue;
        std::string formula;
        for (Eigen::Index i = 0; i < c->size(); ++i) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%s%.6g", i ? ", " : "", (*c)(i));
            formula += buf;
        }
        s.models.push_back({b.name, "coefficients " + formula, loo->meanAbsError, t.dot(*c),
                            int(b.functions.size())});
        std::vector<ModelTerm>& function = s.models.back().function;
        function = b.functions;
        for (size_t i = 0; i < function.size(); ++i)
            function[i].coefficient = (*c)(Eigen::Index(i));
        folds.push_back(loo->foldPredictions);
        out.push_back(holdOut(x, y, held, t));
        if (out.back()) s.models.back().heldOutPct = out.back()->smape;
        // Clearly smaller error wins (beyond rounding): ties go to the earlier, simpler basis.
        if (s.chosen < 0 || loo->meanAbsError < s.models[size_t(s.chosen)].d -
                                                    1e-9 * std::max(1.0, y.cwiseAbs().maxCoeff()))
            s.chosen = int(s.models.size() - 1);
    }
    if (s.chosen < 0) return s;
    const double p = s.models[size_t(s.chosen)].prediction;
    double low = p, high = p;
    for (double f : folds[size_t(s.chosen)]) {
        low = std::min(low, f);
        high = std::max(high, f);
    }
    if (const auto& o = out[size_t(s.chosen)]) {
        s.heldOut = std::max(0.0, o->prediction);
        s.hasHeldOut = true;
    }
    s.clamped = p < 0;
    s.prediction = rounded(p);
    s.low = rounded(low);
    s.high = rounded(high);
    return s;
}

} // namespace rankscope::extrap
