#include "whatif/extrap/classichistogram.h"

#include "whatif/extrap/classicmodels.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace rankscope::extrap {

ClassicHistogramPrediction extrapolateHistogramClassic(std::span<const double> scales,
                                                       std::span<const Histogram> histograms,
                                                       double target, uint64_t count)
{
    if (histograms.empty() || histograms.size() != scales.size())
        throw std::invalid_argument("one histogram per scale is needed");
    const size_t bins = histograms.front().bins.size();
    for (const Histogram& h : histograms)
        if (h.bins.size() != bins || h.empty())
            throw std::invalid_argument("histograms must be non-empty with the same bin count");

    ClassicHistogramPrediction out;
    Histogram& p = out.histogram;
    // Fits one value "by kind" across the scales (§3.1); the raw prediction may be negative.
    const auto fit = [&](const std::string& quantity, const std::function<double(const Histogram&)>& get) {
        std::vector<FitPoint> points;
        for (size_t k = 0; k < scales.size(); ++k) points.push_back({scales[k], 0, get(histograms[k])});
        SeriesFit s = fitClassic(points, target, quantity);
        p.clamped = p.clamped || s.clamped;
        const double v = s.prediction;
        out.fits.push_back(std::move(s));
        return v; // already clamped to >= 0
    };
    p.count = count;
    p.mean = fit("mean", [](const Histogram& h) { return h.mean; });
    p.min = fit("min", [](const Histogram& h) { return h.min; });
    p.max = fit("max", [](const Histogram& h) { return h.max; });
    p.bins.resize(bins);
    for (size_t b = 0; b < bins; ++b) {
        const std::string k = "bin " + std::to_string(b) + " ";
        HistogramBin& bin = p.bins[b];
        bin.lower = fit(k + "lower", [b](const Histogram& h) { return h.bins[b].lower; });
        bin.upper = fit(k + "upper", [b](const Histogram& h) { return h.bins[b].upper; });
        bin.mean = fit(k + "mean", [b](const Histogram& h) { return h.bins[b].mean; });
        bin.frequency = std::clamp(
            fit(k + "frequency", [b](const Histogram& h) { return h.bins[b].frequency; }), 0.0, 1.0);
    }

    double total = 0;
    for (const HistogramBin& bin : p.bins) total += bin.frequency;
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
    return out;
}

} // namespace rankscope::extrap
