#include "whatif/netsim/simulation.h"

#include "model/analysis/runspan.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/flowmodel.h"
#include "whatif/netsim/linkmessages.h"
#include "whatif/netsim/loggpmodel.h"
#include "whatif/netsim/packetmodel.h"
#include "whatif/netsim/replayengine.h"
#include "whatif/netsim/replaywork.h"
#include "whatif/netsim/simulatedtrace.h"
#include "whatif/netsim/stridedfaces.h"
#include "whatif/netsim/traceplacement.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace rankscope::netsim {

namespace {

std::array<Algorithm, 9> chooseAlgorithms(const NetworkSpec& spec, const SimulationOptions& options)
{
    std::array<Algorithm, 9> algs{};
    for (size_t k = 0; k < algs.size(); ++k)
        algs[k] = defaultAlgorithm(CollKind(k));
    auto apply = [&](const std::string& op, const std::string& alg, const std::string& where) {
        const auto kind = collKindFromName(op);
        if (!kind)
            throw TraceError(where + ": unknown collective '" + op +
                             "' (expected barrier, bcast, "
                             "reduce, allreduce, allgather, gather, scatter, alltoall or "
                             "reduce_scatter)");
        const auto a = algorithmFromName(*kind, alg);
        if (!a) {
            std::string list;
            for (std::string_view n : algorithmNames(*kind))
                list += (list.empty() ? "" : ", ") + std::string(n);
            throw TraceError(where + ": unknown algorithm '" + alg + "' for " + op +
                             " (expected one of: " + list + ")");
        }
        algs[size_t(*kind)] = *a;
    };
    for (const auto& [op, alg] : spec.collectives)
        apply(op, alg, spec.source);
    for (const auto& [op, alg] : options.collectiveAlgorithms)
        apply(op, alg, "--collective " + op + "=" + alg);
    return algs;
}

struct Run
{
    ReplayOutcome outcome;
    std::string model;
    std::unique_ptr<LinkRecorder> recorder; ///< with SimulationOptions::linkStats
    std::vector<LinkInfo> links;            ///< the recorder's links
    /// The figures over the run as summarised (its predicted run time).
    void network(SimulationResult& result)
    {
        if (recorder && !result.cancelled)
            result.network = recorder->figures(std::move(links), double(result.predictedRuntimeNs));
    }
};

/// When the replayed run starts: the earliest rank start (all at the span's start when
/// synchronised).
double runStart(const ActionProgram& program)
{
    if (program.rankCount() == 0) return 0;
    double first = program.startNs[0];
    for (double t : program.startNs)
        first = std::min(first, program.synchronisedStart ? program.spanStartNs : t);
    return first;
}

Run replay(const ActionProgram& program, const NetworkSpec& spec, const SimulationOptions& options,
           bool recordTimes)
{
    if (!(options.cpuFactor >= 0) || !std::isfinite(options.cpuFactor))
        throw TraceError("cpu factor must be a number >= 0");
    const auto available = models();
    if (std::find(available.begin(), available.end(), options.model) == available.end()) {
        std::string list;
        for (const std::string& m : available)
            list += (list.empty() ? "" : ", ") + m;
        throw TraceError("unknown network model '" + options.model + "' (this build has: " + list +
                         ")");
    }
    const Machine machine(spec, program.rankCount());
    EngineOptions eo;
    eo.eagerLimit = options.eagerLimit.value_or(spec.eagerLimit);
    eo.algorithms = chooseAlgorithms(spec, options);
    if (options.model == "packet") {
        const double packetBytes = double(std::max<uint64_t>(1, spec.packetBytes));
        requirePacketWork(
            plannedPacketWork(program, eo.algorithms, spec.wideAreaStreams, packetBytes),
            packetBytes, spec.source);
    }
    eo.wideAreaStreams = spec.wideAreaStreams;
    eo.recordTimes = recordTimes;
    eo.exchangeByRounds = options.exchangeByRounds;
    eo.progress = options.progress;
    ReplayEngine engine(program, machine, std::move(eo));
    if (options.model == "packet")
        engine.setModel(std::make_unique<PacketModel>(machine, engine));
    else if (options.model == "flow")
        engine.setModel(std::make_unique<FlowModel>(machine, engine));
    else
        engine.setModel(std::make_unique<LogGpModel>(machine, engine));
    Run run;
    run.model = options.model;
    if (options.linkStats) {
        run.links = engine.model().linkInfo();
        run.recorder = std::make_unique<LinkRecorder>(run.links.size(), program.messages.size(),
                                                      runStart(program));
        engine.model().setRecorder(run.recorder.get());
    }
    run.outcome = engine.run();
    return run;
}

SimulationResult summarise(const ActionProgram& program, Run& run)
{
    SimulationResult result;
    result.model = run.model;
    result.cancelled = run.outcome.cancelled;
    if (result.cancelled) return result;
    const uint32_t n = program.rankCount();
    const double first = runStart(program);
    double last = n ? program.startNs[0] : 0;
    result.perRank.resize(n);
    for (uint32_t r = 0; r < n; ++r) {
        last = std::max(last, run.outcome.endNs[r]);
        result.perRank[r] =
            RankTimes{r, std::llround(run.outcome.endNs[r]), std::llround(run.outcome.mpiNs[r])};
    }
    result.predictedRuntimeNs = std::llround(last - first);
    result.messages = run.outcome.transfers;
    return result;
}

} // namespace

std::vector<std::string> models()
{
    return {"loggp", "packet", "flow"};
}

SimulationResult simulate(const Trace& trace, const NetworkSpec& spec,
                          const SimulationOptions& options)
{
    std::vector<std::vector<ActionAnchor>> anchors;
    ActionProgram program =
        buildActions(trace, options.cpuFactor, options.buildTrace ? &anchors : nullptr);
    const size_t strided = markStridedFaces(trace, spec.policy, program);
    std::string placementNote;
    const NetworkSpec placed = placedAsRecorded(spec, trace, &placementNote);
    Run run = replay(program, placed, options, options.buildTrace);
    std::vector<double> times = run.outcome.actionTimes;
    SimulationResult result = summarise(program, run);
    result.placementNote = std::move(placementNote);
    result.stridedFaces = strided;
    if (!result.cancelled) {
        const RunSpan span = runSpan(trace);
        if (span.toFinalize) {
            // MPI_Finalize synchronises: no rank leaves it before the last one has entered
            // (the replay ended each rank on entering it). After that entry each rank keeps
            // what it measured: its own exit less the last entry (the last exit is the span's
            // end, so the run time adds finalizeCostNs).
            int64_t lastEntry = 0, measuredLastEntry = INT64_MIN;
            for (const RankTimes& t : result.perRank)
                lastEntry = std::max(lastEntry, t.endNs);
            for (const RankSpan& rs : span.ranks)
                measuredLastEntry = std::max(measuredLastEntry, rs.finalizeEnterNs);
            for (RankTimes& t : result.perRank) {
                const int64_t tail =
                    t.rank < span.ranks.size()
                        ? std::max<int64_t>(0, span.ranks[t.rank].endNs - measuredLastEntry)
                        : span.finalizeCostNs;
                const int64_t end = lastEntry + tail;
                t.mpiNs += end - t.endNs;
                t.endNs = end;
                // In the simulated trace too: a finalized rank's last action is its Leave.
                const size_t last = program.rankBegin[t.rank + 1];
                if (!times.empty() && last > program.rankBegin[t.rank])
                    times[last - 1] = double(end);
            }
            result.predictedRuntimeNs += span.finalizeCostNs;
        }
        result.inputRuntimeNs = span.duration();
        result.span = span.name();
        result.inputWholeRunNs = trace.duration();
        result.predictedWholeRunNs = result.predictedRuntimeNs + span.outsideNs();
        for (size_t r = 0; r < result.perRank.size() && r < span.ranks.size(); ++r)
            result.perRank[r].inputMpiNs = span.ranks[r].mpiNs;
    }
    run.network(result);
    if (result.network && options.heaviestPerLink > 0)
        result.network->heaviest = heaviestMessages(program, placed, options.model, *result.network,
                                                    options.heaviestPerLink);
    if (options.buildTrace && !result.cancelled)
        result.trace = simulatedTrace(
            trace, program, anchors, times,
            SimulatedProvenance{spec, options, result.network ? &*result.network : nullptr});
    return result;
}

SimulationResult simulateProgram(const ActionProgram& program, const NetworkSpec& spec,
                                 const SimulationOptions& options)
{
    Run run = replay(program, spec, options, false);
    SimulationResult result = summarise(program, run);
    run.network(result);
    return result;
}

ActionProgram singleCollectiveProgram(CollKind kind, uint32_t ranks, uint32_t root, uint64_t bytes)
{
    ActionProgram p;
    p.comms.emplace_back(); // the world
    p.collectives.push_back(ProgramCollective{kind, 0, root, bytes});
    p.startNs.assign(ranks, 0.0);
    p.rankBegin.resize(size_t(ranks) + 1);
    p.actions.reserve(size_t(ranks) * 3);
    for (uint32_t r = 0; r < ranks; ++r) {
        p.rankBegin[r] = p.actions.size();
        p.actions.push_back({ActionKind::Enter, 0, 0});
        p.actions.push_back({ActionKind::Collective, 0, double(r)});
        p.actions.push_back({ActionKind::Leave, 0, 0});
    }
    p.rankBegin[ranks] = p.actions.size();
    return p;
}

} // namespace rankscope::netsim
