#pragma once
// The result of fitting one series (samples (n_i, t_i) of one quantity across scales): every
// candidate model with its goodness value, the choice, and the prediction with an interval.

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

/// A candidate model of a series.
struct CandidateModel
{
    std::string name;      ///< classic: constant, linear, inverse, inverse_constant; else a formula
    std::string formula;   ///< the fitted function with its coefficients, for display
    double d = 0;          ///< goodness (classic d1..d4; Rankscope: held-out SMAPE in %)
    double prediction = 0; ///< the model evaluated at the target
    int terms = 0;         ///< coefficients fitted (the over-fitting guard prefers fewer)
    /// SMAPE (%) of predicting the largest input scale with this model refitted on the smaller
    /// ones; -1 when too few smaller scales remain for its coefficients.
    double heldOutPct = -1;
    /// false when the model cannot describe the quantity: it predicts a negative value at the
    /// target for a series whose samples are all positive. Never chosen.
    bool plausible = true;

    bool operator==(const CandidateModel&) const = default;
};

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
