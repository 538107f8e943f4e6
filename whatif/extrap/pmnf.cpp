#include "whatif/extrap/pmnf.h"

#include "whatif/extrap/crossvalidation.h"
#include "whatif/extrap/fitinterval.h"
#include "whatif/extrap/leastsquares.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

namespace rankscope::extrap {

namespace {

std::string exponentText(double e)
{
    static const std::pair<double, const char*> names[] = {
        {0.25, "1/4"},    {1.0 / 3, "1/3"}, {0.5, "1/2"},     {2.0 / 3, "2/3"},
        {0.75, "3/4"},    {1.25, "5/4"},    {4.0 / 3, "4/3"}, {1.5, "3/2"},
        {5.0 / 3, "5/3"}, {1.75, "7/4"},    {-0.5, "-1/2"}};
    for (const auto& [v, text] : names)
        if (std::abs(v - e) < 1e-12) return std::string("(") + text + ")";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", e);
    return buf;
}

std::string factor(const char* var, double e, int logPower)
{
    std::string s;
    if (e != 0) s = std::string(var) + (e == 1 ? "" : "^" + exponentText(e));
    if (logPower > 0) {
        if (!s.empty()) s += "*";
        s +=
            std::string("log2(") + var + ")" + (logPower > 1 ? "^" + std::to_string(logPower) : "");
    }
    return s;
}

Eigen::RowVectorXd designRow(const PmnfHypothesis& h, double n, double s)
{
    Eigen::RowVectorXd row(h.coefficients());
    Eigen::Index c = 0;
    if (h.constant) row(c++) = 1;
    for (const PmnfTerm& t : h.terms)
        row(c++) = t(n, s);
    return row;
}

std::string formulaOf(const PmnfHypothesis& h, const Eigen::VectorXd& c)
{
    std::string f;
    char buf[48];
    Eigen::Index k = 0;
    if (h.constant) {
        std::snprintf(buf, sizeof buf, "%.6g", c(k++));
        f = buf;
    }
    for (const PmnfTerm& t : h.terms) {
        std::snprintf(buf, sizeof buf, "%s%.6g*", f.empty() ? "" : " + ", c(k++));
        f += buf + t.text();
    }
    return f;
}

/// The fitted function: c0 (when the hypothesis has it), then one term per hypothesis term.
std::vector<ModelTerm> termsOf(const PmnfHypothesis& h, const Eigen::VectorXd& c)
{
    std::vector<ModelTerm> terms;
    Eigen::Index k = 0;
    if (h.constant) terms.push_back({c(k++), 0, 0, 0, 0});
    for (const PmnfTerm& t : h.terms)
        terms.push_back({c(k++), t.i, t.j, t.k, t.l});
    return terms;
}

} // namespace

double PmnfTerm::operator()(double n, double s) const
{
    double v = powerLog2(n, i, j);
    if (k != 0 || l != 0) v *= powerLog2(s, k, l);
    return v;
}

std::string PmnfTerm::text() const
{
    const std::string a = factor("n", i, j);
    const std::string b = factor("s", k, l);
    if (a.empty() && b.empty()) return "1";
    if (a.empty()) return b;
    return b.empty() ? a : a + "*" + b;
}

std::string PmnfHypothesis::name() const
{
    if (terms.empty()) return "constant";
    if (terms.size() == 1 && terms[0].k == 0 && terms[0].l == 0 && terms[0].j == 0) {
        if (terms[0].i == 1 && constant) return "linear";
        if (terms[0].i == -1) return constant ? "inverse_constant" : "inverse";
    }
    std::string s = constant ? "c0" : "";
    for (size_t t = 0; t < terms.size(); ++t)
        s += (s.empty() ? "c" : " + c") + std::to_string(t + 1) + "*" + terms[t].text();
    return s;
}

const std::vector<double>& pmnfExponents()
{
    static const std::vector<double> e = {0,       0.25, 1.0 / 3, 0.5,  2.0 / 3, 0.75, 1, 1.25,
                                          4.0 / 3, 1.5,  5.0 / 3, 1.75, 2,       -0.5, -1};
    return e;
}

std::vector<PmnfHypothesis> pmnfHypotheses(bool withProblemSize)
{
    std::vector<PmnfTerm> inN, inS;
    for (double i : pmnfExponents())
        for (int j = 0; j <= 2; ++j)
            if (i != 0 || j != 0) {
                inN.push_back({i, j, 0, 0});
                inS.push_back({0, 0, i, j});
            }
    std::vector<PmnfHypothesis> h;
    h.push_back({true, {}});               // constant
    h.push_back({false, {{-1, 0, 0, 0}}}); // classic inverse: k / n
    for (const PmnfTerm& t : inN)
        h.push_back({true, {t}});
    if (withProblemSize) {
        for (const PmnfTerm& g : inS)
            h.push_back({true, {g}});
        for (const PmnfTerm& f : inN)
            for (const PmnfTerm& g : inS) {
                h.push_back({true, {{f.i, f.j, g.k, g.l}}});
                h.push_back({true, {f, g}});
            }
    }
    return h;
}

namespace {

/// A law used to extrapolate stays a time or a count between the largest input scale and the
/// target: it never turns negative there (for samples that are all positive) and never turns
/// around (it is monotone), however well it fits the inputs. Checked at 17 points spaced
/// geometrically from the largest input to the target (ALGORITHMS.md §4, item 7).
bool plausiblePath(const PmnfHypothesis& h, const Eigen::VectorXd& c,
                   std::span<const FitPoint> points, double targetN, double s)
{
    double largest = 0;
    bool allPositive = true;
    for (const FitPoint& p : points) {
        largest = std::max(largest, p.n);
        allPositive = allPositive && p.value > 0;
    }
    if (!(targetN > largest) || !(largest > 0)) return true;
    constexpr int kSteps = 16;
    int direction = 0;
    double previous = 0;
    for (int k = 0; k <= kSteps; ++k) {
        const double n = largest * std::pow(targetN / largest, double(k) / kSteps);
        const double v = designRow(h, n, s).dot(c);
        if (!std::isfinite(v) || (allPositive && v < 0)) return false;
        if (k > 0) {
            const double step = v - previous;
            const double eps = 1e-9 * std::max(std::abs(v), std::abs(previous));
            const int sign = step > eps ? 1 : step < -eps ? -1 : 0;
            if (sign != 0 && direction != 0 && sign != direction) return false;
            if (sign != 0) direction = sign;
        }
        previous = v;
    }
    return true;
}

} // namespace

SeriesFit fitPmnf(std::span<const FitPoint> points, double targetN, double targetS,
                  std::string quantity)
{
    const bool withS = !points.empty() && points.front().s > 0;
    std::set<std::pair<double, double>> distinct;
    std::set<double> scales;
    for (const FitPoint& p : points) {
        if (!(p.n > 0) || !std::isfinite(p.value) || (p.s > 0) != withS || p.s < 0 ||
            !std::isfinite(p.s) || !(p.noise >= 0) || !std::isfinite(p.noise))
            throw std::invalid_argument("scales must be positive, values and noise finite, and "
                                        "the problem size given for every point or none");
        distinct.insert({p.n, p.s});
        scales.insert(p.n);
    }
    if (scales.size() < 3 || distinct.size() != points.size())
        throw std::invalid_argument("the Rankscope method needs samples at 3 or more distinct "
                                    "scales, each (scale, problem size) once (got " +
                                    std::to_string(points.size()) + " samples at " +
                                    std::to_string(scales.size()) + " distinct scales)");
    if (withS && !(targetS > 0))
        throw std::invalid_argument("the points give a problem size: the target needs one too");

    SeriesFit s;
    s.quantity = std::move(quantity);
    s.points.assign(points.begin(), points.end());
    const Eigen::Index m = Eigen::Index(points.size());
    const Eigen::VectorXd y = valuesOf(points);
    const std::vector<bool> held = largestScaleRows(points);
    const bool useLoo = scales.size() >= 4;

    std::vector<std::vector<double>> refits; // per candidate: held-out and LOO fits at the target
    std::vector<double> raw;                 // per candidate: unclamped prediction
    for (const PmnfHypothesis& h : pmnfHypotheses(withS)) {
        Eigen::MatrixXd x(m, h.coefficients());
        for (Eigen::Index r = 0; r < m; ++r)
            x.row(r) = designRow(h, points[size_t(r)].n, points[size_t(r)].s);
        const Eigen::RowVectorXd target = designRow(h, targetN, withS ? targetS : 0);
        if (!target.allFinite()) continue;
        const auto c = solveLeastSquares(x, y);
        if (!c) continue;
        const auto out = holdOut(x, y, held, target);
        if (!out) continue; // cannot be judged on extrapolation
        const auto loo = useLoo ? leaveOneOut(x, y, target) : std::nullopt;
        const double prediction = target.dot(*c);
        if (!std::isfinite(prediction)) continue;
        CandidateModel cm{h.name(), formulaOf(h, *c), out->smape, prediction, h.coefficients()};
        cm.heldOutPct = out->smape;
        cm.function = termsOf(h, *c);
        if (loo) cm.d = (out->smape + loo->smape) / 2;
        cm.plausible = plausiblePrediction(points, prediction) &&
                       plausiblePath(h, *c, points, targetN, withS ? targetS : 0);
        std::vector<double> f = {out->atTarget};
        if (loo) f.insert(f.end(), loo->foldPredictions.begin(), loo->foldPredictions.end());
        s.models.push_back(std::move(cm));
        refits.push_back(std::move(f));
        raw.push_back(out->prediction);
    }

    // Best plausible model per coefficient count (ties to the earlier, simpler exponent), then
    // the guard: more coefficients must be clearly better out of sample, by more than the noise.
    // The constant is the null model (no dependence on the scale) and forms a group of its own:
    // a one-coefficient law such as k / n must beat it clearly too.
    std::map<int, size_t> bestOf;
    for (size_t i = 0; i < s.models.size(); ++i) {
        if (!s.models[i].plausible) continue;
        const int group = s.models[i].name == "constant" ? 0 : s.models[i].terms;
        const auto [it, added] = bestOf.try_emplace(group, i);
        if (!added && s.models[i].d < s.models[it->second].d) it->second = i;
    }
    const double margin = indistinguishableMargin(points);
    for (const auto& [terms, i] : bestOf) {
        if (s.chosen < 0) {
            s.chosen = int(i);
            continue;
        }
        const double current = s.models[size_t(s.chosen)].d;
        const double d = s.models[i].d;
        if (d < current * (1 - kGuardRelative) && current - d >= margin) s.chosen = int(i);
    }
    if (s.chosen < 0) return s; // nothing plausible could be fitted
    const size_t chosen = size_t(s.chosen);
    const double p = s.models[chosen].prediction;
    s.clamped = p < 0;
    s.prediction = std::max(0.0, p);
    s.heldOut = raw[chosen];
    s.hasHeldOut = true;
    setInterval(s, p, refits[chosen]);
    return s;
}

} // namespace rankscope::extrap
