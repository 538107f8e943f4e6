#include "whatif/extrap/synthcalibration.h"

#include "whatif/netsim/traceplacement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace rankscope::extrap {

namespace {

/// When the parameters fitted one at a time replay the source further from its run than the
/// spec does, they may count one effect twice (on a node with more ranks than cores, a send's
/// duration and a message's latency both hold the time a rank waits to be scheduled). Every
/// combination of them (the placement always kept) is replayed on the source; the one nearest
/// its run is returned when it beats the spec's own replay. At most 2^4 combinations: with
/// more fitted parameters only those of the largest samples are combined, the rest left out.
struct PartialFit
{
    std::vector<std::string> keys; ///< the parameters applied
    netsim::NetworkSpec spec;
    double errorPct = 0;
};

std::optional<PartialFit> bestPartialFit(const Trace& source, const netsim::NetworkSpec& spec,
                                         const netsim::CalibrationResult& fit,
                                         const netsim::SimulationOptions& replay)
{
    std::vector<netsim::SpecOverride> always;
    std::vector<const netsim::CalibratedParameter*> fitted;
    for (const netsim::CalibratedParameter& p : fit.parameters) {
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
    std::optional<PartialFit> best;
    const uint32_t all = (1u << fitted.size()) - 1;
    for (uint32_t mask = 0; mask < all; ++mask) { // `all` is the joint fit, already replayed
        PartialFit f;
        std::vector<netsim::SpecOverride> set = always;
        for (size_t i = 0; i < fitted.size(); ++i)
            if (mask & (1u << i)) {
                set.push_back({fitted[i]->key, fitted[i]->after});
                f.keys.push_back(fitted[i]->key);
            }
        f.spec = spec.withOverrides(set);
        f.errorPct = netsim::replayAgainstMeasured(source, f.spec, replay).errorPct;
        if (!best || std::abs(f.errorPct) < std::abs(best->errorPct)) best = std::move(f);
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

} // namespace

ScaleCalibration calibrateForTarget(const std::vector<const Trace*>& traces,
                                    const netsim::NetworkSpec& spec, uint32_t target,
                                    const netsim::SimulationOptions& replay)
{
    ScaleCalibration c;
    for (size_t i = 0; i < traces.size(); ++i)
        if (traces[i]->rankCount() > traces[c.source]->rankCount()) c.source = i;
    const Trace& source = *traces[c.source];
    c.sourceRanks = uint32_t(source.rankCount());
    c.fit = netsim::calibrate(source, spec, replay, netsim::CalibrationPlacement::Trace);

    bool recorded = true, oneNode = true;
    for (const Trace* t : traces) {
        const uint32_t nodes = netsim::recordedNodeCount(*t);
        recorded = recorded && nodes > 0;
        oneNode = oneNode && nodes == 1;
    }
    const uint32_t sourceNodes = netsim::recordedNodeCount(source);
    std::vector<netsim::SpecOverride> placed;
    if (recorded && oneNode) {
        placed = {{"ranks_per_node", std::to_string(target)}, {"mapping", "block"}};
        c.placement = "all " + std::to_string(target) + " ranks on one node, as every input ran";
    } else if (recorded) {
        const uint32_t perNode = (c.sourceRanks + sourceNodes - 1) / sourceNodes;
        placed = {{"ranks_per_node", std::to_string(perNode)}, {"mapping", "block"}};
        c.placement = std::to_string(perNode) + " ranks per node (block), as the " +
                      std::to_string(c.sourceRanks) + "-rank input ran on " +
                      std::to_string(sourceNodes) + " nodes";
    } else {
        if (c.fit.spec.mapping == netsim::RankMapping::Trace) placed = {{"mapping", "block"}};
        c.placement = "as the spec places them (the inputs do not record their compute nodes)";
    }
    // A spec whose node count cannot hold the target is raised later (specForRanks).
    c.applied = std::abs(c.fit.after.errorPct) <= std::abs(c.fit.before.errorPct);
    c.appliedErrorPct = c.fit.after.errorPct;
    std::optional<PartialFit> partial;
    if (!c.applied) partial = bestPartialFit(source, spec, c.fit, replay);
    if (partial) {
        c.applied = true;
        c.partial = true;
        c.appliedParameters = partial->keys;
        c.appliedErrorPct = partial->errorPct;
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "the fitted spec replays the %u-rank input %+.1f %% from its run, the spec "
                      "itself %+.1f %%; the best combination of the fitted parameters (%s) "
                      "replays it %+.1f %% and is applied",
                      c.sourceRanks, c.fit.after.errorPct, c.fit.before.errorPct,
                      joined(partial->keys).c_str(), partial->errorPct);
        c.note = buf;
    } else if (c.applied) {
        for (const netsim::CalibratedParameter& p : c.fit.parameters)
            if (p.determined && p.key != "mapping") c.appliedParameters.push_back(p.key);
    }
    const netsim::NetworkSpec& base = partial ? partial->spec : c.applied ? c.fit.spec : spec;
    if (!c.applied) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "the fitted spec replays the %u-rank input %+.1f %% from its run, the spec "
                      "itself %+.1f %%: the spec's parameters are kept",
                      c.sourceRanks, c.fit.after.errorPct, c.fit.before.errorPct);
        c.note = buf;
        if (spec.mapping == netsim::RankMapping::Trace && !recorded)
            placed.push_back({"mapping", "block"});
    }
    c.spec = placed.empty() ? base : base.withOverrides(placed);
    return c;
}

} // namespace rankscope::extrap
