#include "app/cli/predictcommand.h"

#include "app/cli/netsimoptions.h"
#include "importers/otf2/otf2writer.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/synthcalibration.h"
#include "whatif/extrap/synthcompare.h"
#include "whatif/extrap/synthesis.h"

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

/// The predicted trace against a run at the target scale.
struct Measured
{
    extrap::StructureMatch match;
    std::optional<int64_t> measuredNs, predictedNs;
    std::optional<double> errorPct() const
    {
        if (!measuredNs || !predictedNs || *measuredNs <= 0) return std::nullopt;
        return 100.0 * double(*predictedNs - *measuredNs) / double(*measuredNs);
    }
};

ordered_json toJson(const Measured& m)
{
    const extrap::StructureMatch& s = m.match;
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

void printMeasured(const Measured& m)
{
    const extrap::StructureMatch& s = m.match;
    std::printf("against the measured run: messages per call site off by at most %.3g %% (%llu "
                "predicted, %llu measured), bytes by at most %.3g %%\n",
                s.messagesPct, (unsigned long long)s.predictedMessages,
                (unsigned long long)s.measuredMessages, s.bytesPct);
    std::printf("  collectives %s (%llu predicted, %llu measured); same partners on %.2f %% of "
                "ranks; same event count on %.2f %% of ranks\n",
                s.collectivesEqual ? "equal" : "differ", (unsigned long long)s.predictedCollectives,
                (unsigned long long)s.measuredCollectives, s.partnersEqualRanksPct,
                s.eventsEqualRanksPct);
    if (const auto e = m.errorPct())
        std::printf("  run time (end of MPI_Init to end of MPI_Finalize): %s predicted, %s "
                    "measured, error %+.1f %%\n",
                    durationText(*m.predictedNs).c_str(), durationText(*m.measuredNs).c_str(), *e);
}

ordered_json toJson(const extrap::ScaleCalibration& c, const std::string& source)
{
    ordered_json j;
    j["source"] = source;
    j["source_ranks"] = c.sourceRanks;
    j["placement"] = c.placement;
    auto& params = j["parameters"] = ordered_json::array();
    for (const netsim::CalibratedParameter& p : c.fit.parameters)
        params.push_back({{"key", p.key},
                          {"before", p.before},
                          {"after", p.after},
                          {"determined", p.determined},
                          {"samples", p.samples},
                          {"note", p.note}});
    j["replay_error_before_pct"] = c.fit.before.errorPct;
    j["replay_error_after_pct"] = c.fit.after.errorPct;
    j["applied"] = c.applied;
    j["applied_parameters"] = c.appliedParameters;
    j["replay_error_applied_pct"] = c.applied ? c.appliedErrorPct : c.fit.before.errorPct;
    if (!c.note.empty()) j["note"] = c.note;
    return j;
}

void printCalibration(const extrap::ScaleCalibration& c, const std::string& source)
{
    std::printf("calibrated to %s (%u ranks): its replay %+.1f %% before, %+.1f %% after\n",
                source.c_str(), c.sourceRanks, c.fit.before.errorPct, c.fit.after.errorPct);
    for (const netsim::CalibratedParameter& p : c.fit.parameters)
        if (p.determined)
            std::printf("  %-26s %s -> %s\n", p.key.c_str(), p.before.c_str(), p.after.c_str());
    std::printf("  target placement: %s\n", c.placement.c_str());
    if (!c.applied) std::printf("  not used: %s\n", c.note.c_str());
    if (c.partial) std::printf("  used in part: %s\n", c.note.c_str());
}

void printText(const extrap::SynthesisResult& r, const std::string& out)
{
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
    const netsim::NetworkSpec spec = loadNetworkSpec(network_, set_);

    std::vector<std::unique_ptr<Trace>> owned;
    std::vector<const Trace*> traces;
    for (const std::string& path : traces_) {
        owned.push_back(std::make_unique<Trace>(loadTrace(path, load_)));
        traces.push_back(owned.back().get());
    }
    extrap::SynthesisOptions options;
    options.target = uint32_t(target_);
    options.method = method_ == "classic" ? extrap::Method::Classic : extrap::Method::Rankscope;
    options.seed = seed_;
    options.maxEvents = maxEvents_;
    options.maxUnruledShare = maxUnruledSharePct_ / 100.0;
    options.traceNames = traces_;
    extrap::ReplayChoice replay;
    replay.model = model_;
    std::unique_ptr<Trace> measuredTrace;
    if (!measured_.empty()) {
        measuredTrace = std::make_unique<Trace>(loadTrace(measured_, load_));
        if (measuredTrace->rankCount() != uint64_t(target_))
            throw TraceError(measured_ + " holds " + std::to_string(measuredTrace->rankCount()) +
                             " ranks, not the target " + std::to_string(target_) +
                             ": --measured must be a run at the target scale");
    }
    if (calibrate_ && noCalibrate_)
        throw UsageError("--calibrate and --no-calibrate exclude each other");
    // Without a spec named, the question is the inputs' machine: calibrate unless told not to.
    const bool byDefault = !calibrate_ && !noCalibrate_ && networkOption_->count() == 0;
    std::optional<extrap::ScaleCalibration> calibration;
    std::string calibrationNote;
    if (calibrate_ || byDefault) {
        netsim::SimulationOptions fitReplay;
        fitReplay.model = model_;
        try {
            calibration = extrap::calibrateForTarget(traces, spec, uint32_t(target_), fitReplay);
        } catch (const TraceError& e) {
            if (!byDefault) throw;
            calibrationNote = std::string("the spec was not calibrated to the inputs (") +
                              e.what() + "); the replay uses it as it is";
        }
    }
    const extrap::SynthesisResult r =
        extrap::synthesise(traces, calibration ? calibration->spec : spec, options, replay);
    const std::string calibrationSource = calibration ? traces_[calibration->source] : "";
    if (r.trace && !out_.empty()) writeOtf2(*r.trace, out_);
    std::optional<Measured> measured;
    if (r.trace && measuredTrace) {
        measured =
            Measured{extrap::compareStructure(*r.trace, *measuredTrace, measured_),
                     extrap::initToFinalizeNs(*measuredTrace), extrap::initToFinalizeNs(*r.trace)};
    }
    if (json_) {
        ordered_json j = toJson(r, out_);
        if (calibration) j["calibration"] = toJson(*calibration, calibrationSource);
        if (!calibrationNote.empty()) j["calibration_note"] = calibrationNote;
        if (measured) {
            j["structure_match"] = toJson(*measured);
            j["runtime_error_pct"] =
                measured->errorPct() ? ordered_json(*measured->errorPct()) : ordered_json();
            j["measured_runtime_ns"] =
                measured->measuredNs ? ordered_json(*measured->measuredNs) : ordered_json();
            j["predicted_span_ns"] =
                measured->predictedNs ? ordered_json(*measured->predictedNs) : ordered_json();
        }
        printJson(j);
    }
    if (!r.refused.empty()) {
        std::fprintf(stderr, "rankscope-cli: error: cannot synthesise %u ranks:\n", r.target);
        // The first reasons say what is wrong; --json lists every one.
        constexpr size_t kShown = 8;
        for (size_t i = 0; i < r.refused.size() && i < kShown; ++i)
            std::fprintf(stderr, "  %s: %s\n",
                         r.refused[i].callSite.empty() ? "roles" : r.refused[i].callSite.c_str(),
                         r.refused[i].reason.c_str());
        if (r.refused.size() > kShown)
            std::fprintf(stderr, "  ... and %zu more (--json lists them all)\n",
                         r.refused.size() - kShown);
        return kBadInput;
    }
    if (!json_) {
        if (calibration) printCalibration(*calibration, calibrationSource);
        if (!calibrationNote.empty()) std::printf("note: %s\n", calibrationNote.c_str());
        printText(r, out_);
        if (measured) printMeasured(*measured);
    }
    return kOk;
}

} // namespace rankscope::cli
