#pragma once
// Scale what-if (ALGORITHMS.md §5): the predicted trace of a scale that was never run, from
// traces of one program at three or more smaller scales.
//
// synthesise() runs the three steps: planSynthesis (template, rules, fitted series, timing
// extrapolation), buildDraftTrace (the ranks at the target with sampled delta times and MPI
// calls of no duration) and a replay of the draft on a network spec (netsim::simulate with
// buildTrace, §7), whose simulated timestamps become the predicted trace's. Deterministic: the
// same inputs, options and seed give the same trace bit for bit. A program that cannot be
// synthesised is refused by call site with the reason, and no trace is made.

#include "model/trace/trace.h"
#include "whatif/extrap/synthplan.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rankscope::extrap {

struct ReplayChoice
{
    std::string model = "loggp"; ///< network model of the replay (netsim::models())
    /// Per-collective algorithm choices ("bcast" -> "binomial"), over the spec's.
    std::vector<std::pair<std::string, std::string>> collectiveAlgorithms;
    double cpuFactor = 1.0; ///< multiplies every synthesised compute time in the replay
};

/// One role of the predicted trace.
struct SynthesisRoleSummary
{
    std::string name;
    uint32_t ranks = 0; ///< ranks of the role at the target (> 0)
    /// Repetitions of its loop body at the target. An iteration whose edges differ from the
    /// others (the first one entering the loop region, say) belongs to the fixed prefix or
    /// suffix, so a loop of 10 iterations may show as 9 repetitions.
    uint64_t loopCount = 0;
    uint64_t eventsPerRank = 0;
    bool operator==(const SynthesisRoleSummary&) const = default;
};

struct SynthesisResult
{
    uint32_t target = 0;
    std::vector<uint32_t> scales;
    Method method = Method::Rankscope;
    uint64_t seed = 1;
    std::string placement; ///< how roles are placed at the target ("2-D grid 32 x 32"...)
    std::vector<SynthesisRoleSummary> roles;
    std::vector<Refusal> refused; ///< non-empty: no trace was made
    std::string network;          ///< the spec's source
    std::string model;            ///< the replay's network model
    std::string machineNote;      ///< set when the spec's node count was raised to hold the target
    std::vector<std::string> notes;    ///< what the predicted trace leaves out of the inputs
    std::vector<std::string> warnings; ///< what was carried from the inputs without a rule
    std::vector<synth::UnruledInterval> unruled; ///< intervals sampled from the nearest scale
    /// Wall-clock seconds of the three steps (plan, draft, replay).
    double planSeconds = 0, draftSeconds = 0, replaySeconds = 0;
    uint64_t events = 0;
    int64_t predictedRuntimeNs = 0;
    /// The timing extrapolation's max_r S(r) at the target and its interval.
    double predictedMaxRankDeltaSum = 0;
    double predictedMaxLow = 0;
    double predictedMaxHigh = 0;
    std::optional<Trace> trace; ///< Provenance kind "extrapolated"
    bool cancelled = false;
};

/// `spec`, with the node count raised (a `nodes` override) when it holds fewer than `ranks`
/// ranks; `note` says so. Throws TraceError naming the spec when it cannot be resized.
netsim::NetworkSpec specForRanks(const netsim::NetworkSpec& spec, uint32_t ranks,
                                 std::string* note = nullptr);

/// Synthesises the trace at options.target and replays it on `spec`. Throws TraceError for bad
/// input (see planSynthesis) and bad replay options.
SynthesisResult synthesise(const std::vector<const Trace*>& traces, const netsim::NetworkSpec& spec,
                           const SynthesisOptions& options, const ReplayChoice& replay = {});

/// The provenance parameters of a predicted trace.
std::string synthesisParameters(const synth::SynthesisPlan& plan, const SynthesisOptions& options,
                                const netsim::NetworkSpec& spec, const ReplayChoice& replay);

} // namespace rankscope::extrap
