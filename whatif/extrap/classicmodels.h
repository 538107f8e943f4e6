#pragma once
// The four models of the classic method (ALGORITHMS.md §3.2), each fitted with its goodness
// value d exactly as written there, and the selection (smallest d, ties to the lower number).
//
// Decisions where §3.2 is silent:
// - The outlier is removed even when m = 3 (two samples remain; their sample sd is defined).
//   Among equal largest deviations the sample of the smallest n is removed.
// - d = sd / |c| (and sqrt(residual) / |average|): a negative mean must not make d negative and
//   so "better" than every other model.
// - When the denominator is 0: d = 0 if the numerator is 0 too (all samples 0: a perfect fit),
//   else d = +infinity (the model is never chosen unless every model is infinite; printed as
//   "inf" and as JSON null, never NaN). |x| <= 1e-12 * max |sample| counts as 0 here, so the
//   rounding noise of an exact fit does not decide between 0 and infinity.
// - Ties: a later model wins only when its d is smaller by more than 1e-12 relative, so
//   rounding noise in an exact fit (d1 = 0 against d2 = 1e-17) still counts as a tie.

#include "whatif/extrap/seriesfit.h"

#include <array>
#include <span>
#include <string>

namespace rankscope::extrap {

enum class ClassicModel
{
    Constant = 0,   ///< (1) t = c
    Linear,         ///< (2) t = a n + b
    Inverse,        ///< (3) t = k / n
    InverseConstant ///< (4) t = k / n + c
};

/// constant, linear, inverse, inverse_constant.
std::string classicModelName(ClassicModel model);

/// One fitted classic model: t(n) = a * n + b / n + c (unused coefficients 0).
struct ClassicModelFit
{
    ClassicModel model = ClassicModel::Constant;
    double a = 0;
    double b = 0;
    double c = 0;
    double d = 0; ///< goodness (smaller is better), may be +infinity

    double operator()(double n) const { return a * n + b / n + c; }
    bool operator==(const ClassicModelFit&) const = default;
};

/// Fits the four models to `points` (at least 3 distinct n > 0, else std::invalid_argument).
std::array<ClassicModelFit, 4> fitClassicModels(std::span<const FitPoint> points);

/// The index of the chosen model: smallest d, ties to the lower-numbered model.
int selectClassicModel(const std::array<ClassicModelFit, 4>& fits);

/// Fits, selects (exactly as §3.2) and predicts at `target`; a negative prediction is clamped
/// to 0 and flagged. Beyond §3.2 every candidate is also judged on predicting the largest scale
/// from the smaller ones (its shape refitted by least squares), which gives the held-out value
/// and, with the other plausible models, the uncertainty interval (fitinterval.h).
SeriesFit fitClassic(std::span<const FitPoint> points, double target, std::string quantity = "");

} // namespace rankscope::extrap
