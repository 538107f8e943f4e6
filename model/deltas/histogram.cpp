#include "model/deltas/histogram.h"

#include "model/deltas/quantilefunction.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rankscope {

namespace {

void checkBins(int bins)
{
    if (bins < 1 || bins > kMaxHistogramBins)
        throw std::invalid_argument("bin count " + std::to_string(bins) + " is not in 1.." +
                                    std::to_string(kMaxHistogramBins));
}

/// Type-7 sample quantile of sorted values at level p.
double sampleQuantile(const std::vector<double>& sorted, double p)
{
    const double h = p * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

} // namespace

Histogram makeHistogram(std::span<const double> samples, int bins)
{
    checkBins(bins);
    Histogram h;
    if (samples.empty()) return h;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    h.count = sorted.size();
    h.min = sorted.front();
    h.max = sorted.back();
    double total = 0;
    for (double x : sorted)
        total += x;
    h.mean = total / double(h.count);

    const double width = (h.max - h.min) / double(bins);
    h.bins.resize(size_t(bins));
    std::vector<double> sums(size_t(bins), 0.0);
    for (int k = 0; k < bins; ++k) {
        h.bins[size_t(k)].lower = h.min + width * k;
        h.bins[size_t(k)].upper = k + 1 == bins ? h.max : h.min + width * (k + 1);
    }
    for (double x : sorted) {
        // The last bin is closed, so x == max lands in it; width 0 puts everything in bin 0.
        size_t k = width > 0 ? size_t((x - h.min) / width) : 0;
        k = std::min(k, size_t(bins - 1));
        ++h.bins[k].count;
        sums[k] += x;
    }
    for (size_t k = 0; k < h.bins.size(); ++k) {
        HistogramBin& b = h.bins[k];
        b.frequency = double(b.count) / double(h.count);
        b.mean = b.count ? sums[k] / double(b.count) : (b.lower + b.upper) / 2;
    }
    h.quantiles.resize(Histogram::kQuantileCount);
    for (int i = 0; i < Histogram::kQuantileCount; ++i)
        h.quantiles[size_t(i)] = sampleQuantile(sorted, Histogram::quantileLevel(i));
    return h;
}

Histogram histogramFromQuantiles(std::span<const double> quantiles, uint64_t count, int bins)
{
    checkBins(bins);
    Histogram h;
    if (quantiles.size() < 2 || count == 0) return h;
    const QuantileFunction q = QuantileFunction::ofEquallySpaced(quantiles);
    h.count = count;
    h.min = q(0);
    h.max = q(1);
    h.mean = q.integral(0, 1);
    const double width = (h.max - h.min) / double(bins);
    double u = 0;
    for (int k = 0; k < bins; ++k) {
        HistogramBin b;
        b.lower = h.min + width * k;
        b.upper = k + 1 == bins ? h.max : h.min + width * (k + 1);
        // Width 0: all the mass is at one value, in bin 0 (as makeHistogram does).
        const double next = width > 0 ? (k + 1 == bins ? 1.0 : q.cdf(b.upper)) : (k == 0 ? 1 : u);
        b.frequency = std::max(0.0, next - u);
        b.count = uint64_t(std::llround(b.frequency * double(count)));
        b.mean = b.frequency > 0 ? q.integral(u, next) / b.frequency : (b.lower + b.upper) / 2;
        u = std::max(u, next);
        h.bins.push_back(b);
    }
    h.quantiles.resize(Histogram::kQuantileCount);
    for (int i = 0; i < Histogram::kQuantileCount; ++i)
        h.quantiles[size_t(i)] = q(Histogram::quantileLevel(i));
    return h;
}

void fillQuantilesFromBins(Histogram& h)
{
    const QuantileFunction q = QuantileFunction::ofHistogram(h);
    h.quantiles.clear();
    if (q.empty()) return;
    for (int i = 0; i < Histogram::kQuantileCount; ++i)
        h.quantiles.push_back(q(Histogram::quantileLevel(i)));
}

double wasserstein1Normalized(const Histogram& predicted, const Histogram& measured)
{
    if (predicted.empty() || measured.empty()) return 0;
    const double w1 = QuantileFunction::l1Distance(QuantileFunction::ofHistogram(predicted),
                                                   QuantileFunction::ofHistogram(measured));
    return measured.mean != 0 ? w1 / std::abs(measured.mean) : w1;
}

} // namespace rankscope
