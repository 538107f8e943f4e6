// The extrapolation kind of the what-if pipeline (whatifpipeline.h): the automatic choice of
// method, then the other method beside it so a view can switch to it (the better-scored classic
// mode when Rankscope won), or the one method asked for.
#include "model/trace/traceerror.h"
#include "whatif/scenario/whatifpipeline.h"

#include <algorithm>
#include <cmath>

namespace rankscope::whatif {

const extrap::ExtrapolationResult* WhatIfExtrapolation::primary() const
{
    const auto of = [this](extrap::Method m) -> const extrap::ExtrapolationResult* {
        const auto& r = m == extrap::Method::Classic ? classic : rankscope;
        return r ? &*r : nullptr;
    };
    if (autoChosen)
        if (const extrap::ExtrapolationResult* r = of(*autoChosen)) return r;
    return rankscope ? &*rankscope : classic ? &*classic : nullptr;
}

WhatIfExtrapolation runExtrapolation(const Scenario& s, const WhatIfInputs& in,
                                     const ProgressCallback& keepGoing, int bins)
{
    std::vector<const Trace*> traces;
    extrap::ExtrapolationOptions o;
    o.target = s.target;
    o.bins = bins;
    for (size_t i = 0; i < in.baselines.size(); ++i) {
        traces.push_back(in.baselines[i].get());
        o.traceNames.push_back(i < in.names.size() && !in.names[i].empty() ? in.names[i]
                                                                           : s.baselines[i]);
    }
    const Trace* measured = in.measured.get();
    const auto run = [&](extrap::Method method, extrap::Mode mode, double from, double to) {
        o.method = method;
        o.mode = mode;
        o.progress = progressSlice(keepGoing, from, to);
        extrap::ExtrapolationResult r = extrap::extrapolate(traces, o, measured);
        if (r.cancelled) throw Cancelled();
        return r;
    };
    const extrap::Mode mode = s.mode == "sum" ? extrap::Mode::Sum : extrap::Mode::Interval;
    WhatIfExtrapolation out;
    try {
        if (s.method == "rankscope") {
            out.rankscope = run(extrap::Method::Rankscope, extrap::Mode::Interval, 0, 1);
        } else if (s.method == "classic") {
            out.classic = run(extrap::Method::Classic, mode, 0, 1);
        } else {
            extrap::ExtrapolationResult best =
                run(extrap::Method::Auto, extrap::Mode::Interval, 0, 0.5);
            out.autoChosen = best.method;
            out.candidates = best.candidates;
            extrap::Mode classicMode = extrap::Mode::Sum;
            double classicError = INFINITY;
            for (const extrap::MethodCandidate& c : best.candidates)
                if (c.method == extrap::Method::Classic &&
                    c.estimate.heldOutErrorPct.value_or(INFINITY) < classicError) {
                    classicError = c.estimate.heldOutErrorPct.value_or(INFINITY);
                    classicMode = c.mode;
                }
            const bool rankscopeWon = best.method == extrap::Method::Rankscope;
            (rankscopeWon ? out.rankscope : out.classic) = std::move(best);
            if (rankscopeWon)
                out.classic = run(extrap::Method::Classic, classicMode, 0.5, 1);
            else
                out.rankscope = run(extrap::Method::Rankscope, extrap::Mode::Interval, 0.5, 1);
        }
    } catch (const std::invalid_argument& e) {
        throw TraceError("scenario '" + s.name + "': " + e.what());
    }
    return out;
}

} // namespace rankscope::whatif
