#include "whatif/extrap/classichistogram.h"

#include "whatif/extrap/classicmodels.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace rankscope::extrap {

namespace {

/// The histogram from the predicted values in the order of the fits, clamped as the header says.
Histogram assembleClassicHistogram(const std::vector<double>& v, size_t bins, uint64_t count)
{
    Histogram p;
    p.count = count;
    p.mean = v[0];
    p.min = v[1];
    p.max = v[2];
    p.bins.resize(bins);
    for (size_t b = 0; b < bins; ++b) {
        HistogramBin& bin = p.bins[b];
        bin.lower = v[3 + 4 * b];
        bin.upper = v[4 + 4 * b];
        bin.mean = v[5 + 4 * b];
        bin.frequency = std::clamp(v[6 + 4 * b], 0.0, 1.0);
    }
    double total = 0;
    for (const HistogramBin& bin : p.bins)
        total += bin.frequency;
    for (size_t b = 0; b < bins; ++b) {
        HistogramBin& bin = p.bins[b];
        bin.frequency = total > 0 ? bin.frequency / total : 1.0 / double(bins);
        if (b > 0) bin.lower = std::max(bin.lower, p.bins[b - 1].upper);
        bin.upper = std::max(bin.upper, bin.lower);
        bin.mean = std::clamp(bin.mean, bin.lower, bin.upper);
        bin.count = uint64_t(std::llround(bin.frequency * double(count)));
    }
    p.min = std::min(p.min, p.bins.front().lower);
    p.max = std::max({p.max, p.bins.back().upper, p.min});
    p.mean = std::clamp(p.mean, p.min, p.max);
    fillQuantilesFromBins(p);
    return p;
}

} // namespace

ClassicHistogramPrediction extrapolateHistogramClassic(std::span<const double> scales,
                                                       std::span<const Histogram> histograms,
                                                       double target, uint64_t count,
                                                       std::span<const double> spread)
{
    if (histograms.empty() || histograms.size() != scales.size())
        throw std::invalid_argument("one histogram per scale is needed");
    const size_t bins = histograms.front().bins.size();
    for (const Histogram& h : histograms)
        if (h.bins.size() != bins || h.empty())
            throw std::invalid_argument("histograms must be non-empty with the same bin count");

    ClassicHistogramPrediction out;
    // Fits every value "by kind" across the scales (§3.1), in the order mean, min, max, then per
    // bin lower, upper, mean, frequency; the histogram is assembled from the predictions and,
    // for the held-out check, from the held-out values the same way.
    // `noise(k)`: the noise of the value at scale k (0: unknown).
    const auto fit = [&](const std::string& quantity,
                         const std::function<double(const Histogram&)>& get,
                         const std::function<double(size_t)>& noise = {}) {
        std::vector<FitPoint> points;
        for (size_t k = 0; k < scales.size(); ++k)
            points.push_back({scales[k], 0, get(histograms[k]), noise ? noise(k) : 0.0});
        out.fits.push_back(fitClassic(points, target, quantity));
    };
    const auto sd = [&](size_t k) { return k < spread.size() ? spread[k] : 0.0; };
    fit(
        "mean", [](const Histogram& h) { return h.mean; },
        [&](size_t k) {
            return sd(k) / std::sqrt(double(std::max<uint64_t>(1, histograms[k].count)));
        });
    fit(
        "min", [](const Histogram& h) { return h.min; }, sd);
    fit(
        "max", [](const Histogram& h) { return h.max; }, sd);
    for (size_t b = 0; b < bins; ++b) {
        const std::string k = "bin " + std::to_string(b) + " ";
        fit(k + "lower", [b](const Histogram& h) { return h.bins[b].lower; });
        fit(k + "upper", [b](const Histogram& h) { return h.bins[b].upper; });
        fit(k + "mean", [b](const Histogram& h) { return h.bins[b].mean; });
        fit(k + "frequency", [b](const Histogram& h) { return h.bins[b].frequency; });
    }
    std::vector<double> values, heldOut;
    bool clamped = false;
    out.hasHeldOut = true;
    for (const SeriesFit& f : out.fits) {
        values.push_back(f.prediction); // already clamped to >= 0
        clamped = clamped || f.clamped;
        heldOut.push_back(std::max(0.0, f.heldOut));
        out.hasHeldOut = out.hasHeldOut && f.hasHeldOut;
    }
    out.histogram = assembleClassicHistogram(values, bins, count);
    out.histogram.clamped = clamped;
    if (out.hasHeldOut) out.heldOut = assembleClassicHistogram(heldOut, bins, count);
    return out;
}

} // namespace rankscope::extrap
