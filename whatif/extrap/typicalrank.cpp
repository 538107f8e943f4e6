#include "whatif/extrap/typicalrank.h"

#include "whatif/extrap/leastsquares.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rankscope::extrap {

namespace {

/// One law: its terms' exponents (n^i log2(n)^j), whether it is fitted in log space (the power
/// law: c n^a, a free) and its prior weight.
struct Law
{
    const char* name;
    std::vector<std::pair<double, int>> terms; ///< (i, j) of each coefficient's factor
    bool power = false;
    double prior = 0;
};

const std::vector<Law>& laws()
{
    static const std::vector<Law> list = {
        {"c0 + c1/n", {{0, 0}, {-1, 0}}, false, 0.35},
        {"c1/n", {{-1, 0}}, false, 0.20},
        {"c1*n^a", {}, true, 0.15},
        {"c0 + c1*log2(n)", {{0, 0}, {0, 1}}, false, 0.10},
        {"c0", {{0, 0}}, false, 0.10},
        {"c1/n + c2*n", {{-1, 0}, {1, 0}}, false, 0.05},
        {"c0 + c1*n", {{0, 0}, {1, 0}}, false, 0.05},
        // Parts that stay, shrink and grow at once (needs 4 scales: 3 coefficients).
        {"c0 + c1/n + c2*n", {{0, 0}, {-1, 0}, {1, 0}}, false, 0.05},
    };
    return list;
}

std::string formulaOf(const std::vector<ModelTerm>& function)
{
    std::string s;
    char buf[96];
    for (const ModelTerm& t : function) {
        if (t.i == 0 && t.j == 0)
            std::snprintf(buf, sizeof buf, "%.6g", t.coefficient);
        else if (t.j == 1)
            std::snprintf(buf, sizeof buf, "%.6g*log2(n)", t.coefficient);
        else if (t.i == -1)
            std::snprintf(buf, sizeof buf, "%.6g/n", t.coefficient);
        else if (t.i == 1)
            std::snprintf(buf, sizeof buf, "%.6g*n", t.coefficient);
        else
            std::snprintf(buf, sizeof buf, "%.6g*n^%.4g", t.coefficient, t.i);
        s += (s.empty() ? "" : " + ") + std::string(buf);
    }
    return s;
}

/// Fits `law` to the points; false when the system is singular.
bool fitLaw(const Law& law, std::span<const FitPoint> points, std::vector<ModelTerm>& function)
{
    const Eigen::Index m = Eigen::Index(points.size());
    if (law.power) {
        Eigen::MatrixXd a(m, 2);
        Eigen::VectorXd b(m);
        for (Eigen::Index r = 0; r < m; ++r) {
            a(r, 0) = 1;
            a(r, 1) = std::log(points[size_t(r)].n);
            b(r) = std::log(points[size_t(r)].value);
        }
        const auto x = solveLeastSquares(a, b);
        if (!x) return false;
        function = {{std::exp((*x)(0)), (*x)(1), 0, 0, 0}};
        return true;
    }
    const Eigen::Index k = Eigen::Index(law.terms.size());
    Eigen::MatrixXd a(m, k);
    Eigen::VectorXd b(m);
    for (Eigen::Index r = 0; r < m; ++r) {
        const FitPoint& p = points[size_t(r)];
        for (Eigen::Index c = 0; c < k; ++c)
            a(r, c) =
                powerLog2(p.n, law.terms[size_t(c)].first, law.terms[size_t(c)].second) / p.value;
        b(r) = 1; // relative least squares: (fit - t) / t
    }
    const auto x = solveLeastSquares(a, b);
    if (!x) return false;
    function.clear();
    for (Eigen::Index c = 0; c < k; ++c)
        function.push_back(
            {(*x)(c), law.terms[size_t(c)].first, law.terms[size_t(c)].second, 0, 0});
    return true;
}

/// "" when the model stays positive and monotone from `from` to `to`, else why not. A law whose
/// coefficients are all >= 0 is a sum of parts that each stay, shrink or grow (a fixed part, a
/// part divided among the ranks, a per-rank overhead growing with n): it may have a minimum,
/// which is physics (the rank count beyond which adding ranks costs more than it saves), not a
/// fit to noise; only its positivity is checked.
std::string guard(const CandidateModel& model, double from, double to)
{
    const bool parts = std::all_of(model.function.begin(), model.function.end(),
                                   [](const ModelTerm& t) { return t.coefficient >= 0; });
    constexpr int kChecks = 17;
    double previous = 0;
    int direction = 0;
    for (int i = 0; i < kChecks; ++i) {
        const double n = from + (to - from) * double(i) / double(kChecks - 1);
        const double v = evaluate(model, n);
        if (!(v > 0)) return "goes non-positive before the target";
        if (i > 0) {
            const double step = v - previous;
            const double tolerance = 1e-9 * std::abs(previous);
            const int d = step > tolerance ? 1 : step < -tolerance ? -1 : 0;
            if (!parts && d != 0 && direction != 0 && d != direction)
                return "turns around before the target";
            if (d != 0) direction = d;
        }
        previous = v;
    }
    return "";
}

} // namespace

TypicalPrediction predictTypical(std::span<const FitPoint> points, double target,
                                 const TypicalOptions& options, std::string quantity)
{
    if (points.empty()) throw std::invalid_argument("the typical rank needs at least one scale");
    for (const FitPoint& p : points)
        if (!(p.value > 0) || !(p.n >= 1))
            throw std::invalid_argument("the typical rank needs positive values at scales >= 1");
    TypicalPrediction out;
    out.fit.quantity = std::move(quantity);
    out.fit.points.assign(points.begin(), points.end());
    const double largest = points.back().n;
    const double m = double(points.size());
    double bestLog = -INFINITY;
    std::vector<double> logWeights;
    for (const Law& law : laws()) {
        LawFit f;
        f.name = law.name;
        f.prior = law.prior;
        f.model.name = law.name;
        f.model.terms = law.power ? 2 : int(law.terms.size());
        if (size_t(f.model.terms) >= points.size()) {
            f.why = "as many coefficients as scales: fits anything";
        } else if (!fitLaw(law, points, f.model.function)) {
            f.why = "cannot be fitted to these scales";
        } else {
            f.model.formula = formulaOf(f.model.function);
            f.model.prediction = evaluate(f.model, target);
            f.why = guard(f.model, largest, target);
            f.model.plausible = f.why.empty();
        }
        f.usable = f.why.empty();
        double logWeight = -INFINITY;
        if (f.usable) {
            double chi2 = 0;
            for (const FitPoint& p : points) {
                const double sigma =
                    std::hypot(options.noise, p.noise > 0 ? p.noise / p.value : 0.0);
                const double r = (evaluate(f.model, p.n) - p.value) / (sigma * p.value);
                chi2 += r * r;
            }
            logWeight = std::log(law.prior) - chi2 / 2 - double(f.model.terms) / 2 * std::log(m);
            bestLog = std::max(bestLog, logWeight);
        }
        logWeights.push_back(logWeight);
        out.laws.push_back(std::move(f));
    }
    double total = 0;
    for (size_t i = 0; i < out.laws.size(); ++i)
        if (out.laws[i].usable) total += std::exp(logWeights[i] - bestLog);
    double logMean = 0;
    for (size_t i = 0; i < out.laws.size(); ++i) {
        LawFit& f = out.laws[i];
        if (!f.usable) continue;
        f.weight = std::exp(logWeights[i] - bestLog) / total;
        logMean += f.weight * std::log(f.model.prediction);
    }
    const double doublings = std::max(0.0, std::log2(target / largest));
    double width = options.widthPerDoubling * doublings;
    if (total > 0) {
        out.predicted = std::exp(logMean);
        double spread = 0;
        for (const LawFit& f : out.laws)
            if (f.usable) spread += f.weight * std::pow(std::log(f.model.prediction) - logMean, 2);
        width += std::sqrt(spread);
    } else {
        out.predicted = points.back().value;
        for (const FitPoint& p : points)
            width = std::max(width, std::abs(std::log(p.value / out.predicted)));
    }
    out.low = out.predicted * std::exp(-width);
    out.high = out.predicted * std::exp(width);

    // As a series fit: every law a candidate, the heaviest chosen.
    SeriesFit& s = out.fit;
    for (const LawFit& f : out.laws) {
        CandidateModel c = f.model;
        c.d = 100 * (1 - f.weight);
        s.models.push_back(std::move(c));
        if (f.usable && (s.chosen < 0 || f.weight > out.laws[size_t(s.chosen)].weight))
            s.chosen = int(s.models.size() - 1);
    }
    s.prediction = out.predicted;
    s.low = out.low;
    s.high = out.high;
    return out;
}

} // namespace rankscope::extrap
