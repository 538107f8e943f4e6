#pragma once
// The visible time window of a timeline and its mapping to pixels: zoom around an anchor, pan,
// fit, clamping to the run, and "nice" axis ticks (1-2-5 steps from ns to hours, labelled with
// a unit that suits the step). Plain value type: several views can share one by copying it on
// every change (coupled zoom and pan).

#include <QString>
#include <utility>
#include <vector>

namespace rankscope {

class TimeMapping
{
public:
    struct Tick
    {
        double ns = 0;
        bool major = false;
        QString label; ///< empty for minor ticks
        bool operator==(const Tick&) const = default;
    };

    /// The whole run; the visible window is kept inside it (with a small margin).
    void setLimits(double beginNs, double endNs);
    void setWidth(int pixels);
    /// Shows [beginNs, endNs), clamped to the limits and to a smallest span of kMinSpanNs.
    void setVisible(double beginNs, double endNs);
    void fit(); ///< shows the whole run

    double begin() const { return begin_; }
    double end() const { return end_; }
    double span() const { return end_ - begin_; }
    int width() const { return width_; }
    double nsPerPixel() const;
    double toPixel(double ns) const;
    double toTime(double pixel) const;

    /// factor > 1 zooms in, keeping the time under `anchorPixel` where it is.
    void zoom(double factor, double anchorPixel);
    /// Moves the window by `pixels` (positive: later times come into view).
    void pan(double pixels);

    /// Ticks for the visible window, major ticks at least `minMajorSpacing` pixels apart. When
    /// absolute labels would need more than kMaxLabelDigits significant digits (deep zoom far
    /// into a run), majors are labelled as offsets from labelBase() ("+200 ns").
    std::vector<Tick> ticks(int minMajorSpacing = 90) const;
    /// The time the major labels are offsets from (a multiple of the major step at or before
    /// the window's start), or 0 when they are absolute times.
    double labelBase(int minMajorSpacing = 90) const;
    static constexpr int kMaxLabelDigits = 5;
    /// "1.5 ms", "20 us", "3 s": a duration in the unit that suits `stepNs`.
    static QString formatTime(double ns, double stepNs);

    static constexpr double kMinSpanNs = 100.0;

    bool operator==(const TimeMapping&) const = default;

private:
    /// The 1-2-5 x 10^k major step (whole ns) and its minor divisions.
    std::pair<double, int> majorStep(int minMajorSpacing) const;

    double limitBegin_ = 0;
    double limitEnd_ = 1;
    double begin_ = 0;
    double end_ = 1;
    int width_ = 1;
};

} // namespace rankscope
