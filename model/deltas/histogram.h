#pragma once
// Histograms of delta times or per-rank sums (ALGORITHMS.md §2), their quantiles, and the
// normalised 1-Wasserstein shape distance of §3.5.
//
// A histogram is read as a distribution by spreading each bin's frequency uniformly over
// [lower, upper] (a piecewise-linear CDF). Quantiles of a predicted histogram and the W1
// distance between two histograms both use that reading, so a measured histogram (built from
// samples) and a predicted one (built from fitted bins or a fitted quantile function) are
// compared the same way.

#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

namespace rankscope {

/// One bin: [lower, upper) (the last bin is closed).
struct HistogramBin
{
    double lower = 0;
    double upper = 0;
    uint64_t count = 0;
    double frequency = 0; ///< relative frequency in [0, 1]; the bins' frequencies sum to 1
    double mean = 0;      ///< mean of the samples in the bin (bin centre when empty)

    bool operator==(const HistogramBin&) const = default;
};

struct Histogram
{
    /// Quantile levels 0.00, 0.05, ..., 1.00.
    static constexpr int kQuantileCount = 21;
    /// The level of quantile `i` (i * 0.05).
    static double quantileLevel(int i) { return double(i) / double(kQuantileCount - 1); }

    std::vector<HistogramBin> bins;
    uint64_t count = 0; ///< samples (ranks, for per-rank sums)
    double mean = 0;
    double min = 0;
    double max = 0;
    std::vector<double> quantiles; ///< kQuantileCount values, ascending; empty when count is 0
    bool clamped = false;          ///< a predicted negative value was clamped to 0 (§3.3)

    bool empty() const { return count == 0; }
    bool operator==(const Histogram& o) const
    {
        return std::tie(bins, count, mean, min, max, quantiles, clamped) ==
               std::tie(o.bins, o.count, o.mean, o.min, o.max, o.quantiles, o.clamped);
    }
};

/// Largest bin count accepted anywhere (a typo should not allocate millions of bins).
inline constexpr int kMaxHistogramBins = 10000;

/// The histogram of `samples` with `bins` equal-width bins between min and max (§2). Quantiles
/// are exact sample quantiles (linear interpolation between order statistics, "type 7").
/// All samples equal: every bin has zero width at that value and bin 0 holds them all.
/// Throws std::invalid_argument for bins < 1 or > kMaxHistogramBins.
Histogram makeHistogram(std::span<const double> samples, int bins = 20);

/// A histogram of `count` samples drawn from the quantile function given by `quantiles`
/// (values at the kQuantileCount levels, ascending; linear in between): `bins` equal-width bins
/// between the first and last quantile, each bin's frequency the probability mass it holds.
Histogram histogramFromQuantiles(std::span<const double> quantiles, uint64_t count, int bins = 20);

/// Fills `h.quantiles` (and nothing else) from its bins, read as uniform within each bin.
void fillQuantilesFromBins(Histogram& h);

/// The 1-Wasserstein distance between the two histograms (each read as uniform within its
/// bins; computed exactly as the integral of |Q_p(u) - Q_m(u)| over u in [0, 1]) divided by the
/// measured mean. 0 when either histogram is empty; when the measured mean is 0 the distance
/// is returned in the samples' own unit (not divided).
double wasserstein1Normalized(const Histogram& predicted, const Histogram& measured);

} // namespace rankscope
