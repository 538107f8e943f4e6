#pragma once
// The result of fitting one series (samples (n_i, t_i) of one quantity across scales): every
// candidate model with its goodness value, the choice, and the prediction with an interval.

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope::extrap {

/// One sample of a series: scale n (ranks), optional problem size s (0: not given), value.
struct FitPoint
{
    double n = 0;
    double s = 0;
    double value = 0;
    bool operator==(const FitPoint&) const = default;
};

/// A candidate model of a series.
struct CandidateModel
{
    std::string name;     ///< classic: constant, linear, inverse, inverse_constant; else a formula
    std::string formula;  ///< the fitted function with its coefficients, for display
    double d = 0;         ///< goodness (classic d1..d4; Rankscope: leave-one-out SMAPE in %)
    double prediction = 0; ///< the model evaluated at the target
    int terms = 0;        ///< coefficients fitted (the over-fitting guard prefers fewer)

    bool operator==(const CandidateModel&) const = default;
};

struct SeriesFit
{
    std::string quantity;             ///< what the series is ("mean", "q0.95", "bin 3 lower"...)
    std::vector<FitPoint> points;     ///< the input samples
    std::vector<CandidateModel> models;
    int chosen = -1;                  ///< index into models; -1 when nothing could be fitted
    double prediction = 0;            ///< the chosen model at the target, after clamping
    double low = 0;                   ///< uncertainty interval of the prediction
    double high = 0;
    bool clamped = false;             ///< a negative prediction was clamped to 0

    /// Name of the chosen model ("" when none).
    std::string chosenName() const { return chosen >= 0 ? models[size_t(chosen)].name : ""; }
    bool operator==(const SeriesFit& o) const
    {
        return std::tie(quantity, points, models, chosen, prediction, low, high, clamped) ==
               std::tie(o.quantity, o.points, o.models, o.chosen, o.prediction, o.low, o.high,
                        o.clamped);
    }
};

} // namespace rankscope::extrap
