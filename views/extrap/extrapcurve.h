#pragma once
// Values of a fitted candidate model at other scales than the target, for drawing its curve.
//
// A CandidateModel carries its formula only as display text; rather than parse it, the curve
// re-runs the engine's own public fitter (classic models, PMNF search, count model) on the same
// samples and takes the candidate of the same name. That is accepted only when it reproduces
// the stored candidate exactly at the target (same prediction; same formula text where the
// fitter reports it), so a curve is never drawn for a model it does not belong to. Otherwise
// the caller gets nothing and says so.

#include "whatif/extrap/seriesfit.h"

#include <optional>
#include <span>
#include <vector>

namespace rankscope {

/// Candidate `model` of `fit` evaluated at every `ns`; nullopt when it cannot be reproduced.
std::optional<std::vector<double>> evaluateCandidate(const extrap::SeriesFit& fit, int model,
                                                     double target, std::span<const double> ns);

} // namespace rankscope
