#include "app/cli/simulatecommand.h"

#include "app/cli/linkfigures.h"
#include "app/cli/netsimoptions.h"
#include "app/cli/simgridengine.h"
#include "importers/otf2/otf2writer.h"
#include "model/support/atomicfile.h"
#include "whatif/netsim/simulation.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* SimulateCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "simulate", "Replay a trace on a described network and predict its run time");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--network", network_, "Network spec (YAML file, or a bundled spec's name)")
        ->required();
    cmd->add_option("--set", set_, "Override a spec value, e.g. links.wan.latency=5ms");
    cmd->add_option("--model", model_, "Network model: loggp, packet or flow")
        ->capture_default_str();
    cmd->add_option("--collective", collectives_, "Algorithm of a collective, e.g. bcast=binomial");
    cmd->add_option("--cpu-factor", cpuFactor_, "Multiply every compute time by this")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_option("-o,--output", out_,
                    "Write the simulated trace (OTF2) to this folder; each message's contention "
                    "delay goes with its receive as an attribute");
    cmd->add_option("--links-csv", linksCsv_,
                    "Write per-link figures (bytes, busy time, utilisation, peak utilisation, "
                    "contention delay) to this CSV file");
    cmd->add_option("--engine", engine_,
                    "rankscope, or simgrid: replay the same scenario with SimGrid's smpirun "
                    "-replay too and compare (needs libsimgrid-dev)")
        ->check(CLI::IsMember({"rankscope", "simgrid"}))
        ->capture_default_str();
    cmd->add_option("--simgrid-dir", simgridDir_,
                    "With --engine simgrid: keep the TI traces, platform and SimGrid's Paje "
                    "trace (simgrid.paje) in this folder");
    addOutputFormats(cmd, json_);
    return cmd;
}

int SimulateCommand::run() const
{
    const netsim::NetworkSpec spec = loadNetworkSpec(network_, set_);
    netsim::SimulationOptions options;
    options.model = model_;
    options.collectiveAlgorithms = parseCollectiveChoices(collectives_);
    options.cpuFactor = cpuFactor_;
    options.buildTrace = !out_.empty();
    // What the network did: for --json, the CSV, and the contention attribute of the trace.
    options.linkStats = json_ || !linksCsv_.empty() || !out_.empty();
    if (!out_.empty()) refuseOutputOverInputs("simulate -o", out_, {trace_}, true);
    if (!linksCsv_.empty()) refuseOutputOverInputs("simulate --links-csv", linksCsv_, {trace_});
    const Trace trace = loadTrace(trace_, load_);
    if (engine_ == "simgrid") {
        if (!out_.empty())
            throw UsageError("-o is Rankscope's engine's; with --engine simgrid "
                             "use --simgrid-dir to keep SimGrid's trace");
        SimGridEngineRequest request{trace_, spec, options, simgridDir_, json_};
        return runSimGridEngine(trace, request);
    }
    netsim::SimulationResult r = netsim::simulate(trace, spec, options);
    if (!out_.empty()) {
        Trace& simulated = *r.trace;
        Provenance p = simulated.provenance();
        p.source = trace_;
        simulated.setProvenance(p);
        markIfFromPartial(simulated);
        writeOtf2(simulated, out_);
    }
    if (!linksCsv_.empty() && r.network)
        writeFileAtomically(linksCsv_, linkFiguresCsv(*r.network), "the link figures");
    if (!r.placementNote.empty()) std::fprintf(stderr, "note: %s\n", r.placementNote.c_str());
    if (!json_) {
        std::printf("predicted run time: %s (input %s) over the span %s, model %s, %llu "
                    "messages\n",
                    durationText(r.predictedRuntimeNs).c_str(),
                    durationText(r.inputRuntimeNs).c_str(), r.span.c_str(), r.model.c_str(),
                    (unsigned long long)r.messages);
        std::printf("whole run: predicted %s (the replayed span plus the measured time outside "
                    "it), input %s\n",
                    durationText(r.predictedWholeRunNs).c_str(),
                    durationText(r.inputWholeRunNs).c_str());
        if (!spec.policy.stridedSites.empty())
            std::printf("strided halo faces (policy.strided): %llu messages\n",
                        (unsigned long long)r.stridedFaces);
        if (r.network) std::printf("%s", linkFiguresText(*r.network).c_str());
        if (!out_.empty()) std::printf("simulated trace written to %s\n", out_.c_str());
        if (!linksCsv_.empty()) std::printf("link figures written to %s\n", linksCsv_.c_str());
        return kOk;
    }
    nlohmann::ordered_json j;
    j["predicted_runtime_ns"] = r.predictedRuntimeNs;
    j["input_runtime_ns"] = r.inputRuntimeNs;
    j["span"] = r.span;
    j["predicted_whole_run_ns"] = r.predictedWholeRunNs;
    j["input_whole_run_ns"] = r.inputWholeRunNs;
    auto& ranks = j["per_rank"] = nlohmann::ordered_json::array();
    for (const netsim::RankTimes& t : r.perRank)
        ranks.push_back({{"rank", t.rank},
                         {"end_ns", t.endNs},
                         {"mpi_ns", t.mpiNs},
                         {"input_mpi_ns", t.inputMpiNs}});
    j["messages"] = r.messages;
    j["model"] = r.model;
    if (!spec.policy.stridedSites.empty()) j["strided_faces"] = r.stridedFaces;
    if (!r.placementNote.empty()) j["notes"] = nlohmann::ordered_json::array({r.placementNote});
    if (r.network) addLinkFigures(j, *r.network, trace);
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
