#include "model/deltas/quantilefunction.h"

#include "model/deltas/histogram.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

QuantileFunction::QuantileFunction(std::vector<Knot> knots) : knots_(std::move(knots)) {}

QuantileFunction QuantileFunction::ofHistogram(const Histogram& h)
{
    std::vector<Knot> knots;
    double u = 0;
    for (const HistogramBin& b : h.bins) {
        if (b.frequency <= 0) continue;
        if (knots.empty()) knots.push_back({0.0, b.lower});
        // A gap between bins (or an overlap after clamping) is a jump in Q: two knots at one u.
        if (knots.back().x != b.lower) knots.push_back({u, std::max(knots.back().x, b.lower)});
        u = std::min(1.0, u + b.frequency);
        knots.push_back({u, std::max(knots.back().x, b.upper)});
    }
    if (knots.empty()) return {};
    knots.back().u = 1.0; // rounding of the frequencies' sum
    return QuantileFunction(std::move(knots));
}

QuantileFunction QuantileFunction::ofEquallySpaced(std::span<const double> values)
{
    std::vector<Knot> knots;
    if (values.size() < 2) return {};
    const double step = 1.0 / double(values.size() - 1);
    double last = values.front();
    for (size_t i = 0; i < values.size(); ++i) {
        last = std::max(last, values[i]);
        knots.push_back({i + 1 == values.size() ? 1.0 : double(i) * step, last});
    }
    return QuantileFunction(std::move(knots));
}

double QuantileFunction::operator()(double u) const
{
    if (knots_.empty()) return 0;
    u = std::clamp(u, 0.0, 1.0);
    // The last knot at or below u and the first above it.
    const auto hi = std::upper_bound(knots_.begin(), knots_.end(), u,
                                     [](double v, const Knot& k) { return v < k.u; });
    if (hi == knots_.end()) return knots_.back().x;
    if (hi == knots_.begin()) return hi->x;
    const Knot& a = *(hi - 1);
    const Knot& b = *hi;
    return b.u > a.u ? a.x + (b.x - a.x) * (u - a.u) / (b.u - a.u) : b.x;
}

double QuantileFunction::cdf(double x) const
{
    if (knots_.empty() || x < knots_.front().x) return 0;
    if (x >= knots_.back().x) return 1;
    // The last knot with value <= x; the mass up to x lies on its segment.
    const auto hi = std::upper_bound(knots_.begin(), knots_.end(), x,
                                     [](double v, const Knot& k) { return v < k.x; });
    const Knot& a = *(hi - 1);
    const Knot& b = *hi;
    return b.x > a.x ? a.u + (b.u - a.u) * (x - a.x) / (b.x - a.x) : a.u;
}

double QuantileFunction::integral(double a, double b) const
{
    if (knots_.empty() || b <= a) return 0;
    double sum = 0;
    double u = a;
    for (size_t i = 1; i < knots_.size() && u < b; ++i) {
        const double end = std::min(b, knots_[i].u);
        if (end > u) {
            sum += (end - u) * ((*this)(u) + (*this)(end)) / 2;
            u = end;
        }
    }
    return sum;
}

double QuantileFunction::l1Distance(const QuantileFunction& q, const QuantileFunction& r)
{
    if (q.empty() || r.empty()) return 0;
    // Both are linear between the union of their levels; integrate |difference| segment by
    // segment, splitting where it changes sign. Jumps (two knots at one level) take no width.
    std::vector<double> levels;
    for (const Knot& k : q.knots_)
        levels.push_back(k.u);
    for (const Knot& k : r.knots_)
        levels.push_back(k.u);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    double sum = 0;
    const double eps = 1e-15;
    for (size_t i = 1; i < levels.size(); ++i) {
        const double a = levels[i - 1], b = levels[i];
        if (b - a <= eps) continue;
        // Values just inside the segment: a jump at a level belongs to neither side.
        const double da = q(a + eps) - r(a + eps);
        const double db = q(b - eps) - r(b - eps);
        const double w = b - a;
        if (da * db >= 0) {
            sum += w * std::abs(da + db) / 2;
        } else {
            const double t = da / (da - db); // where the difference crosses zero
            sum += w * (t * std::abs(da) + (1 - t) * std::abs(db)) / 2;
        }
    }
    return sum;
}

} // namespace rankscope
