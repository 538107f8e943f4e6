#include "app/report/whatifjson.h"

#include <cmath>

namespace rankscope {

namespace {

using nlohmann::ordered_json;

template <class T> ordered_json optional(const std::optional<T>& v)
{
    return v ? ordered_json(*v) : ordered_json();
}

ordered_json finite(double v)
{
    return std::isfinite(v) ? ordered_json(v) : ordered_json();
}

ordered_json timesJson(const whatif::RunTimes& t)
{
    return {{"runtime_ns", t.runNs}, {"mpi_ns", t.mpiNs}};
}

ordered_json pointJson(const whatif::WhatIfPoint& p, bool sweep, bool scale)
{
    ordered_json j;
    if (sweep) j["value"] = p.value;
    if (!p.error.empty()) {
        j["error"] = p.error;
        return j;
    }
    if (scale) j["target"] = p.scenario.target;
    j["ranks"] = p.ranks;
    j["runtime_ns"] = p.predicted.runNs;
    j["mpi_ns"] = p.predicted.mpiNs;
    j["wait_ns"] = optional(p.waitNs);
    if (scale && p.baseline) j["baseline"] = timesJson(*p.baseline);
    j["effect_ns"] = optional(p.effectNs);
    j["effect_pct"] = optional(p.effectPct);
    j["mpi_effect_ns"] = optional(p.mpiEffectNs);
    j["error_pct"] = optional(p.errorPct);
    if (p.structure) j["structure_match"] = structureMatchJson(*p.structure);
    return j;
}

ordered_json extrapolationJson(const extrap::ExtrapolationResult& r)
{
    return {{"method", extrap::methodName(r.method)},
            {"mode", extrap::modeName(r.mode)},
            {"max_rank_delta_sum_ns", finite(r.predictedMaxRankDeltaSum)},
            {"low_ns", finite(r.predictedMaxLow)},
            {"high_ns", finite(r.predictedMaxHigh)},
            {"accuracy_pct", optional(r.accuracyPct)},
            {"w1_normalized", optional(r.w1Normalized)},
            {"held_out_error_pct", optional(r.heldOutErrorPct)}};
}

} // namespace

ordered_json structureMatchJson(const extrap::StructureMatch& s)
{
    ordered_json j;
    j["messages_pct"] = s.messagesPct;
    j["bytes_pct"] = s.bytesPct;
    j["collectives_equal"] = s.collectivesEqual;
    j["partners_equal_ranks_pct"] = s.partnersEqualRanksPct;
    j["events_equal_ranks_pct"] = s.eventsEqualRanksPct;
    j["messages"] = {{"predicted", s.predictedMessages}, {"measured", s.measuredMessages}};
    j["bytes"] = {{"predicted", s.predictedBytes}, {"measured", s.measuredBytes}};
    j["collectives"] = {{"predicted", s.predictedCollectives}, {"measured", s.measuredCollectives}};
    j["events"] = {{"predicted", s.predictedEvents}, {"measured", s.measuredEvents}};
    auto& diff = j["differing_callsites"] = ordered_json::array();
    for (const extrap::CallSiteDifference& d : s.differences)
        diff.push_back(
            {{"callsite", d.callSite},
             {"messages", {{"predicted", d.predictedMessages}, {"measured", d.measuredMessages}}},
             {"bytes", {{"predicted", d.predictedBytes}, {"measured", d.measuredBytes}}}});
    return j;
}

ordered_json calibrationJson(const whatif::WhatIfCalibration& c)
{
    ordered_json j;
    j["source"] = c.source;
    j["source_ranks"] = c.sourceRanks;
    j["applied"] = c.applied;
    j["partial"] = c.partial;
    j["uncalibrated_error_pct"] = c.uncalibratedErrorPct;
    j["calibrated_error_pct"] = c.calibratedErrorPct;
    j["applied_error_pct"] = c.appliedErrorPct;
    auto& o = j["overrides"] = ordered_json::array();
    for (const netsim::SpecOverride& x : c.overrides)
        o.push_back(x.key + "=" + x.value);
    if (!c.placement.empty()) j["placement"] = c.placement;
    j["reason"] = c.reason;
    return j;
}

void addInputsJson(ordered_json& j, const std::vector<TraceNotice>& inputs)
{
    auto& list = j["inputs"] = ordered_json::array();
    bool partial = false;
    for (const TraceNotice& n : inputs) {
        list.push_back({{"path", n.path}, {"partial", n.partial}, {"warnings", n.warnings}});
        partial = partial || n.partial;
    }
    if (!j.contains("partial")) j["partial"] = partial;
}

ordered_json whatIfJson(const whatif::WhatIfResult& r)
{
    ordered_json j;
    j["name"] = r.name;
    j["kind"] = whatif::kindName(r.kind);
    if (r.kind == whatif::ScenarioKind::Extrapolate && r.extrapolation) {
        const whatif::WhatIfExtrapolation& e = *r.extrapolation;
        const extrap::ExtrapolationResult* primary = e.primary();
        j["target"] = primary ? primary->target : 0;
        j["method_chosen"] = primary ? extrap::methodName(primary->method) : std::string();
        j["automatic"] = e.autoChosen.has_value();
        if (primary) {
            j["predicted"] = extrapolationJson(*primary);
            j["measured_max_rank_delta_sum_ns"] = optional(primary->measuredMaxRankDeltaSum);
            const extrap::ExtrapolationResult* other =
                primary == (e.rankscope ? &*e.rankscope : nullptr)
                    ? (e.classic ? &*e.classic : nullptr)
                    : (e.rankscope ? &*e.rankscope : nullptr);
            if (other) j["other"] = extrapolationJson(*other);
        }
        j["notes"] = r.notes;
        j["warnings"] = r.warnings;
        addInputsJson(j, r.inputs);
        return j;
    }
    const bool sweep = !r.sweepParam.empty();
    const bool scale = r.kind == whatif::ScenarioKind::Scale;
    j["span"] = r.span;
    j["measured"] = r.measured ? timesJson(*r.measured) : ordered_json();
    if (!scale) {
        j["baseline"] = r.baseline ? timesJson(*r.baseline) : ordered_json();
        if (r.baselineWaitNs) j["baseline"]["wait_ns"] = *r.baselineWaitNs;
        j["calibration_error_pct"] = optional(r.baselineErrorPct);
    }
    j["calibration"] = r.calibration ? calibrationJson(*r.calibration) : ordered_json();
    auto& runs = j["edited"] = ordered_json::array();
    for (const whatif::WhatIfPoint& p : r.runs)
        runs.push_back(pointJson(p, sweep, scale));
    if (sweep) j["sweep_param"] = r.sweepParam;
    if (scale) {
        // The keys `scenario run` printed before the pipeline: kept for scripts.
        const auto legacy = [](const whatif::WhatIfPoint& p) {
            ordered_json x;
            x["target"] = p.scenario.target;
            x["ranks"] = p.ranks;
            x["events"] = p.events;
            x["predicted_runtime_ns"] = p.predicted.runNs;
            return x;
        };
        if (sweep) {
            auto& legacyRuns = j["runs"] = ordered_json::array();
            for (const whatif::WhatIfPoint& p : r.runs) {
                ordered_json x = p.error.empty() ? legacy(p) : ordered_json{{"error", p.error}};
                x["value"] = p.value;
                legacyRuns.push_back(x);
            }
        } else if (!r.runs.empty() && r.runs.front().error.empty()) {
            const ordered_json one = legacy(r.runs.front());
            for (auto it = one.begin(); it != one.end(); ++it)
                j[it.key()] = it.value();
        }
    }
    auto& idle = j["idle_edits"] = ordered_json::array();
    for (const auto& [key, why] : r.idleEdits)
        idle.push_back({{"key", key}, {"reason", why}});
    if (r.peer) {
        const netsim::PeerRun& p = *r.peer;
        j["engines"] = {{"rankscope",
                         {{"model", p.model},
                          {"predicted_runtime_ns", p.rankscopeNs},
                          {"wall_seconds", p.rankscopeWallSeconds}}},
                        {p.engine,
                         {{"predicted_runtime_ns", p.peerNs},
                          {"wall_seconds", p.peerWallSeconds},
                          {"smpirun_seconds", p.peerToolSeconds}}},
                        {"difference_percent", p.differencePercent}};
    } else if (!r.peerError.empty()) {
        j["engines"] = {{"error", r.peerError}};
    }
    j["notes"] = r.notes;
    j["warnings"] = r.warnings;
    addInputsJson(j, r.inputs);
    return j;
}

} // namespace rankscope
