#pragma once
// The classic method's histogram extrapolation (ALGORITHMS.md §3.1, §3.3): every recorded value
// of the histograms at the small scales (mean, min, max, and per bin k its lower and upper bound,
// mean and relative frequency) is a series fitted with the four classic models and evaluated at
// the target; the results are clamped into a valid histogram.
//
// Clamping order: negative values to 0 (flagged); frequencies to [0, 1], then renormalised to
// sum 1 (all zero: the mass goes uniformly to every bin); bins in order, each lower bound at
// least the previous bin's upper bound and each upper bound at least its lower bound; bin means
// into their bin; min to at most the first lower bound, max to at least the last upper bound,
// the mean into [min, max].

#include "model/deltas/histogram.h"
#include "whatif/extrap/seriesfit.h"

#include <span>
#include <vector>

namespace rankscope::extrap {

struct ClassicHistogramPrediction
{
    Histogram histogram;
    std::vector<SeriesFit> fits;
    /// The histogram at the largest input scale predicted from the smaller ones (each series'
    /// chosen model refitted without it); valid when hasHeldOut.
    Histogram heldOut;
    bool hasHeldOut = false;
    bool operator==(const ClassicHistogramPrediction&) const = default;
};

/// Extrapolates `histograms` (one per scale, the same bin count, none empty) measured at
/// `scales` to `target`; the predicted histogram holds `count` samples. `spread` (optional,
/// one per scale): the standard deviation of the samples, the noise of the min and max series
/// (and, over sqrt(count), of the mean), which widens their intervals.
ClassicHistogramPrediction extrapolateHistogramClassic(std::span<const double> scales,
                                                       std::span<const Histogram> histograms,
                                                       double target, uint64_t count,
                                                       std::span<const double> spread = {});

} // namespace rankscope::extrap
