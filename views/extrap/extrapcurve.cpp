#include "views/extrap/extrapcurve.h"

namespace rankscope {

std::optional<std::vector<double>> evaluateCandidate(const extrap::SeriesFit& fit, int model,
                                                     std::span<const double> ns)
{
    if (model < 0 || size_t(model) >= fit.models.size()) return std::nullopt;
    const extrap::CandidateModel& c = fit.models[size_t(model)];
    // A model in (n, s) has a curve in n only at a given s, and the fit keeps no target s.
    if (c.function.empty() || extrap::dependsOnProblemSize(c)) return std::nullopt;
    std::vector<double> v;
    v.reserve(ns.size());
    for (double n : ns)
        v.push_back(extrap::evaluate(c, n));
    return v;
}

} // namespace rankscope
