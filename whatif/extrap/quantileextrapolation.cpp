#include "whatif/extrap/quantileextrapolation.h"

#include "model/deltas/histogram.h"
#include "whatif/extrap/pmnf.h"

#include <algorithm>
#include <cstdio>

namespace rankscope::extrap {

std::vector<double> monotoneRegression(std::vector<double> values)
{
    // Blocks of pooled values (mean, size); merge backwards while a block is below its left one.
    std::vector<std::pair<double, size_t>> blocks;
    for (double v : values) {
        blocks.push_back({v, 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].first > blocks.back().first) {
            const auto [m2, s2] = blocks.back();
            blocks.pop_back();
            auto& [m1, s1] = blocks.back();
            m1 = (m1 * double(s1) + m2 * double(s2)) / double(s1 + s2);
            s1 += s2;
        }
    }
    values.clear();
    for (const auto& [m, s] : blocks)
        values.insert(values.end(), s, m);
    return values;
}

QuantilePrediction extrapolateQuantiles(std::span<const double> scales,
                                        const std::vector<std::vector<double>>& perScale,
                                        double target, const std::string& prefix)
{
    QuantilePrediction q;
    bool held = true;
    for (int level = 0; level < Histogram::kQuantileCount; ++level) {
        std::vector<FitPoint> points;
        for (size_t k = 0; k < scales.size(); ++k)
            points.push_back({scales[k], 0, perScale[k][size_t(level)]});
        char name[32];
        std::snprintf(name, sizeof name, "q%.2f", Histogram::quantileLevel(level));
        SeriesFit fit = fitPmnf(points, target, 0, prefix + name);
        q.quantiles.push_back(fit.prediction);
        q.low.push_back(fit.low);
        q.high.push_back(fit.high);
        q.heldOut.push_back(std::max(0.0, fit.heldOut));
        held = held && fit.hasHeldOut;
        q.fits.push_back(std::move(fit));
    }
    if (held)
        q.heldOut = monotoneRegression(std::move(q.heldOut));
    else
        q.heldOut.clear();
    q.quantiles = monotoneRegression(std::move(q.quantiles));
    q.low = monotoneRegression(std::move(q.low));
    q.high = monotoneRegression(std::move(q.high));
    // The interval must still contain the (pooled) prediction.
    for (size_t i = 0; i < q.quantiles.size(); ++i) {
        q.low[i] = std::min(q.low[i], q.quantiles[i]);
        q.high[i] = std::max(q.high[i], q.quantiles[i]);
    }
    return q;
}

} // namespace rankscope::extrap
