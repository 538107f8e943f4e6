#include "whatif/extrap/synthesis.h"

#include "model/trace/traceerror.h"
#include "whatif/extrap/synthbuilder.h"
#include "whatif/extrap/synthfit.h"
#include "whatif/extrap/synthtile.h"
#include "whatif/netsim/replaydeadlock.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace rankscope::extrap {

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator)
{
    std::string s;
    for (const std::string& i : items)
        s += (s.empty() ? "" : separator) + i;
    return s;
}

/// Where in the plan the rank a replay found waiting forever waits: its role, the call site of
/// its step and the rules its partners follow there ("" when the rank's steps cannot be told):
/// "rank 1 (role 'odd ranks') waits in step 2 of its 8, at main:MPI_Recv, whose partners follow
/// the rule r-1".
std::string whereInPlan(const synth::SynthesisPlan& plan, const netsim::ReplayDeadlock& d)
{
    const auto grid = plan.targetGrid();
    const int32_t roleIndex = plan.roleOf(d.rank(), grid ? &*grid : nullptr);
    if (roleIndex < 0 || d.mpiCall() == 0) return "";
    const synth::Role& role = plan.roles[size_t(roleIndex)];
    const synth::StepTable& steps = plan.context.steps;
    // The replay counts calls from the end of MPI_Init: find the rank's MPI_Init step.
    const uint64_t count = role.stepCount();
    uint64_t init = 0;
    while (init < count && init < 4 &&
           !steps.shape(role.stepAt(role.positionOf(init, role.loopCount))).init)
        ++init;
    if (init >= count || init >= 4 || init + d.mpiCall() >= count) return "";
    const uint64_t k = init + d.mpiCall();
    const size_t pos = role.positionOf(k, role.loopCount);
    const synth::StepShape& shape = steps.shape(role.stepAt(pos));
    std::string site = shape.callSite == synth::kNoSymbol
                           ? std::string("(after the last MPI call)")
                           : std::string(plan.context.symbols.name(CallSiteId(shape.callSite)));
    const uint32_t slots = pos + 1 < role.rankSlotBase.size()
                               ? role.rankSlotBase[pos + 1] - role.rankSlotBase[pos]
                               : uint32_t(role.rankRules.size()) - role.rankSlotBase[pos];
    std::string rules;
    for (uint32_t i = 0; i < slots; ++i)
        rules += (i ? ", " : "") + role.rankRules[role.rankSlotBase[pos] + i].text();
    return "rank " + std::to_string(d.rank()) + " (role '" + role.name + "') waits in step " +
           std::to_string(k + 1) + " of its " + std::to_string(count) + ", at " + site +
           (rules.empty() ? std::string(", whose call names no partner")
                          : ", whose partners follow the rule " + rules);
}

} // namespace

netsim::NetworkSpec specForRanks(const netsim::NetworkSpec& spec, uint32_t ranks, std::string* note)
{
    const uint64_t capacity = uint64_t(spec.nodes) * spec.ranksPerNode;
    if (spec.mapping == netsim::RankMapping::File || capacity >= ranks) return spec;
    const uint64_t nodes = (uint64_t(ranks) + spec.ranksPerNode - 1) / spec.ranksPerNode;
    try {
        netsim::NetworkSpec bigger = spec.withOverrides({{"nodes", std::to_string(nodes)}});
        if (note)
            *note = spec.source + " holds " + std::to_string(capacity) +
                    " ranks; its node count "
                    "was raised to " +
                    std::to_string(nodes) + " for " + std::to_string(ranks) + " ranks";
        return bigger;
    } catch (const TraceError& e) {
        throw TraceError(spec.source + " holds " + std::to_string(capacity) +
                         " ranks, the target " + std::to_string(ranks) +
                         ", and raising its node count failed (" + e.what() +
                         "); give a spec with room for the target (e.g. --set nodes=...)");
    }
}

std::string synthesisParameters(const synth::SynthesisPlan& plan, const SynthesisOptions& options,
                                const netsim::NetworkSpec& spec, const ReplayChoice& replay)
{
    std::string scales;
    for (uint32_t n : plan.scales)
        scales += (scales.empty() ? "" : ",") + std::to_string(n);
    std::string s = "method=" + methodName(plan.method) + " target=" + std::to_string(plan.target) +
                    " scales=" + scales + " seed=" + std::to_string(options.seed) +
                    " placement=\"" + plan.placementText() + "\" network=" + spec.source +
                    " model=" + replay.model;
    if (replay.cpuFactor != 1.0) s += " cpu_factor=" + std::to_string(replay.cpuFactor);
    for (const auto& [op, alg] : replay.collectiveAlgorithms)
        s += " collective:" + op + "=" + alg;
    for (const netsim::SpecOverride& o : spec.overrides)
        s += " set:" + o.key + "=" + o.value;
    return s + " inputs=" + joined(plan.inputs, ";");
}

namespace {

/// The tiled fallback (synthtile.h): the draft, or nothing with `refusal` set.
std::optional<Trace> tiledDraft(const std::vector<const Trace*>& traces,
                                const SynthesisOptions& options, const Refusal& why,
                                SynthesisResult& result, std::string& refusal)
{
    ExtrapolationOptions eo;
    eo.method = options.method;
    eo.mode = Mode::Interval;
    eo.target = options.target;
    eo.traceNames = options.traceNames;
    eo.allowInputScaleTarget = true;
    eo.progress = progressSlice(options.progress, 0.5, 0.6);
    ExtrapolationResult timing;
    bool timed = false;
    try {
        timing = extrapolate(traces, eo);
        timed = !timing.cancelled;
    } catch (const Cancelled&) {
        throw;
    } catch (const TraceError&) {
        // Without a timing extrapolation the tiled ranks keep the input's times.
    }
    if (timing.cancelled) throw Cancelled();
    TiledDraft t =
        tileLargestInput(traces, options.target, timed ? &timing : nullptr, options.maxEvents);
    if (!t.draft) {
        refusal = "nor can the largest input be tiled onto " + std::to_string(options.target) +
                  " ranks: " + t.refusal;
        return std::nullopt;
    }
    // What the carried roles left out or sampled no longer applies: the tiled trace has the
    // input's calls.
    result.warnings.clear();
    result.unruled.clear();
    result.warnings.push_back(
        "no rule carries the ranks' calls to " + std::to_string(options.target) + " ranks (" +
        (why.callSite.empty() ? "" : why.callSite + ": ") + why.reason +
        "); the predicted trace is the " + std::to_string(t.sourceRanks) +
        "-rank run tiled onto the target's process grid (" + t.placement +
        "): every rank runs the calls of the input rank at its grid position modulo the "
        "input's grid, so call counts that change with the scale are those of " +
        std::to_string(t.sourceRanks) + " ranks" +
        (t.composed.empty() ? std::string()
                            : ", except in the grown dimensions, whose ranks' roles are composed "
                              "from the inputs where that dimension grew"));
    for (const std::string& c : t.composed)
        result.warnings.push_back("composed per dimension: " + c);
    if (!t.compositionFailure.empty()) result.warnings.push_back(t.compositionFailure);
    result.placement = t.placement;
    result.roles.clear();
    if (timed) {
        result.predictedMaxRankDeltaSum = timing.predictedMaxRankDeltaSum;
        result.predictedMaxLow = timing.predictedMaxLow;
        result.predictedMaxHigh = timing.predictedMaxHigh;
    }
    return std::move(t.draft);
}

} // namespace

SynthesisResult synthesise(const std::vector<const Trace*>& traces, const netsim::NetworkSpec& spec,
                           const SynthesisOptions& options, const ReplayChoice& replay)
{
    SynthesisResult result;
    result.target = options.target;
    result.method = options.method;
    result.seed = options.seed;
    result.network = spec.source;
    result.model = replay.model;

    SynthesisOptions planOptions = options;
    planOptions.progress = progressSlice(options.progress, 0.0, 0.5);
    // Phase boundaries are checkpoints too: a short replay may report no progress of its own.
    const auto stop = [&](double f) { return options.progress && !options.progress(f); };
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::time_point since) {
        return std::chrono::duration<double>(Clock::now() - since).count();
    };
    auto started = Clock::now();
    const synth::SynthesisPlan plan = planSynthesis(traces, planOptions);
    result.planSeconds = seconds(started);
    result.warnings = plan.warnings;
    result.unruled = plan.unruled;
    result.scales = plan.scales;
    result.placement = plan.placementText();
    result.refused = plan.refused;
    result.notes = plan.notes;
    result.cancelled = plan.cancelled || (plan.refused.empty() && stop(0.5));
    if (result.cancelled) return result;
    const netsim::NetworkSpec machine = specForRanks(spec, options.target, &result.machineNote);

    // When no rule carries the ranks' calls (no roles found, or roles carried without a rule
    // that cannot run together), the largest input is tiled onto the target's grid instead.
    bool tiled = false;
    const auto tile = [&](const std::vector<Refusal>& why) -> std::optional<Trace> {
        started = Clock::now();
        std::string refusal;
        std::optional<Trace> t;
        try {
            t = tiledDraft(traces, options, why.front(), result, refusal);
        } catch (const Cancelled&) {
            result.cancelled = true;
            return std::nullopt;
        }
        result.draftSeconds = seconds(started);
        if (!t) {
            result.refused = why;
            result.refused.push_back({"", refusal});
            return std::nullopt;
        }
        result.refused.clear();
        tiled = true;
        return t;
    };

    Trace draft;
    if (!plan.refused.empty()) {
        // Roles found but refused for their sizes, counts or timing: the rules said why. Roles
        // refused only for their sub-communicators may still be tiled (communicators that are
        // slabs of the process grid are carried there).
        const bool onlyCommunicators =
            std::all_of(plan.refused.begin(), plan.refused.end(),
                        [](const Refusal& r) { return r.subCommunicator; });
        if (!plan.roles.empty() && !onlyCommunicators) return result;
        std::optional<Trace> t = tile(plan.refused);
        if (!t) return result;
        draft = std::move(*t);
    } else {
        for (const synth::Role& role : plan.roles)
            if (role.ranksAtTarget > 0)
                result.roles.push_back({role.name, role.ranksAtTarget, role.loopCount,
                                        synth::eventsPerRank(plan, role)});
        result.predictedMaxRankDeltaSum = plan.timing.predictedMaxRankDeltaSum;
        result.predictedMaxLow = plan.timing.predictedMaxLow;
        result.predictedMaxHigh = plan.timing.predictedMaxHigh;

        started = Clock::now();
        DroppedMessages dropped;
        const auto build = [&](DroppedMessages* unpaired) {
            try {
                return buildDraftTrace(plan, options.seed,
                                       progressSlice(options.progress, 0.5, 0.65), unpaired);
            } catch (const Cancelled&) {
                return Trace();
            }
        };
        draft = build(nullptr);
        // Carried roles may post calls their partners' roles do not make: those are left out,
        // with a warning; without carried roles every call must pair up.
        if (plan.carriedRoles > 0 && draft.rankCount() == options.target &&
            draft.diagnostics().unmatchedMessages() > 0) {
            draft = build(&dropped);
            std::string sites;
            for (size_t i = 0; i < dropped.callSites.size() && i < 5; ++i)
                sites += (i ? ", " : "") + dropped.callSites[i];
            if (dropped.callSites.size() > 5)
                sites += " and " + std::to_string(dropped.callSites.size() - 5) + " more";
            result.warnings.push_back(
                std::to_string(dropped.sends) + " sends and " + std::to_string(dropped.receives) +
                " receives of carried roles find no matching call at " +
                std::to_string(options.target) +
                " ranks and are written without their message (at " + sites + ")");
        }
        result.draftSeconds = seconds(started);
        if (draft.rankCount() != options.target || stop(0.65)) {
            result.cancelled = true;
            return result;
        }
        const TraceDiagnostics& d = draft.diagnostics();
        if (d.unmatchedMessages() > 0 || d.incompleteCollectives > 0) {
            result.refused.push_back(
                {"", "the synthesised ranks do not pair up at " + std::to_string(options.target) +
                         " ranks (" + std::to_string(d.unmatchedMessages()) +
                         " messages without a partner, " + std::to_string(d.incompleteCollectives) +
                         " incomplete collectives)"});
            return result;
        }
    }

    netsim::SimulationOptions sim;
    sim.model = replay.model;
    sim.collectiveAlgorithms = replay.collectiveAlgorithms;
    sim.cpuFactor = replay.cpuFactor;
    sim.buildTrace = true;
    sim.progress = progressSlice(options.progress, 0.65, 1.0);
    started = Clock::now();
    netsim::SimulationResult replayed;
    try {
        replayed = netsim::simulate(draft, machine, sim);
    } catch (const TraceError& e) {
        if (dynamic_cast<const Cancelled*>(&e)) throw;
        if (tiled) {
            result.refused.push_back({"", "the tiled trace's ranks cannot run together at " +
                                              std::to_string(options.target) + " ranks (" +
                                              e.what() + ")"});
            return result;
        }
        if (plan.carriedRoles == 0) {
            // Roles found by rule that still wait for each other: say which rule failed.
            const auto* d = dynamic_cast<const netsim::ReplayDeadlock*>(&e);
            const std::string where = d ? whereInPlan(plan, *d) : std::string();
            if (where.empty()) throw;
            result.refused.push_back({"", "the synthesised ranks cannot run together at " +
                                              std::to_string(options.target) + " ranks (" +
                                              e.what() + "): " + where});
            return result;
        }
        // Roles carried without a rule (the warnings name them) need not make a program whose
        // ranks wait for what the others send: then the largest input is tiled instead.
        const auto* deadlock = dynamic_cast<const netsim::ReplayDeadlock*>(&e);
        const std::string where = deadlock ? whereInPlan(plan, *deadlock) : std::string();
        std::vector<Refusal> why{{"", "the " + std::to_string(plan.carriedRoles) +
                                          " role(s) carried without a rule do not make a program "
                                          "whose ranks can run together at " +
                                          std::to_string(options.target) + " ranks (" + e.what() +
                                          ")" + (where.empty() ? "" : ": " + where)}};
        why.insert(why.end(), plan.uncarried.begin(), plan.uncarried.end());
        std::optional<Trace> t = tile(why);
        if (!t) return result;
        draft = std::move(*t);
        try {
            replayed = netsim::simulate(draft, machine, sim);
        } catch (const TraceError& again) {
            if (dynamic_cast<const Cancelled*>(&again)) throw;
            result.refused = why;
            result.refused.push_back({"", "the tiled trace's ranks cannot run together at " +
                                              std::to_string(options.target) + " ranks (" +
                                              again.what() + ")"});
            return result;
        }
    }
    result.replaySeconds = seconds(started);
    if (replayed.cancelled || !replayed.trace || stop(1.0)) {
        result.cancelled = true;
        return result;
    }
    result.predictedRuntimeNs = replayed.predictedRuntimeNs;
    result.trace = std::move(replayed.trace);
    result.trace->setProvenance(Provenance{"extrapolated", joined(plan.inputs, ", "),
                                           synthesisParameters(plan, options, machine, replay)});
    result.events = result.trace->eventCount();
    return result;
}

} // namespace rankscope::extrap
