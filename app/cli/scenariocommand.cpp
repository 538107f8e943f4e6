#include "app/cli/scenariocommand.h"

#include "app/cli/netsimoptions.h"
#include "importers/simgrid/simgridengine.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/scenarioexec.h"
#include "whatif/scenario/scenariorun.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

using nlohmann::ordered_json;

ordered_json timesJson(const whatif::RunTimes& t)
{
    return {{"runtime_ns", t.runNs}, {"mpi_ns", t.mpiNs}};
}

ordered_json optional(const std::optional<double>& v)
{
    return v ? ordered_json(*v) : ordered_json();
}

std::string signedDuration(int64_t ns)
{
    return (ns < 0 ? "-" : "+") + durationText(ns < 0 ? -ns : ns);
}

/// A replay scenario with `engine: simgrid`: its edited replay by both engines, as the what-if
/// panel runs it (importers/simgrid/simgridengine.h). Prints the comparison, or returns it as
/// JSON when `json`.
ordered_json runEngines(const whatif::Scenario& s, const Trace& trace,
                        const netsim::NetworkSpec& fileSpec, const std::string& file, bool json)
{
    bench::SimGridEngineRequest request;
    request.spec = fileSpec.withOverrides(whatif::allOverrides(s));
    request.options.model = s.model;
    request.options.collectiveAlgorithms = s.collectives;
    request.options.cpuFactor = s.cpuFactor;
    request.source = s.baselines.front();
    bench::SimGridEngineResult r;
    try {
        r = bench::runSimGridEngine(trace, request);
    } catch (const bench::SimGridUnavailable& e) {
        throw TraceError(file + ": scenario '" + s.name + "' has engine: simgrid, but " + e.what());
    }
    if (!r.placementNote.empty())
        std::fprintf(stderr, "rankscope-cli: note: %s\n", r.placementNote.c_str());
    if (!json) {
        std::printf("  engines, on the edited spec:\n");
        std::printf("  %-22s %12s   wall-clock %.3f s\n", ("rankscope (" + r.model + ")").c_str(),
                    durationText(r.rankscopeNs).c_str(), r.rankscopeWallSeconds);
        std::printf("  %-22s %12s   wall-clock %.3f s (smpirun %.3f s)\n", "simgrid (smpirun)",
                    durationText(r.simgridNs).c_str(), r.simgridWallSeconds(), r.smpirunSeconds);
        std::printf("  difference: simgrid %+.2f %% against rankscope\n", r.differencePercent);
        return {};
    }
    ordered_json j;
    j["rankscope"] = {{"model", r.model},
                      {"predicted_runtime_ns", r.rankscopeNs},
                      {"wall_seconds", r.rankscopeWallSeconds}};
    j["simgrid"] = {{"predicted_runtime_ns", r.simgridNs},
                    {"wall_seconds", r.simgridWallSeconds()},
                    {"smpirun_seconds", r.smpirunSeconds}};
    j["difference_percent"] = r.differencePercent;
    return j;
}

} // namespace

CLI::App* ScenarioCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand("scenario", "Run saved what-if scenarios");
    cmd->require_subcommand(1);
    run_ = cmd->add_subcommand(
        "run", "Run the scenarios of a scenario or session file: for a replay the measured "
               "run, the baseline replay, the edited replay and the effect of the edit; for a "
               "scale scenario the synthesised run's predicted run time");
    run_->add_option("file", file_, "Scenario file (YAML), or a session file")->required();
    run_->add_flag("--allow-partial", load_.allowPartial,
                   "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(run_, json_);
    return cmd;
}

void ScenarioCommand::runScale(const whatif::Scenario& s, ordered_json& all) const
{
    // The same engine call as the GUI's what-if job (whatif/scenario/scenarioexec.h); a sweep
    // runs one synthesis per value, as the GUI's sweep points do.
    whatif::ScenarioInputs in;
    in.fileSpec = loadNetworkSpec(s.network, {});
    for (const std::string& path : s.baselines) {
        in.traces.push_back(std::make_shared<const Trace>(loadTrace(path, load_)));
        in.names.push_back(path);
    }
    std::vector<std::pair<std::string, whatif::Scenario>> points;
    if (s.sweepParam.empty()) {
        points.push_back({"", s});
    } else {
        for (size_t i = 0; i < s.sweepValues.size(); ++i)
            points.push_back({s.sweepValues[i], whatif::sweepPoint(s, i)});
    }
    ordered_json j;
    j["name"] = s.name;
    j["kind"] = "scale";
    if (!json_) std::printf("scenario: %s\n  %s\n", s.name.c_str(), whatif::describe(s).c_str());
    auto& runs = j["runs"] = ordered_json::array();
    for (const auto& [value, p] : points) {
        const whatif::ScenarioRunResult r = whatif::runScenario(p, in);
        for (const std::string& n : r.notes)
            std::fprintf(stderr, "rankscope-cli: note: %s\n", n.c_str());
        ordered_json run;
        if (!value.empty()) run["value"] = value;
        run["target"] = p.target;
        run["ranks"] = r.trace->rankCount();
        run["events"] = r.trace->eventCount();
        run["predicted_runtime_ns"] = r.runtimeNs;
        runs.push_back(run);
        if (json_) continue;
        const std::string label = value.empty() ? std::string() : s.sweepParam + "=" + value + ": ";
        std::printf("  %spredicted run time %s at %u ranks (%llu events)\n", label.c_str(),
                    durationText(double(r.runtimeNs)).c_str(), unsigned(r.trace->rankCount()),
                    (unsigned long long)r.trace->eventCount());
    }
    if (s.sweepParam.empty()) {
        // One run: its figures at the top level (copied first: inserting into j may move runs).
        const ordered_json one = runs.front();
        j.erase("runs");
        for (const auto& [key, v] : one.items())
            j[key] = v;
    } else {
        j["sweep_param"] = s.sweepParam;
    }
    if (json_) all.push_back(j);
}

int ScenarioCommand::run() const
{
    const std::vector<whatif::Scenario> scenarios = whatif::readScenarioFile(file_);
    ordered_json all = ordered_json::array();
    for (const whatif::Scenario& s : scenarios) {
        if (const std::string problem = whatif::validate(s); !problem.empty())
            throw TraceError(file_ + ": scenario '" + s.name + "': " + problem);
        if (s.kind == whatif::ScenarioKind::Scale) {
            runScale(s, all);
            continue;
        }
        const Trace trace = loadTrace(s.baselines.front(), load_);
        const netsim::NetworkSpec spec = loadNetworkSpec(s.network, {});
        const whatif::ScenarioOutcome o = whatif::runReplayScenario(s, trace, spec);
        if (json_) {
            ordered_json j;
            j["name"] = o.name;
            j["span"] = o.span;
            j["measured"] = timesJson(o.measured);
            j["baseline"] = timesJson(o.baseline);
            j["calibration_error_pct"] = optional(o.calibrationErrorPct);
            auto& runs = j["edited"] = ordered_json::array();
            for (const whatif::EditedRun& e : o.edited) {
                ordered_json r = timesJson(e.edited);
                if (!s.sweepParam.empty()) r["value"] = e.value;
                r["effect_ns"] = e.effectNs;
                r["effect_pct"] = optional(e.effectPct);
                r["mpi_effect_ns"] = e.mpiEffectNs;
                runs.push_back(r);
            }
            if (!s.sweepParam.empty()) j["sweep_param"] = s.sweepParam;
            if (s.engine == "simgrid") j["engines"] = runEngines(s, trace, spec, file_, true);
            all.push_back(j);
            continue;
        }
        std::printf("scenario: %s\n  %s\n  span: %s\n", o.name.c_str(), whatif::describe(s).c_str(),
                    o.span.c_str());
        std::printf("  %-22s %12s %12s\n", "", "run time", "MPI time");
        std::printf("  %-22s %12s %12s\n", "measured", durationText(o.measured.runNs).c_str(),
                    durationText(o.measured.mpiNs).c_str());
        char error[32] = "-";
        if (o.calibrationErrorPct)
            std::snprintf(error, sizeof error, "%+.1f%%", *o.calibrationErrorPct);
        std::printf("  %-22s %12s %12s   calibration error %s\n", "baseline replay",
                    durationText(o.baseline.runNs).c_str(), durationText(o.baseline.mpiNs).c_str(),
                    error);
        for (const whatif::EditedRun& e : o.edited) {
            const std::string label =
                e.value.empty() ? std::string("edited replay") : s.sweepParam + "=" + e.value;
            char pct[32] = "";
            if (e.effectPct) std::snprintf(pct, sizeof pct, " (%+.1f%%)", *e.effectPct);
            std::printf("  %-22s %12s %12s   effect %s%s%s\n", label.c_str(),
                        durationText(e.edited.runNs).c_str(), durationText(e.edited.mpiNs).c_str(),
                        signedDuration(e.effectNs).c_str(), pct,
                        e.effectNs > 0 ? ", slower" : (e.effectNs < 0 ? ", faster" : ""));
        }
        if (s.engine == "simgrid") runEngines(s, trace, spec, file_, false);
    }
    if (json_) printJson((all.size() == 1 ? all.front() : all));
    return kOk;
}

} // namespace rankscope::cli
