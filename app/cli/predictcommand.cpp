#include "app/cli/predictcommand.h"

#include "app/cli/netsimoptions.h"
#include "app/report/whatifjson.h"
#include "importers/otf2/otf2writer.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/synthcompare.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/scenario/whatifpipeline.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace rankscope::cli {

namespace {

using nlohmann::ordered_json;

ordered_json finite(double v)
{
    return std::isfinite(v) ? ordered_json(v) : ordered_json();
}

ordered_json toJson(const extrap::SynthesisResult& r, const std::string& out)
{
    ordered_json j;
    j["target"] = r.target;
    j["ranks"] = r.trace ? r.trace->rankCount() : 0;
    j["events"] = r.events;
    j["predicted_runtime_ns"] = r.predictedRuntimeNs;
    auto& refused = j["refused"] = ordered_json::array();
    for (const extrap::Refusal& f : r.refused)
        refused.push_back({{"callsite", f.callSite}, {"reason", f.reason}});
    j["method"] = extrap::methodName(r.method);
    j["seed"] = r.seed;
    j["scales"] = r.scales;
    j["placement"] = r.placement;
    auto& roles = j["roles"] = ordered_json::array();
    for (const extrap::SynthesisRoleSummary& s : r.roles)
        roles.push_back({{"name", s.name},
                         {"ranks", s.ranks},
                         {"loop_count", s.loopCount},
                         {"events_per_rank", s.eventsPerRank}});
    j["network"] = r.network;
    j["model"] = r.model;
    if (!r.machineNote.empty()) j["machine_note"] = r.machineNote;
    if (!r.notes.empty()) j["notes"] = r.notes;
    j["warnings"] = r.warnings;
    auto& unruled = j["unruled_intervals"] = ordered_json::array();
    for (const extrap::synth::UnruledInterval& u : r.unruled)
        unruled.push_back(
            {{"interval", u.name}, {"scale", u.scale}, {"share_pct", 100.0 * u.share}});
    j["max_rank_delta_sum_ns"] = {{"predicted", finite(r.predictedMaxRankDeltaSum)},
                                  {"low", finite(r.predictedMaxLow)},
                                  {"high", finite(r.predictedMaxHigh)}};
    if (!out.empty() && r.trace) j["output"] = out;
    return j;
}

void printMeasured(const extrap::StructureMatch& s, int64_t measuredNs, int64_t predictedNs,
                   const std::optional<double>& errorPct)
{
    std::printf("against the measured run: messages per call site off by at most %.3g %% (%llu "
                "predicted, %llu measured), bytes by at most %.3g %%\n",
                s.messagesPct, (unsigned long long)s.predictedMessages,
                (unsigned long long)s.measuredMessages, s.bytesPct);
    std::printf("  collectives %s (%llu predicted, %llu measured); same partners on %.2f %% of "
                "ranks; same event count on %.2f %% of ranks\n",
                s.collectivesEqual ? "equal" : "differ", (unsigned long long)s.predictedCollectives,
                (unsigned long long)s.measuredCollectives, s.partnersEqualRanksPct,
                s.eventsEqualRanksPct);
    if (errorPct)
        std::printf("  run time (end of MPI_Init to end of MPI_Finalize): %s predicted, %s "
                    "measured, error %+.1f %%\n",
                    durationText(predictedNs).c_str(), durationText(measuredNs).c_str(), *errorPct);
}

ordered_json toJson(const whatif::WhatIfCalibration& c)
{
    ordered_json j = calibrationJson(c);
    auto& params = j["parameters"] = ordered_json::array();
    for (const netsim::CalibratedParameter& p : c.parameters)
        params.push_back({{"key", p.key},
                          {"before", p.before},
                          {"after", p.after},
                          {"determined", p.determined},
                          {"samples", p.samples},
                          {"note", p.note}});
    // The keys predict printed before the what-if pipeline, kept for scripts.
    j["replay_error_before_pct"] = c.uncalibratedErrorPct;
    j["replay_error_after_pct"] = c.calibratedErrorPct;
    j["replay_error_applied_pct"] = c.appliedErrorPct;
    std::vector<std::string> keys;
    for (const netsim::SpecOverride& o : c.overrides)
        if (o.key != "mapping") keys.push_back(o.key);
    j["applied_parameters"] = keys;
    j["note"] = c.reason;
    return j;
}

void printCalibration(const whatif::WhatIfCalibration& c)
{
    std::printf("calibrated to %s (%u ranks): its replay %+.1f %% before, %+.1f %% after\n",
                c.source.c_str(), c.sourceRanks, c.uncalibratedErrorPct, c.calibratedErrorPct);
    for (const netsim::CalibratedParameter& p : c.parameters)
        if (p.determined)
            std::printf("  %-26s %s -> %s\n", p.key.c_str(), p.before.c_str(), p.after.c_str());
    std::printf("  target placement: %s\n", c.placement.c_str());
    if (!c.applied) std::printf("  not used: %s\n", c.reason.c_str());
    if (c.partial) std::printf("  used in part: %s\n", c.reason.c_str());
}

void printText(const extrap::SynthesisResult& r, const std::string& out, uint32_t ranks)
{
    (void)ranks;
    std::printf("predicted trace of %u ranks (%s method, seed %llu) from", r.target,
                extrap::methodName(r.method).c_str(), (unsigned long long)r.seed);
    for (uint32_t n : r.scales)
        std::printf(" %u", n);
    std::printf("\nplacement: %s\n", r.placement.c_str());
    for (const extrap::SynthesisRoleSummary& s : r.roles)
        std::printf("  role %-24s %8u ranks, loop body x%llu, %llu events per rank\n",
                    s.name.c_str(), s.ranks, (unsigned long long)s.loopCount,
                    (unsigned long long)s.eventsPerRank);
    std::printf("events: %llu\nmax rank delta sum (extrapolated): %s [%s, %s]\n",
                (unsigned long long)r.events,
                durationText(int64_t(r.predictedMaxRankDeltaSum)).c_str(),
                durationText(int64_t(r.predictedMaxLow)).c_str(),
                durationText(int64_t(r.predictedMaxHigh)).c_str());
    std::printf("predicted run time: %s on %s (model %s)\n",
                durationText(r.predictedRuntimeNs).c_str(), r.network.c_str(), r.model.c_str());
    if (!r.machineNote.empty()) std::printf("note: %s\n", r.machineNote.c_str());
    for (const std::string& n : r.notes)
        std::printf("note: %s\n", n.c_str());
    for (const std::string& w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    if (!out.empty()) std::printf("predicted trace written to %s\n", out.c_str());
}

} // namespace

CLI::App* PredictCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "predict", "Synthesise the trace of a scale that was never run, from traces of one "
                   "program at 3 or more smaller scales, and replay it on a network");
    cmd->add_option("traces", traces_, "OTF2 traces of the same program at small scales")
        ->required();
    cmd->add_option("--target", target_, "The rank count to synthesise")->required();
    networkOption_ = cmd->add_option("--network", network_,
                                     "Network spec (YAML file, or a bundled spec's name); "
                                     "without it, ib-switch calibrated to the largest input")
                         ->capture_default_str();
    cmd->add_option("--set", set_, "Override a spec value, e.g. links.hdr.latency=1us");
    cmd->add_option("--model", model_, "Network model of the replay: loggp, packet or flow")
        ->capture_default_str();
    cmd->add_option("--method", method_, "Timing extrapolation whose distributions are sampled")
        ->check(CLI::IsMember({"classic", "rankscope"}))
        ->capture_default_str();
    cmd->add_option("--seed", seed_, "Seed of the delta-time sampling")->capture_default_str();
    cmd->add_option("--max-events", maxEvents_, "Refuse targets whose trace holds more events")
        ->capture_default_str();
    cmd->add_option("--max-unruled-share", maxUnruledSharePct_,
                    "Refuse when execution intervals seen at fewer than 3 scales (sampled from "
                    "the nearest scale) carry more than this percentage of the computation time")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    cmd->add_flag("--calibrate", calibrate_,
                  "Calibrate the network spec to the largest input trace first (as `calibrate` "
                  "does) and place the target's ranks as the inputs ran (the default without "
                  "--network)");
    cmd->add_flag("--no-calibrate", noCalibrate_,
                  "Replay on the spec as it is, also without --network");
    cmd->add_option("--measured", measured_,
                    "A measured trace at the target scale to compare the prediction with");
    cmd->add_option("-o,--output", out_, "Write the predicted trace (OTF2) to this folder");
    cmd->add_flag("--allow-partial", load_.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(cmd, json_);
    return cmd;
}

int PredictCommand::run() const
{
    if (target_ < 1)
        throw UsageError("--target must be a rank count of at least 1, got " +
                         std::to_string(target_));
    if (target_ > int64_t(extrap::kMaxSynthesisRanks))
        throw UsageError("--target " + std::to_string(target_) +
                         " is beyond what can be "
                         "synthesised (at most " +
                         std::to_string(extrap::kMaxSynthesisRanks) + " ranks)");
    if (traces_.size() < 3)
        throw UsageError("predict needs traces at 3 or more distinct scales, got " +
                         std::to_string(traces_.size()));
    if (calibrate_ && noCalibrate_)
        throw UsageError("--calibrate and --no-calibrate exclude each other");
    // The question as a scale scenario, answered by the what-if pipeline the GUI uses.
    whatif::Scenario s;
    s.name = "predict";
    s.kind = whatif::ScenarioKind::Scale;
    s.baselines = traces_;
    s.network = network_;
    s.model = model_;
    s.target = uint32_t(target_);
    s.method = method_;
    s.seed = seed_;
    // Without a spec named, the question is the inputs' machine: calibrate unless told not to
    // ("auto": a calibration that fails is noted and the spec used as it is).
    const bool byDefault = networkOption_->count() == 0;
    s.calibrate = calibrate_ ? "on" : (noCalibrate_ || !byDefault) ? "off" : "auto";
    s.compareWith = measured_;
    if (!out_.empty()) {
        std::vector<std::string> inputs = traces_;
        if (!measured_.empty()) inputs.push_back(measured_);
        refuseOutputOverInputs("predict -o", out_, inputs, true);
    }
    whatif::WhatIfInputs in;
    in.fileSpec = loadNetworkSpec(network_, set_);
    for (const std::string& path : traces_) {
        in.baselines.push_back(std::make_shared<const Trace>(loadTrace(path, load_)));
        in.names.push_back(path);
    }
    if (!measured_.empty()) {
        in.measured = std::make_shared<const Trace>(loadTrace(measured_, load_));
        in.measuredName = measured_;
        if (in.measured->rankCount() != uint64_t(target_))
            throw TraceError(measured_ + " holds " + std::to_string(in.measured->rankCount()) +
                             " ranks, not the target " + std::to_string(target_) +
                             ": --measured must be a run at the target scale");
    }
    whatif::WhatIfOptions options;
    options.keepTrace = !out_.empty();
    options.waitStates = false;
    options.maxEvents = maxEvents_;
    options.maxUnruledShare = maxUnruledSharePct_ / 100.0;
    whatif::WhatIfResult result;
    try {
        result = whatif::runWhatIf(s, in, options);
    } catch (const whatif::SynthesisRefused& e) {
        extrap::SynthesisResult refused;
        refused.target = uint32_t(target_);
        refused.refused = e.refused;
        if (json_) printJson(toJson(refused, {}));
        std::fprintf(stderr, "rankscope-cli: error: cannot synthesise %u ranks:\n",
                     unsigned(target_));
        // The first reasons say what is wrong; --json lists every one.
        constexpr size_t kShown = 8;
        for (size_t i = 0; i < e.refused.size() && i < kShown; ++i)
            std::fprintf(stderr, "  %s: %s\n",
                         e.refused[i].callSite.empty() ? "roles" : e.refused[i].callSite.c_str(),
                         e.refused[i].reason.c_str());
        if (e.refused.size() > kShown)
            std::fprintf(stderr, "  ... and %zu more (--json lists them all)\n",
                         e.refused.size() - kShown);
        return kBadInput;
    }
    const whatif::WhatIfPoint& point = result.runs.front();
    const extrap::SynthesisResult& r = *point.synthesis;
    if (point.trace && !out_.empty()) {
        if (anyInputPartial()) { // a copy, marked, only when an input was partial
            Trace predicted = *point.trace;
            markIfFromPartial(predicted);
            writeOtf2(predicted, out_);
        } else {
            writeOtf2(*point.trace, out_);
        }
    }
    std::string calibrationNote;
    for (const std::string& n : result.notes)
        if (n.starts_with("the spec was not calibrated")) calibrationNote = n;
    if (json_) {
        ordered_json j = toJson(r, out_);
        j["ranks"] = point.ranks;
        if (!out_.empty()) j["output"] = out_;
        if (result.calibration) j["calibration"] = toJson(*result.calibration);
        if (!calibrationNote.empty()) j["calibration_note"] = calibrationNote;
        if (point.structure && result.measured) {
            j["structure_match"] = structureMatchJson(*point.structure);
            j["runtime_error_pct"] =
                point.errorPct ? ordered_json(*point.errorPct) : ordered_json();
            j["measured_runtime_ns"] = result.measured->runNs;
            j["predicted_span_ns"] = point.predicted.runNs;
        }
        printJson(j);
        return kOk;
    }
    if (result.calibration) printCalibration(*result.calibration);
    if (!calibrationNote.empty()) std::printf("note: %s\n", calibrationNote.c_str());
    printText(r, out_, point.ranks);
    if (point.structure && result.measured)
        printMeasured(*point.structure, result.measured->runNs, point.predicted.runNs,
                      point.errorPct);
    return kOk;
}

} // namespace rankscope::cli
