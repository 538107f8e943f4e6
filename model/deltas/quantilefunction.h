#pragma once
// A piecewise-linear quantile function u -> x on [0, 1], the common form in which histograms
// (uniform within each bin) and fitted quantiles are compared and integrated.

#include <span>
#include <vector>

namespace rankscope {

struct Histogram;

class QuantileFunction
{
public:
    struct Knot
    {
        double u; ///< probability level, non-decreasing from 0 to 1
        double x; ///< value, non-decreasing
    };

    QuantileFunction() = default;
    /// Knots must start at u = 0, end at u = 1, and be non-decreasing in u and x.
    explicit QuantileFunction(std::vector<Knot> knots);
    /// The quantile function of `h` read as uniform within each bin (empty bins skipped).
    static QuantileFunction ofHistogram(const Histogram& h);
    /// Values at equally spaced levels 0, 1/(k-1), ..., 1 (k >= 2).
    static QuantileFunction ofEquallySpaced(std::span<const double> values);

    bool empty() const { return knots_.empty(); }
    /// Q(u) for u in [0, 1].
    double operator()(double u) const;
    /// The inverse, F(x): the probability mass at or below x.
    double cdf(double x) const;
    /// The integral of Q(u) over [a, b] (b - a times the mean of the values in that range).
    double integral(double a, double b) const;
    /// The integral of |Q(u) - R(u)| over [0, 1], computed exactly (both piecewise linear).
    static double l1Distance(const QuantileFunction& q, const QuantileFunction& r);

    const std::vector<Knot>& knots() const { return knots_; }

private:
    std::vector<Knot> knots_;
};

} // namespace rankscope
