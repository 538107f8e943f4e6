#include "views/plots/histogramaxis.h"

#include "views/timeline/timemapping.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr double kLinearPad = 0.04; // of the span, each side
constexpr double kLogPad = 1.25;    // factor, each side
constexpr double kEqualWiden = 0.1; // an all-equal range becomes value * (1 +- this)
constexpr double kMinSpanNs = 1.0;  // an all-zero range is shown as [0, 1 ns]

} // namespace

double HistogramAxis::niceStep(double minStep)
{
    minStep = std::max(minStep, 1e-300);
    const double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= minStep * (1 - 1e-12)) return m * decade;
    return 10 * decade;
}

void HistogramAxis::setRange(double lo, double hi, double minPositive, Scale scale)
{
    if (hi < lo) std::swap(lo, hi);
    scale_ = scale;
    clampsZero_ = false;
    if (scale == Scale::Linear) {
        if (hi - lo <= 0) {
            const double pad = std::max(std::abs(lo) * kEqualWiden, kMinSpanNs / 2);
            lower_ = lo - pad;
            upper_ = hi + pad;
        } else {
            const double pad = (hi - lo) * kLinearPad;
            lower_ = lo - pad;
            upper_ = hi + pad;
        }
        // Times are never negative: do not show an empty negative strip.
        if (lo >= 0) lower_ = std::max(0.0, lower_);
        return;
    }
    if (hi <= 0) { // nothing positive at all: an empty decade with 0 at its left edge
        lower_ = 1;
        upper_ = 10;
        clampsZero_ = true;
        return;
    }
    const double smallest = lo > 0 ? lo : (minPositive > 0 ? minPositive : hi);
    clampsZero_ = lo <= 0;
    if (smallest >= hi) { // all equal (positive): a decade around the value
        lower_ = hi / std::sqrt(10.0);
        upper_ = hi * std::sqrt(10.0);
    } else {
        lower_ = smallest / kLogPad;
        upper_ = hi * kLogPad;
    }
    // Zero and below sit at the left edge: leave a decade before the first positive value.
    if (clampsZero_) lower_ = std::min(lower_, smallest / 10);
}

void HistogramAxis::setPixels(double left, double right)
{
    left_ = left;
    right_ = right;
}

double HistogramAxis::position(double value) const
{
    if (scale_ == Scale::Linear) return (value - lower_) / (upper_ - lower_);
    if (value <= lower_) return 0;
    return std::log10(value / lower_) / std::log10(upper_ / lower_);
}

double HistogramAxis::toPixel(double value) const
{
    return left_ + position(value) * (right_ - left_);
}

double HistogramAxis::toValue(double pixel) const
{
    const double f = (right_ - left_) != 0 ? (pixel - left_) / (right_ - left_) : 0;
    if (scale_ == Scale::Linear) return lower_ + f * (upper_ - lower_);
    return lower_ * std::pow(upper_ / lower_, f);
}

std::vector<HistogramAxis::Tick> HistogramAxis::ticks(int minMajorSpacing) const
{
    return scale_ == Scale::Linear ? linearTicks(minMajorSpacing) : logTicks(minMajorSpacing);
}

std::vector<HistogramAxis::Tick> HistogramAxis::linearTicks(int minMajorSpacing) const
{
    std::vector<Tick> out;
    const double width = std::max(1.0, std::abs(right_ - left_));
    const double step = niceStep((upper_ - lower_) * std::max(1, minMajorSpacing) / width);
    const double minor = step / 5;
    // Integer indices: no accumulated rounding error in the tick values.
    const double first = std::ceil(lower_ / minor - 1e-9);
    const double last = std::floor(upper_ / minor + 1e-9);
    if (last - first > 10000) return out;
    for (double k = first; k <= last; ++k) {
        Tick t;
        t.value = k * minor;
        t.major = std::fmod(std::abs(k), 5.0) == 0;
        if (t.major) t.label = TimeMapping::formatTime(t.value, step);
        out.push_back(t);
    }
    return out;
}

std::vector<HistogramAxis::Tick> HistogramAxis::logTicks(int minMajorSpacing) const
{
    std::vector<Tick> out;
    const double width = std::max(1.0, std::abs(right_ - left_));
    const double decades = std::log10(upper_ / lower_);
    const double pixelsPerDecade = width / std::max(decades, 1e-9);
    // Label every decade when there is room, every 2nd, 5th... when crowded; within a narrow
    // range (less than ~2 decades on a wide plot) label the 2x and 5x ticks as well.
    const int every = int(niceStep(std::max(1.0, minMajorSpacing / pixelsPerDecade)));
    const bool labelMultiples = pixelsPerDecade * std::log10(2.0) >= minMajorSpacing;
    const int firstDecade = int(std::floor(std::log10(lower_)));
    const int lastDecade = int(std::ceil(std::log10(upper_)));
    for (int d = firstDecade; d <= lastDecade; ++d) {
        const double base = std::pow(10.0, d);
        for (int m = 1; m <= 9; ++m) {
            const double v = m * base;
            if (v < lower_ * (1 - 1e-12) || v > upper_ * (1 + 1e-12)) continue;
            Tick t;
            t.value = v;
            t.major = m == 1 ? (d % every == 0) : (labelMultiples && (m == 2 || m == 5));
            if (t.major) t.label = TimeMapping::formatTime(v, v);
            out.push_back(t);
        }
    }
    return out;
}

} // namespace rankscope
