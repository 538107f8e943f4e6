#include "whatif/scenario/scenarioexec.h"

#include "model/trace/traceerror.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/simulation.h"

namespace rankscope::whatif {

ScenarioRunResult runScenario(const Scenario& s, const ScenarioInputs& in,
                              const std::function<bool(double)>& keepGoing)
{
    if (const std::string problem = validate(s); !problem.empty())
        throw TraceError("scenario '" + s.name + "': " + problem);
    if (in.traces.size() != s.baselines.size())
        throw TraceError("scenario '" + s.name + "': its baseline traces are not open");
    // The edited copy: the file's text with this scenario's overrides, checked like the file.
    const netsim::NetworkSpec spec =
        netsim::NetworkSpec::fromString(in.fileSpec.yamlText, in.fileSpec.source, allOverrides(s));
    ScenarioRunResult out;
    if (s.kind == ScenarioKind::Replay) {
        netsim::SimulationOptions o;
        o.model = s.model;
        o.collectiveAlgorithms = s.collectives;
        o.cpuFactor = s.cpuFactor;
        o.buildTrace = true;
        o.linkStats = in.linkStats;
        o.heaviestPerLink = 20; // the network view lists them for a clicked link
        o.progress = keepGoing;
        netsim::SimulationResult r = netsim::simulate(*in.traces.front(), spec, o);
        if (r.cancelled || !r.trace) throw Cancelled();
        out.runtimeNs = r.predictedRuntimeNs;
        for (const netsim::RankTimes& t : r.perRank)
            out.mpiNs += t.mpiNs;
        out.trace = std::make_shared<Trace>(std::move(*r.trace));
        if (r.network) {
            auto picture = std::make_shared<netsim::NetworkPicture>();
            picture->figures = std::move(*r.network);
            picture->layouts = netsim::layoutNetworks(spec);
            out.network = std::move(picture);
        }
        return out;
    }
    std::vector<const Trace*> traces;
    extrap::SynthesisOptions o;
    for (size_t i = 0; i < in.traces.size(); ++i) {
        traces.push_back(in.traces[i].get());
        o.traceNames.push_back(i < in.names.size() ? in.names[i] : std::string());
    }
    o.target = s.target;
    o.method = s.method == "classic" ? extrap::Method::Classic : extrap::Method::Rankscope;
    o.seed = s.seed;
    o.progress = keepGoing;
    extrap::ReplayChoice replay;
    replay.model = s.model;
    replay.collectiveAlgorithms = s.collectives;
    replay.cpuFactor = s.cpuFactor;
    extrap::SynthesisResult r = extrap::synthesise(traces, spec, o, replay);
    if (!r.refused.empty()) {
        std::string why = "cannot predict " + std::to_string(s.target) + " ranks:";
        for (const extrap::Refusal& f : r.refused)
            why += "\n  " + (f.callSite.empty() ? std::string("(program)") : f.callSite) + ": " +
                   f.reason;
        throw TraceError(why);
    }
    if (r.cancelled || !r.trace) throw Cancelled();
    if (!r.machineNote.empty()) out.notes.push_back(r.machineNote);
    out.notes.insert(out.notes.end(), r.notes.begin(), r.notes.end());
    out.runtimeNs = r.predictedRuntimeNs;
    out.trace = std::make_shared<Trace>(std::move(*r.trace));
    return out;
}

} // namespace rankscope::whatif
