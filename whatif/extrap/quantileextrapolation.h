#pragma once
// Distribution extrapolation (ALGORITHMS.md §4.3): each quantile level q_0.00 .. q_1.00 of a
// quantity across ranks is a series of its own, fitted with the PMNF search; the predicted
// quantiles are made monotone (isotonic least-squares regression, pool-adjacent-violators) so
// they form a quantile function from which the predicted histogram is built. The low and high
// ends of the per-level intervals are made monotone the same way.

#include "whatif/extrap/seriesfit.h"

#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope::extrap {

struct QuantilePrediction
{
    std::vector<double> quantiles; ///< Histogram::kQuantileCount values, ascending, >= 0
    std::vector<double> low;
    std::vector<double> high;
    std::vector<SeriesFit> fits; ///< one per level, quantity "q0.95" etc.
    /// The quantiles at the largest input scale predicted from the smaller ones (monotone);
    /// empty when a level has no held-out value.
    std::vector<double> heldOut;

    bool operator==(const QuantilePrediction& o) const
    {
        return std::tie(quantiles, low, high, fits, heldOut) ==
               std::tie(o.quantiles, o.low, o.high, o.fits, o.heldOut);
    }
};

/// The closest non-decreasing sequence in the least-squares sense (pool adjacent violators).
std::vector<double> monotoneRegression(std::vector<double> values);

/// Extrapolates the quantiles `perScale[k]` (kQuantileCount values each) measured at
/// `scales[k]` to `target`. `prefix` names the fits ("" gives "q0.95").
QuantilePrediction extrapolateQuantiles(std::span<const double> scales,
                                        const std::vector<std::vector<double>>& perScale,
                                        double target, const std::string& prefix = "");

} // namespace rankscope::extrap
