#pragma once
// Values of a fitted candidate model at other scales than the target, for drawing its curve.
//
// Every fitter stores the function it fitted in the candidate (CandidateModel::function); the
// curve evaluates that function (extrap::evaluate) at each scale, unclamped, as the fitter
// predicted the target. Nothing is refitted, so the curve is the candidate's own model even
// when the samples are gone. The one kind that has no curve in n alone is a model with terms in
// the problem size s: the fit does not record the target's s, so the caller gets nothing and
// says so.

#include "whatif/extrap/seriesfit.h"

#include <optional>
#include <span>
#include <vector>

namespace rankscope {

/// Candidate `model` of `fit` evaluated at every `ns`; nullopt when `model` is out of range, its
/// function depends on the problem size, or it carries no function (a candidate built by hand).
std::optional<std::vector<double>> evaluateCandidate(const extrap::SeriesFit& fit, int model,
                                                     std::span<const double> ns);

} // namespace rankscope
