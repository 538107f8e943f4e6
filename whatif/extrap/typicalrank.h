#pragma once
// The typical rank's computation at the target scale (ALGORITHMS.md §4.1): the median over ranks
// of S(r), predicted by a short list of laws averaged by how well each explains the inputs
// relative to their noise, rather than by switching to whichever law happens to fit three points
// best.
//
// - The laws, in order of plausibility for strong-scaling computation, with prior weights:
//   c0 + c1/n (a serial and a parallel part), c1/n, c1 n^a (any power), c0 + c1 log2 n, c0,
//   c1/n + c2 n (a per-rank overhead growing with n), c0 + c1 n, c0 + c1/n + c2 n.
// - Each law is fitted by relative least squares (the power law in log space). A law with as many
//   coefficients as there are scales fits any data exactly and says nothing: it is skipped.
// - A law is never used when it goes non-positive anywhere between the largest input and the
//   target (17 points checked), nor when it turns around there (rises then falls, or the
//   reverse) unless all its coefficients are >= 0: such a law is a sum of parts that stay, shrink
//   and grow, and its minimum is the program's (the generated stencils' c0 + c1/n + c2 n has it
//   between their inputs and their target); a turn made by a negative coefficient is a fit to
//   noise.
// - Weights are Bayesian with the noise as scale: w = prior * exp(-chi^2 / 2) * m^(-k/2), with
//   chi^2 = sum((fit_i - t_i) / (sigma t_i))^2 over the m scales, k the law's coefficients (the
//   m^(-k/2) factor is the Bayesian information criterion's penalty) and sigma the relative noise:
//   `TypicalOptions::noise` combined with the median's own standard error at each scale.
// - The prediction is the weighted geometric mean of the usable laws' predictions (positive by
//   construction). Its interval spans the weighted spread of those predictions in log space plus
//   `widthPerDoubling` for every doubling from the largest input to the target.

#include "whatif/extrap/seriesfit.h"

#include <span>
#include <string>
#include <vector>

namespace rankscope::extrap {

/// The constants of the typical-rank prediction. Their defaults were chosen across every real
/// multi-scale set by leave-one-program-out (bench/extrap prints that selection and its
/// left-out figures); change them only with a run of it.
struct TypicalOptions
{
    /// Relative noise of a per-scale median of S(r) (machine drift between runs).
    double noise = 0.2;
    /// Half-width in log space added to the interval per doubling from the largest input.
    double widthPerDoubling = 1.0;
};

/// One law of the list, fitted to the series.
struct LawFit
{
    std::string name;     ///< "c0 + c1/n"...
    CandidateModel model; ///< the fitted function (name, formula, terms, prediction)
    double prior = 0;
    double weight = 0; ///< posterior weight, summing to 1 over the usable laws
    bool usable = false;
    std::string why; ///< why a law is not usable ("" when it is)
    bool operator==(const LawFit&) const = default;
};

struct TypicalPrediction
{
    double predicted = 0; ///< at the target
    double low = 0;
    double high = 0;
    std::vector<LawFit> laws; ///< every law of the list, in list order
    /// The same as a SeriesFit (laws as candidates, d = 100 x (1 - weight), the heaviest law
    /// chosen, prediction = the average), for the views that show series.
    SeriesFit fit;
    bool operator==(const TypicalPrediction&) const = default;
};

/// Predicts the series `points` (values > 0 at distinct scales n >= 1; noise: the absolute
/// standard error of each value, may be 0) at `target` (> the largest n). With fewer than two
/// scales, or when no law is usable, the last value is carried forward and the interval spans
/// the values seen. Throws std::invalid_argument for an empty series or a non-positive value.
TypicalPrediction predictTypical(std::span<const FitPoint> points, double target,
                                 const TypicalOptions& options = {},
                                 std::string quantity = "S(r) median");

} // namespace rankscope::extrap
