#include "whatif/scenario/scenariorun.h"

#include "model/runspan.h"
#include "model/traceerror.h"
#include "whatif/netsim/simulation.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rankscope::whatif {

namespace {

namespace fs = std::filesystem;

RunTimes replayed(const netsim::SimulationResult& r)
{
    RunTimes t{r.predictedRuntimeNs, 0};
    for (const netsim::RankTimes& rank : r.perRank) t.mpiNs += rank.mpiNs;
    return t;
}

netsim::SimulationOptions optionsOf(const Scenario& s)
{
    netsim::SimulationOptions o;
    o.model = s.model;
    o.collectiveAlgorithms = s.collectives;
    o.cpuFactor = s.cpuFactor;
    return o;
}

std::string resolved(const std::string& path, const fs::path& folder)
{
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (folder / path).lexically_normal().generic_string();
}

} // namespace

ScenarioOutcome runReplayScenario(const Scenario& s, const Trace& trace,
                                  const netsim::NetworkSpec& spec)
{
    if (s.kind != ScenarioKind::Replay)
        throw TraceError("scenario '" + s.name + "' is a " + kindName(s.kind) +
                         " scenario; only replay scenarios are run here");
    ScenarioOutcome out;
    out.name = s.name;
    out.span = runSpan(trace).name();
    // The baseline: the trace on the unedited spec with the scenario's network model; the
    // edits are the spec overrides, the collective algorithm choices and the CPU factor.
    Scenario unedited = s;
    unedited.cpuFactor = 1.0;
    unedited.collectives.clear();
    const netsim::SimulationResult base = netsim::simulate(trace, spec, optionsOf(unedited));
    out.measured.runNs = base.inputRuntimeNs;
    for (const netsim::RankTimes& r : base.perRank) out.measured.mpiNs += r.inputMpiNs;
    out.baseline = replayed(base);
    if (out.measured.runNs > 0)
        out.calibrationErrorPct =
            100.0 * double(out.baseline.runNs - out.measured.runNs) / double(out.measured.runNs);

    std::vector<std::pair<std::string, Scenario>> points;
    if (s.sweepParam.empty())
        points.emplace_back(std::string(), s);
    else
        for (const std::string& v : s.sweepValues)
            points.emplace_back(v, withParam(s, s.sweepParam, v));
    for (const auto& [value, point] : points) {
        const netsim::NetworkSpec edited = spec.withOverrides(point.overrides);
        EditedRun run;
        run.value = value;
        run.edited = replayed(netsim::simulate(trace, edited, optionsOf(point)));
        run.effectNs = run.edited.runNs - out.baseline.runNs;
        if (out.baseline.runNs > 0)
            run.effectPct = 100.0 * double(run.effectNs) / double(out.baseline.runNs);
        run.mpiEffectNs = run.edited.mpiNs - out.baseline.mpiNs;
        out.edited.push_back(run);
    }
    return out;
}

std::vector<Scenario> readScenarioFile(const std::string& path)
{
    std::ifstream f(path);
    if (!f) throw TraceError(path + ": cannot open the scenario file");
    std::stringstream text;
    text << f.rdbuf();
    YAML::Node root;
    try {
        root = YAML::Load(text.str());
    } catch (const YAML::ParserException& e) {
        throw TraceError(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " +
                         e.msg);
    }
    std::vector<Scenario> out;
    if (root.IsMap() && root["scenarios"]) {
        const YAML::Node list = root["scenarios"];
        if (!list.IsSequence())
            throw TraceError(path + ":" + std::to_string(list.Mark().line + 1) +
                             ": scenarios: expected a list of scenarios");
        for (const YAML::Node& n : list) out.push_back(scenarioFromYaml(n, path));
    } else if (root.IsMap() && root["name"]) {
        out.push_back(scenarioFromYaml(root, path));
    } else {
        throw TraceError(path + ": neither a scenario (no 'name' key) nor a list of them (no "
                         "'scenarios' key)");
    }
    const fs::path folder = fs::absolute(fs::path(path)).parent_path();
    for (Scenario& s : out) {
        for (std::string& b : s.baselines) b = resolved(b, folder);
        s.compareWith = resolved(s.compareWith, folder);
        // A bundled spec name stays as written (the caller looks it up).
        if (s.network.find('/') != std::string::npos || fs::exists(folder / s.network))
            s.network = resolved(s.network, folder);
    }
    return out;
}

} // namespace rankscope::whatif
