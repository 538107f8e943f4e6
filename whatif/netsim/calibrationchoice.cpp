#include "whatif/netsim/calibrationchoice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace rankscope::netsim {

namespace {

struct Combination
{
    std::vector<std::string> keys;
    std::vector<SpecOverride> overrides;
    NetworkSpec spec;
    double errorPct = 0;
};

/// The combination of fitted parameters (at most 2^4: with more, those of the largest samples)
/// whose replay of `source` is nearest its run, when it beats the starting spec.
std::optional<Combination> bestCombination(const Trace& source, const NetworkSpec& spec,
                                           const CalibrationResult& fit,
                                           const SimulationOptions& replay)
{
    std::vector<SpecOverride> always;
    std::vector<const CalibratedParameter*> fitted;
    for (const CalibratedParameter& p : fit.parameters) {
        if (!p.determined || p.after == p.before) continue;
        if (p.key == "mapping")
            always.push_back({p.key, p.after});
        else
            fitted.push_back(&p);
    }
    constexpr size_t kMaxCombined = 4;
    if (fitted.size() > kMaxCombined) {
        std::stable_sort(fitted.begin(), fitted.end(),
                         [](const auto* a, const auto* b) { return a->samples > b->samples; });
        fitted.resize(kMaxCombined);
    }
    std::optional<Combination> best;
    const uint32_t all = (1u << fitted.size()) - 1;
    for (uint32_t mask = 0; mask < all; ++mask) { // `all` is the joint fit, already replayed
        Combination c;
        c.overrides = always;
        for (size_t i = 0; i < fitted.size(); ++i)
            if (mask & (1u << i)) {
                c.overrides.push_back({fitted[i]->key, fitted[i]->after});
                c.keys.push_back(fitted[i]->key);
            }
        if (c.overrides.empty()) continue; // the starting spec itself
        c.spec = spec.withOverrides(c.overrides);
        c.errorPct = replayAgainstMeasured(source, c.spec, replay).errorPct;
        if (!best || std::abs(c.errorPct) < std::abs(best->errorPct)) best = std::move(c);
    }
    if (!best || std::abs(best->errorPct) >= std::abs(fit.before.errorPct)) return std::nullopt;
    return best;
}

std::string joined(const std::vector<std::string>& keys)
{
    std::string out;
    for (const std::string& k : keys)
        out += (out.empty() ? "" : ", ") + k;
    return out.empty() ? std::string("none but the placement") : out;
}

std::string printed(const char* format, double a, double b, const std::string& keys = {},
                    double c = 0)
{
    char buf[400];
    if (keys.empty())
        std::snprintf(buf, sizeof buf, format, a, b);
    else
        std::snprintf(buf, sizeof buf, format, a, b, keys.c_str(), c);
    return buf;
}

} // namespace

CalibrationChoice chooseCalibration(const Trace& source, const NetworkSpec& spec,
                                    const SimulationOptions& replay, CalibrationPlacement placement)
{
    CalibrationChoice c;
    c.fit = calibrate(source, spec, replay, placement);
    c.uncalibratedErrorPct = c.fit.before.errorPct;
    c.calibratedErrorPct = c.fit.after.errorPct;
    c.spec = spec;
    c.appliedErrorPct = c.uncalibratedErrorPct;
    const std::vector<SpecOverride>& all = c.fit.spec.overrides;
    const std::vector<SpecOverride> fitted(
        all.begin() + long(std::min(spec.overrides.size(), all.size())), all.end());
    if (fitted.empty()) {
        c.reason = "the trace determined no parameter that differs from the spec";
        return c;
    }
    if (std::abs(c.calibratedErrorPct) < std::abs(c.uncalibratedErrorPct)) {
        c.applied = true;
        c.overrides = fitted;
        c.spec = c.fit.spec;
        c.appliedErrorPct = c.calibratedErrorPct;
        for (const CalibratedParameter& p : c.fit.parameters)
            if (p.determined && p.key != "mapping" && p.after != p.before)
                c.appliedParameters.push_back(p.key);
        c.reason = printed("the fitted spec replays the trace %+.1f %% from its run, the spec "
                           "itself %+.1f %%: applied",
                           c.calibratedErrorPct, c.uncalibratedErrorPct);
        return c;
    }
    if (std::optional<Combination> best = bestCombination(source, spec, c.fit, replay)) {
        c.applied = true;
        c.partial = true;
        c.overrides = std::move(best->overrides);
        c.appliedParameters = std::move(best->keys);
        c.spec = std::move(best->spec);
        c.appliedErrorPct = best->errorPct;
        c.reason = printed("the fitted spec replays the trace %+.1f %% from its run, the spec "
                           "itself %+.1f %%; the best combination of the fitted parameters (%s) "
                           "replays it %+.1f %% and is applied",
                           c.calibratedErrorPct, c.uncalibratedErrorPct,
                           joined(c.appliedParameters), best->errorPct);
        return c;
    }
    c.reason = printed("not applied: the fitted spec replays the trace %+.1f %% from its run, "
                       "further than the spec itself (%+.1f %%), and no combination of the "
                       "fitted parameters comes nearer",
                       c.calibratedErrorPct, c.uncalibratedErrorPct);
    return c;
}

} // namespace rankscope::netsim
