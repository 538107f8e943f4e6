#pragma once
// The value axis of a histogram plot: data range -> displayed range -> pixels, linear or log10,
// with readable ticks in time units. Plain value type, no widget, so tests check the mapping.
//
// Log scale and non-positive values: log10 has no place for 0, so the displayed range starts at
// a positive floor (a decade below the smallest positive value) and every value at or below it
// is drawn at the left edge; the painter marks that edge as "0" with an axis break. An all-equal
// (zero-width) range is widened around its value on both scales so it stays visible.

#include <QString>
#include <vector>

namespace rankscope {

class HistogramAxis
{
public:
    enum class Scale
    {
        Linear,
        Log
    };
    struct Tick
    {
        double value = 0;
        bool major = false;
        QString label; ///< empty for minor ticks
    };

    /// The data lie in [lo, hi]; `minPositive` is the smallest value > 0 among them (0: none).
    void setRange(double lo, double hi, double minPositive, Scale scale);
    /// The pixel columns of the displayed range's ends.
    void setPixels(double left, double right);

    Scale scale() const { return scale_; }
    double lower() const { return lower_; } ///< displayed range (log: > 0)
    double upper() const { return upper_; }
    /// True on a log axis whose data reach 0 or below (drawn at the left edge).
    bool clampsZero() const { return clampsZero_; }

    /// Pixel of `value`; on a log axis values <= lower() map to the left end.
    double toPixel(double value) const;
    double toValue(double pixel) const;
    /// Ticks inside the displayed range; labelled ones at least `minMajorSpacing` pixels apart.
    std::vector<Tick> ticks(int minMajorSpacing = 80) const;

    /// The smallest 1-2-5 x 10^k step not below `minStep` (> 0).
    static double niceStep(double minStep);

private:
    double position(double value) const; // 0..1 across the displayed range
    std::vector<Tick> linearTicks(int minMajorSpacing) const;
    std::vector<Tick> logTicks(int minMajorSpacing) const;

    Scale scale_ = Scale::Linear;
    double lower_ = 0;
    double upper_ = 1;
    double left_ = 0;
    double right_ = 1;
    bool clampsZero_ = false;
};

} // namespace rankscope
