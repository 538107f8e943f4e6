#include "app/cli/calibratecommand.h"

#include "app/cli/netsimoptions.h"
#include "model/analysis/runspan.h"
#include "model/support/atomicfile.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/calibrationchoice.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

nlohmann::ordered_json replayJson(const netsim::CalibrationReplay& r)
{
    return {{"measured_runtime_ns", r.measuredNs},
            {"predicted_runtime_ns", r.predictedNs},
            {"error_pct", r.errorPct},
            {"max_rank_mpi_error_pct", r.maxRankMpiErrorPct},
            {"ranks_mpi_within_20_pct", r.ranksMpiWithin20Pct}};
}

} // namespace

CLI::App* CalibrateCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "calibrate", "Fit a network spec's latencies, bandwidths and overheads to a trace");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--network", network_, "Network spec (YAML file, or a bundled spec's name)")
        ->required();
    cmd->add_option("--set", set_, "Override a spec value first, e.g. links.hdr.latency=1us");
    cmd->add_option("--model", model_, "Network model of the before/after replays")
        ->capture_default_str();
    cmd->add_option("--placement", placement_,
                    "trace: place ranks on the compute nodes the trace recorded (mapping: "
                    "trace, when it records them); spec: keep the spec's mapping; auto: trace "
                    "unless ranks sharing a node also send to other nodes")
        ->check(CLI::IsMember({"auto", "trace", "spec"}))
        ->capture_default_str();
    cmd->add_option("-o,--output", out_, "Write the calibrated spec (YAML) to this file");
    addOutputFormats(cmd, json_);
    return cmd;
}

int CalibrateCommand::run() const
{
    const netsim::NetworkSpec spec = loadNetworkSpec(network_, set_);
    if (!out_.empty()) refuseOutputOverInputs("calibrate -o", out_, {trace_});
    const Trace trace = loadTrace(trace_, load_);
    netsim::SimulationOptions options;
    options.model = model_;
    // Whether the fit is used is decided where every other caller decides it.
    const netsim::CalibrationChoice choice =
        netsim::chooseCalibration(trace, spec, options,
                                  placement_ == "trace"  ? netsim::CalibrationPlacement::Trace
                                  : placement_ == "spec" ? netsim::CalibrationPlacement::Spec
                                                         : netsim::CalibrationPlacement::Auto);
    const netsim::CalibrationResult& r = choice.fit;
    if (!out_.empty()) {
        std::string text;
        if (choice.applied)
            text = "# " + spec.name + " calibrated to " + trace_ + " (rankscope-cli calibrate" +
                   (choice.partial ? ", in part" : "") + "): " + choice.reason + "\n";
        else
            text = "# " + spec.name + " as given: the calibration to " + trace_ +
                   " (rankscope-cli calibrate) was " + choice.reason + "\n";
        writeFileAtomically(out_, text + choice.spec.effectiveYaml() + '\n',
                            choice.applied ? "the calibrated spec" : "the spec");
    }
    if (json_) {
        nlohmann::ordered_json j;
        auto& params = j["parameters"] = nlohmann::ordered_json::array();
        for (const netsim::CalibratedParameter& p : r.parameters) {
            nlohmann::ordered_json o = {{"key", p.key},
                                        {"before", p.before},
                                        {"after", p.after},
                                        {"determined", p.determined},
                                        {"samples", p.samples}};
            o["rel_std_error"] =
                p.relStdError ? nlohmann::ordered_json(*p.relStdError) : nlohmann::ordered_json();
            o["note"] = p.note;
            params.push_back(o);
        }
        j["replay_error_before_pct"] = r.before.errorPct;
        j["replay_error_after_pct"] = r.after.errorPct;
        j["applied"] = choice.applied;
        j["partial"] = choice.partial;
        j["uncalibrated_error_pct"] = choice.uncalibratedErrorPct;
        j["calibrated_error_pct"] = choice.calibratedErrorPct;
        j["applied_error_pct"] = choice.appliedErrorPct;
        auto& applied = j["applied_overrides"] = nlohmann::ordered_json::array();
        for (const netsim::SpecOverride& o : choice.overrides)
            applied.push_back(o.key + "=" + o.value);
        j["reason"] = choice.reason;
        j["span"] = runSpan(trace).name();
        j["before"] = replayJson(r.before);
        j["after"] = replayJson(r.after);
        j["transfer_samples"] = r.transferSamples;
        j["skipped_transfers"] = r.skippedTransfers;
        if (!out_.empty()) j["output"] = out_;
        printJson(j);
        return kOk;
    }
    std::printf("%-28s %-14s %-14s %-4s %8s %s\n", "parameter", "before", "after", "fit", "samples",
                "quality / note");
    for (const netsim::CalibratedParameter& p : r.parameters) {
        std::string quality = p.note;
        if (p.relStdError) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "rel. std. error %.1f%%; ", 100 * *p.relStdError);
            quality = buf + quality;
        }
        std::printf("%-28s %-14s %-14s %-4s %8llu %s\n", p.key.c_str(), p.before.c_str(),
                    p.after.c_str(), p.determined ? "yes" : "no", (unsigned long long)p.samples,
                    quality.c_str());
    }
    auto line = [](const char* what, const netsim::CalibrationReplay& x, size_t ranks) {
        std::printf("%s: replay %s vs measured %s (%+.1f%%); MPI time per rank: max error "
                    "%.1f%%, %u of %zu ranks within 20%%\n",
                    what, durationText(x.predictedNs).c_str(), durationText(x.measuredNs).c_str(),
                    x.errorPct, x.maxRankMpiErrorPct, x.ranksMpiWithin20Pct, ranks);
    };
    std::printf("span: %s; %llu messages fitted, %llu on routes of mixed link classes left out\n",
                runSpan(trace).name().c_str(), (unsigned long long)r.transferSamples,
                (unsigned long long)r.skippedTransfers);
    line("before", r.before, trace.rankCount());
    line("after ", r.after, trace.rankCount());
    std::printf("%s: %s\n",
                choice.applied ? (choice.partial ? "applied in part" : "applied") : "not applied",
                choice.reason.c_str());
    if (!out_.empty())
        std::printf("%s written to %s\n",
                    choice.applied ? "calibrated spec" : "the spec as given (not calibrated)",
                    out_.c_str());
    return kOk;
}

} // namespace rankscope::cli
