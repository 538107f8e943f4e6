#include "whatif/scenario/scenariorun.h"

#include "model/support/boundedread.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/simulation.h"
#include "whatif/netsim/strictyaml.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace rankscope::whatif {

namespace {

namespace fs = std::filesystem;

RunTimes replayed(const netsim::SimulationResult& r)
{
    RunTimes t{r.predictedRuntimeNs, 0};
    for (const netsim::RankTimes& rank : r.perRank)
        t.mpiNs += rank.mpiNs;
    return t;
}

std::string resolved(const std::string& path, const fs::path& folder)
{
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (folder / path).lexically_normal().generic_string();
}

} // namespace

BaselineReplay baselineReplay(const Trace& trace, const netsim::NetworkSpec& spec,
                              const std::string& model)
{
    netsim::SimulationOptions o;
    o.model = model;
    const netsim::SimulationResult r = netsim::simulate(trace, spec, o);
    BaselineReplay b;
    b.span = r.span;
    b.measured.runNs = r.inputRuntimeNs;
    for (const netsim::RankTimes& t : r.perRank)
        b.measured.mpiNs += t.inputMpiNs;
    b.baseline = replayed(r);
    return b;
}

EditedRun editedRun(const std::string& value, const BaselineReplay& base, const RunTimes& edited)
{
    EditedRun run;
    run.value = value;
    run.edited = edited;
    run.effectNs = edited.runNs - base.baseline.runNs;
    if (base.baseline.runNs > 0)
        run.effectPct = 100.0 * double(run.effectNs) / double(base.baseline.runNs);
    run.mpiEffectNs = edited.mpiNs - base.baseline.mpiNs;
    return run;
}

ScenarioOutcome outcomeOf(const std::string& name, const BaselineReplay& base,
                          std::vector<EditedRun> edited)
{
    ScenarioOutcome out;
    out.name = name;
    out.span = base.span;
    out.measured = base.measured;
    out.baseline = base.baseline;
    if (base.measured.runNs > 0)
        out.calibrationErrorPct =
            100.0 * double(base.baseline.runNs - base.measured.runNs) / double(base.measured.runNs);
    out.edited = std::move(edited);
    return out;
}

void checkSessionDocument(const YAML::Node& root, const std::string& source)
{
    const auto fail = [&source](const YAML::Node& node, const std::string& key,
                                const std::string& what) {
        std::string where = source;
        if (node.Mark().line >= 0) where += ":" + std::to_string(node.Mark().line + 1);
        throw TraceError(where + ": " + key + ": " + what);
    };
    if (!root.IsMap() || !root["rankscope_session"])
        throw TraceError(source + ": not a Rankscope session (no 'rankscope_session' key)");
    const YAML::Node v = root["rankscope_session"];
    int version = 0;
    try {
        version = v.as<int>();
    } catch (const YAML::Exception&) {
        fail(v, "rankscope_session", "expected a number or true/false here");
    }
    if (version != kSessionFormatVersion)
        fail(v, "rankscope_session",
             "format " + std::to_string(version) + " is not known to this version (expected " +
                 std::to_string(kSessionFormatVersion) + ")");
    const YAML::Node results = root["results"];
    if (!results) return;
    if (!results.IsSequence())
        fail(results, "results", "expected a list of scenario names or scenarios");
    const YAML::Node scenarios = root["scenarios"];
    for (const YAML::Node& n : results) {
        if (n.IsMap()) continue; // read as a scenario by the caller
        if (!n.IsScalar()) fail(n, "results", "expected a scenario name or scenario");
        bool known = false;
        if (scenarios && scenarios.IsSequence())
            for (const YAML::Node& sc : scenarios)
                known |= sc.IsMap() && sc["name"] && sc["name"].IsScalar() &&
                         sc["name"].Scalar() == n.Scalar();
        if (!known) fail(results, "results", "no scenario named '" + n.Scalar() + "'");
    }
}

std::vector<Scenario> readScenarioFile(const std::string& path)
{
    const YAML::Node root = netsim::loadStrictYaml(readSmallTextFile(path, "scenario file"), path);
    if (root.IsMap() && root["rankscope_session"]) checkSessionDocument(root, path);
    std::vector<Scenario> out;
    if (root.IsMap() && root["scenarios"]) {
        const YAML::Node list = root["scenarios"];
        if (!list.IsSequence())
            throw TraceError(path + ":" + std::to_string(list.Mark().line + 1) +
                             ": scenarios: expected a list of scenarios");
        for (const YAML::Node& n : list)
            out.push_back(scenarioFromYaml(n, path));
    } else if (root.IsMap() && root["name"]) {
        out.push_back(scenarioFromYaml(root, path));
    } else {
        throw TraceError(path + ": neither a scenario (no 'name' key) nor a list of them (no "
                                "'scenarios' key)");
    }
    const fs::path folder = fs::absolute(fs::path(path)).parent_path();
    for (Scenario& s : out) {
        for (std::string& b : s.baselines)
            b = resolved(b, folder);
        s.compareWith = resolved(s.compareWith, folder);
        // A bundled spec name stays as written (the caller looks it up). The error_code form:
        // a name the file system refuses (too long, say) is simply not a file here.
        std::error_code ec;
        if (s.network.find('/') != std::string::npos || fs::exists(folder / s.network, ec))
            s.network = resolved(s.network, folder);
    }
    return out;
}

} // namespace rankscope::whatif
