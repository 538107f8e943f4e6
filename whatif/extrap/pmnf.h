#pragma once
// The performance-model normal form search of the Rankscope method (ALGORITHMS.md §4.2, after
// Extra-P): t(n) = c0 + c1 * n^i * log2(n)^j over the exponents of §4.2, plus the classic
// models, chosen by leave-one-out SMAPE with an over-fitting guard. With a problem size s the
// hypotheses also include c0 + c1 g(s), c0 + c1 f(n) g(s) and c0 + c1 f(n) + c2 g(s), f and g
// of the same normal form (§4.5).
//
// Over-fitting guard: hypotheses are grouped by their number of coefficients. The simplest
// group's best is taken first; a group with more coefficients replaces it only when its best
// cross-validated SMAPE is lower by at least kGuardRelative (relative) and kGuardAbsolute
// (percentage points). With 3-4 scales, noise alone often makes a two-term model look slightly
// better than a constant; it must look clearly better.

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

/// Searches the hypotheses for `points` (at least 3 distinct points; every s > 0 or every s 0)
/// and predicts at (targetN, targetS). Candidates report their LOO SMAPE as d; low/high span
/// the prediction and every fold's prediction of the chosen model. Negative clamped to 0.
/// Throws std::invalid_argument for too few points or mixed / invalid scales.
SeriesFit fitPmnf(std::span<const FitPoint> points, double targetN, double targetS = 0,
                  std::string quantity = "");

} // namespace rankscope::extrap
