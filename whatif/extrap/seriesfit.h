#pragma once
// The result of fitting one series (samples (n_i, t_i) of one quantity across scales): every
// candidate model with its fitted function, its goodness value, the choice, and the prediction
// with an interval.

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope::extrap {

/// One sample of a series: scale n (ranks), optional problem size s (0: not given), value, and
/// the value's noise: its standard deviation as estimated at that scale from the spread over
/// ranks and loop iterations (0: unknown). The noise bounds how complex a model the series can
/// support and widens the uncertainty interval.
struct FitPoint
{
    double n = 0;
    double s = 0;
    double value = 0;
    double noise = 0;
    bool operator==(const FitPoint&) const = default;
};

/// One term of a fitted function: coefficient * n^i * log2(n)^j * s^k * log2(s)^l, n the scale
/// and s the problem size (k = l = 0: independent of s).
struct ModelTerm
{
    double coefficient = 0;
    double i = 0;
    int j = 0;
    double k = 0;
    int l = 0;
    bool operator==(const ModelTerm&) const = default;
};

/// A candidate model of a series.
struct CandidateModel
{
    std::string name;      ///< classic: constant, linear, inverse, inverse_constant; else a formula
    std::string formula;   ///< the fitted function with its coefficients, for display
    double d = 0;          ///< goodness (classic d1..d4; Rankscope: held-out SMAPE in %)
    double prediction = 0; ///< the model evaluated at the target (unclamped, unrounded)
    int terms = 0;         ///< coefficients fitted (the over-fitting guard prefers fewer)
    /// SMAPE (%) of predicting the largest input scale with this model refitted on the smaller
    /// ones; -1 when too few smaller scales remain for its coefficients.
    double heldOutPct = -1;
    /// false when the model cannot describe the quantity: it predicts a negative value at the
    /// target for a series whose samples are all positive. Never chosen.
    bool plausible = true;
    /// The fitted function itself: the sum of these terms (see evaluate). Every fitter's
    /// function is such a sum: the classic models (a n + c, k / n + c...), the PMNF hypotheses
    /// (c0 + c1 n^i log2(n)^j ...) and the count bases ({1, sqrt n}...). Empty only in a
    /// candidate built by hand.
    std::vector<ModelTerm> function = {};

    bool operator==(const CandidateModel&) const = default;
};

/// x^e * log2(x)^logPower (e = 0: no power of x), the factor of a term in one variable.
double powerLog2(double x, double e, int logPower);

/// The value of `model`'s fitted function at scale n and problem size s: the sum of its terms,
/// as fitted (no clamping to 0, no rounding; those apply to SeriesFit::prediction only). At the
/// target this is the candidate's prediction, up to rounding. s is read only by terms in s
/// (dependsOnProblemSize): for those it must be > 0, else the result is NaN.
double evaluate(const CandidateModel& model, double n, double s = 0);

/// True when some term of `model`'s function depends on the problem size s.
bool dependsOnProblemSize(const CandidateModel& model);

struct SeriesFit
{
    std::string quantity;         ///< what the series is ("mean", "q0.95", "bin 3 lower"...)
    std::vector<FitPoint> points; ///< the input samples
    std::vector<CandidateModel> models;
    int chosen = -1;       ///< index into models; -1 when nothing could be fitted
    double prediction = 0; ///< the chosen model at the target, after clamping
    double low = 0;        ///< uncertainty interval of the prediction
    double high = 0;
    bool clamped = false; ///< a negative prediction was clamped to 0
    /// The chosen model refitted without the largest input scale and evaluated there (how the
    /// choice extrapolates); valid only when hasHeldOut.
    double heldOut = 0;
    bool hasHeldOut = false;

    /// Name of the chosen model ("" when none).
    std::string chosenName() const { return chosen >= 0 ? models[size_t(chosen)].name : ""; }
    bool operator==(const SeriesFit& o) const
    {
        return std::tie(quantity, points, models, chosen, prediction, low, high, clamped, heldOut,
                        hasHeldOut) == std::tie(o.quantity, o.points, o.models, o.chosen,
                                                o.prediction, o.low, o.high, o.clamped, o.heldOut,
                                                o.hasHeldOut);
    }
};

} // namespace rankscope::extrap
