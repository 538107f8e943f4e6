#include "views/timeline/timemapping.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

// The window may reach this fraction of the run beyond either end, so the first and last
// events are not glued to the plot's edges.
constexpr double kMarginFraction = 0.01;

struct Unit
{
    double ns;
    const char* name;
};
constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};

} // namespace

void TimeMapping::setLimits(double beginNs, double endNs)
{
    if (endNs < beginNs) std::swap(beginNs, endNs);
    limitBegin_ = beginNs;
    limitEnd_ = std::max(endNs, beginNs + kMinSpanNs);
    setVisible(begin_, end_);
}

void TimeMapping::setWidth(int pixels)
{
    width_ = std::max(1, pixels);
}

void TimeMapping::setVisible(double beginNs, double endNs)
{
    if (endNs < beginNs) std::swap(beginNs, endNs);
    const double margin = (limitEnd_ - limitBegin_) * kMarginFraction;
    const double lo = limitBegin_ - margin;
    const double hi = limitEnd_ + margin;
    const double span = std::clamp(endNs - beginNs, kMinSpanNs, hi - lo);
    // Keep the window's centre where asked when the span had to grow or shrink.
    double b = span == endNs - beginNs ? beginNs : (beginNs + endNs - span) / 2;
    b = std::clamp(b, lo, hi - span);
    begin_ = b;
    end_ = b + span;
}

void TimeMapping::fit()
{
    const double margin = (limitEnd_ - limitBegin_) * kMarginFraction;
    setVisible(limitBegin_ - margin, limitEnd_ + margin);
}

double TimeMapping::nsPerPixel() const
{
    return span() / width_;
}

double TimeMapping::toPixel(double ns) const
{
    return (ns - begin_) / nsPerPixel();
}

double TimeMapping::toTime(double pixel) const
{
    return begin_ + pixel * nsPerPixel();
}

void TimeMapping::zoom(double factor, double anchorPixel)
{
    if (!(factor > 0)) return;
    const double anchor = toTime(anchorPixel);
    const double span = std::max(this->span() / factor, kMinSpanNs);
    const double b = anchor - anchorPixel * span / width_;
    setVisible(b, b + span);
}

void TimeMapping::pan(double pixels)
{
    const double delta = pixels * nsPerPixel();
    setVisible(begin_ + delta, end_ + delta);
}

std::pair<double, int> TimeMapping::majorStep(int minMajorSpacing) const
{
    const double minStep = std::max(1.0, std::max(1, minMajorSpacing) * nsPerPixel());
    // Smallest 1-2-5 x 10^k step (in whole ns) not below minStep.
    double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (;;) {
        if (decade >= minStep) return {decade, 5};
        if (2 * decade >= minStep) return {2 * decade, 4};
        if (5 * decade >= minStep) return {5 * decade, 5};
        decade *= 10;
    }
}

double TimeMapping::labelBase(int minMajorSpacing) const
{
    const double step = majorStep(minMajorSpacing).first;
    const double mag = std::max(std::abs(begin_), std::abs(end_));
    // Significant digits an absolute label needs: those of the magnitude down to the step's.
    if (mag < step * std::pow(10.0, kMaxLabelDigits - 1)) return 0;
    return std::floor(begin_ / step) * step;
}

std::vector<TimeMapping::Tick> TimeMapping::ticks(int minMajorSpacing) const
{
    std::vector<Tick> out;
    const auto [step, minorDivisions] = majorStep(minMajorSpacing);
    const double base = labelBase(minMajorSpacing);
    const double minor = step / minorDivisions;
    // Integer tick indices avoid accumulating floating-point error over long runs.
    const double first = std::ceil(begin_ / minor);
    const double last = std::floor(end_ / minor);
    if (last - first > 100000) return out; // degenerate width; never happens with sane input
    for (double k = first; k <= last; ++k) {
        Tick t;
        t.ns = k * minor;
        t.major = std::fmod(std::abs(k), double(minorDivisions)) == 0;
        if (t.major)
            t.label = base == 0 ? formatTime(t.ns, step)
                                : QStringLiteral("+") + formatTime(t.ns - base, step);
        out.push_back(std::move(t));
    }
    return out;
}

QString TimeMapping::formatTime(double ns, double stepNs)
{
    const double mag = std::abs(ns);
    if (mag < 0.5) return QStringLiteral("0");
    stepNs = std::max(std::abs(stepNs), 1.0);
    // The unit follows the value's magnitude ("1.2001 s", "300 us"); the decimals follow the
    // step, so neighbouring labels differ in their last digit and no more digits are shown.
    const Unit* unit = &kUnits[3];
    for (const Unit& u : kUnits) {
        if (mag >= u.ns) {
            unit = &u;
            break;
        }
    }
    int decimals = int(std::ceil(std::log10(unit->ns / stepNs) - 1e-9));
    decimals = std::clamp(decimals, 0, 9);
    return QString::number(ns / unit->ns, 'f', decimals) + QLatin1Char(' ') +
           QLatin1String(unit->name);
}

} // namespace rankscope
