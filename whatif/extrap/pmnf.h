#pragma once
// The performance-model normal form search of the Rankscope method (ALGORITHMS.md §4.2, after
// Extra-P): t(n) = c0 + c1 * n^i * log2(n)^j over the exponents of §4.2, plus the classic
// models. With a problem size s the hypotheses also include c0 + c1 g(s), c0 + c1 f(n) g(s) and
// c0 + c1 f(n) + c2 g(s), f and g of the same normal form (§4.5).
//
// Selection is by extrapolation error, not fit: each hypothesis is refitted without the largest
// input scale and judged (SMAPE) on predicting it; with 4 or more scales the score d is the mean
// of that and the leave-one-out SMAPE. A hypothesis that predicts a negative value for a series
// of positive samples (a time or count cannot be negative) is implausible and never chosen.
//
// Over-fitting guard: hypotheses are grouped by their number of coefficients, the constant (the
// null model: no dependence on the scale) in a group of its own before the other
// one-coefficient laws. The simplest group's best is taken first; a group with more coefficients
// replaces it only when its best score is lower by at least kGuardRelative (relative) and by a
// margin of kGuardAbsolute percentage points or twice the samples' relative noise in %, whichever
// is larger. With 3-4 scales a two-term model often fits the noise; it must do clearly better than
// the noise.

#include "whatif/extrap/seriesfit.h"

#include <span>
#include <string>
#include <vector>

namespace rankscope::extrap {

/// n^i log2(n)^j s^k log2(s)^l (k = l = 0: independent of s).
struct PmnfTerm
{
    double i = 0;
    int j = 0;
    double k = 0;
    int l = 0;

    double operator()(double n, double s) const;
    std::string text() const;
    bool operator==(const PmnfTerm&) const = default;
};

/// A hypothesis: optional c0 plus one coefficient per term.
struct PmnfHypothesis
{
    bool constant = true;
    std::vector<PmnfTerm> terms;

    int coefficients() const { return int(terms.size()) + (constant ? 1 : 0); }
    /// constant / linear / inverse / inverse_constant where it is a classic model, else the
    /// formula shape ("c0 + c1*n^(1/2)*log2(n)").
    std::string name() const;
    bool operator==(const PmnfHypothesis&) const = default;
};

inline constexpr double kGuardRelative = 0.25;
inline constexpr double kGuardAbsolute = 1.0;

/// The exponents i of §4.2 (j in 0..2).
const std::vector<double>& pmnfExponents();
/// All hypotheses in n (withProblemSize: also those in s and in (n, s)).
std::vector<PmnfHypothesis> pmnfHypotheses(bool withProblemSize);

/// Searches the hypotheses for `points` (at least 3 distinct scales; every s > 0 or every s 0)
/// and predicts at (targetN, targetS). Candidates report their score as d and their held-out
/// SMAPE; low/high as in fitinterval.h. A negative prediction is clamped to 0.
/// Throws std::invalid_argument for too few points or mixed / invalid scales.
SeriesFit fitPmnf(std::span<const FitPoint> points, double targetN, double targetS = 0,
                  std::string quantity = "");

} // namespace rankscope::extrap
