#include "whatif/extrap/fitinterval.h"

#include "whatif/extrap/crossvalidation.h"
#include "whatif/extrap/pmnf.h"

#include <algorithm>
#include <cmath>

namespace rankscope::extrap {

double indistinguishableMargin(std::span<const FitPoint> points)
{
    return std::max(kGuardAbsolute, 200.0 * relativeNoise(points));
}

void setInterval(SeriesFit& s, double raw, std::span<const double> refits)
{
    double low = raw, high = raw;
    const auto take = [&](double v) {
        if (!std::isfinite(v)) return;
        low = std::min(low, v);
        high = std::max(high, v);
    };
    for (double v : refits)
        take(v);
    if (s.chosen >= 0) {
        const CandidateModel& c = s.models[size_t(s.chosen)];
        const double margin = indistinguishableMargin(s.points);
        if (c.heldOutPct >= 0)
            for (const CandidateModel& m : s.models)
                if (m.plausible && m.heldOutPct >= 0 && m.heldOutPct <= c.heldOutPct + margin)
                    take(m.prediction);
    }
    const double noise = 2 * relativeNoise(s.points) * std::abs(raw);
    s.low = std::max(0.0, low - noise);
    s.high = std::max(0.0, high + noise);
}

} // namespace rankscope::extrap
