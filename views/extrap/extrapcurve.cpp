#include "views/extrap/extrapcurve.h"

#include "whatif/extrap/classicmodels.h"
#include "whatif/extrap/countmodel.h"
#include "whatif/extrap/pmnf.h"

#include <cmath>
#include <exception>
#include <functional>

namespace rankscope {

using extrap::CandidateModel;
using extrap::FitPoint;
using extrap::SeriesFit;

namespace {

bool same(double a, double b)
{
    return a == b || std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

/// The classic models are exposed as coefficients: evaluate them directly.
std::optional<std::vector<double>> classicCurve(const SeriesFit& fit, const CandidateModel& c,
                                                double target, std::span<const double> ns)
{
    const auto fits = extrap::fitClassicModels(fit.points);
    for (const extrap::ClassicModelFit& f : fits) {
        if (extrap::classicModelName(f.model) != c.name || !same(f(target), c.prediction)) continue;
        std::vector<double> v;
        for (double n : ns)
            v.push_back(f(n));
        return v;
    }
    return std::nullopt;
}

/// PMNF and count fits: refit "at" each n and read the same-named candidate's prediction.
std::optional<std::vector<double>> refitCurve(const CandidateModel& c, double target,
                                              std::span<const double> ns,
                                              const std::function<SeriesFit(double)>& fitAt)
{
    const auto find = [&c](const SeriesFit& s) -> const CandidateModel* {
        for (const CandidateModel& m : s.models)
            if (m.name == c.name && m.formula == c.formula) return &m;
        return nullptr;
    };
    const SeriesFit atTarget = fitAt(target);
    const CandidateModel* t = find(atTarget);
    if (!t || !same(t->prediction, c.prediction)) return std::nullopt;
    std::vector<double> v;
    for (double n : ns) {
        const SeriesFit at = fitAt(n);
        const CandidateModel* m = find(at);
        if (!m) return std::nullopt;
        v.push_back(m->prediction);
    }
    return v;
}

} // namespace

std::optional<std::vector<double>> evaluateCandidate(const SeriesFit& fit, int model, double target,
                                                     std::span<const double> ns)
{
    if (model < 0 || size_t(model) >= fit.models.size()) return std::nullopt;
    for (const FitPoint& p : fit.points)
        if (p.s != 0) return std::nullopt; // problem-size models: no single curve in n
    const CandidateModel& c = fit.models[size_t(model)];
    try {
        if (auto v = classicCurve(fit, c, target, ns)) return v;
        const std::span<const FitPoint> points(fit.points);
        if (auto v = refitCurve(c, target, ns, [&](double n) {
                return extrap::fitPmnf(points, n, 0, fit.quantity);
            }))
            return v;
        return refitCurve(c, target, ns,
                          [&](double n) { return extrap::fitCount(points, n, fit.quantity); });
    } catch (const std::exception&) {
        return std::nullopt; // too few or invalid samples: the fitters refuse
    }
}

} // namespace rankscope
