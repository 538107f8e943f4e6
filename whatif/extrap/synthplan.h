#pragma once
// Trace synthesis, step 2 (ALGORITHMS.md §5): the SPMD template of a program, built from its
// traces at three or more scales and evaluated at the target scale.
//
// The plan holds the roles (ranks that run the same steps, placed by a rule such as the grid
// position), per role the loop form of its steps, a rule for every partner and root, every
// message and collective size fitted across the scales (§4's PMNF, or an exact power law) and
// evaluated at the target, the loop count from the count model (§3.4), and the timing
// extrapolation (§3/§4) whose per-interval distributions give the delta times. A pattern that is
// not consistent across the scales is refused by call site with the reason; nothing is guessed.

#include "model/support/progressreporter.h"
#include "model/trace/definitions.h"
#include "whatif/extrap/extrapolation.h"
#include "whatif/extrap/synthloop.h"
#include "whatif/extrap/synthrules.h"
#include "whatif/extrap/synthskeleton.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope::extrap {

/// Why a program cannot be synthesised: the call site concerned ("" when the reason concerns
/// the roles rather than one call) and what is wrong.
struct Refusal
{
    std::string callSite;
    std::string reason;
    /// The reason is a communicator other than MPI_COMM_WORLD (the tiled fallback may carry it).
    bool subCommunicator = false;
    bool operator==(const Refusal&) const = default;
};

struct SynthesisOptions
{
    uint32_t target = 0;               ///< N, the rank count to synthesise
    Method method = Method::Rankscope; ///< the timing extrapolation whose distributions are sampled
    uint64_t seed = 1;                 ///< delta-time sampling; the same seed gives the same trace
    /// Refuse targets whose trace would hold more events than this (an absurd N must not run the
    /// machine out of memory). Synthesis and replay peak at about 120 bytes per event, so the
    /// default stays within about 6 GB.
    uint64_t maxEvents = 50'000'000;
    /// Execution intervals seen at fewer than 3 scales are sampled from the nearest scale; refuse
    /// when they carry more than this share (0..1) of the computation time there.
    double maxUnruledShare = 0.10;
    std::vector<std::string> traceNames; ///< optional, one per input trace, for messages
    ProgressCallback progress;           ///< 0..1; returning false cancels
};

/// The largest target accepted at all, before the event limit is checked.
inline constexpr uint32_t kMaxSynthesisRanks = 1u << 24;

namespace synth {

/// An execution interval that follows no rule across the scales (seen at fewer than 3), sampled
/// from its per-rank mean delta times at the largest input scale that shows it.
struct UnruledInterval
{
    std::string name;              ///< `A - B`
    uint32_t scale = 0;            ///< the input scale it is sampled from
    double share = 0;              ///< its share of the computation time at that scale (0..1)
    std::vector<double> rankMeans; ///< ascending, ns
};

/// How a role's steps at one input scale sit in its loop form when that scale lacks call sites
/// the form holds (call sites present from some scale on): the form without those steps, and
/// each of its positions' position in the full form. Empty: the scale runs the full form.
struct ScaleForm
{
    size_t prefix = 0, body = 0;
    std::vector<uint32_t> toFull;
};

/// One role of the template, evaluated at the target.
struct Role
{
    uint32_t cls = 0;                   ///< position class under the plan's placement
    std::string name;                   ///< "grid low/inner", "all ranks"...
    LoopForm form;                      ///< step ids
    std::vector<uint32_t> scales;       ///< input rank counts where the role occurs
    std::vector<RankRule> rankRules;    ///< per rank slot (partners and roots, in event order)
    std::vector<uint32_t> rankSlotSite; ///< per rank slot: the call site (symbol) it belongs to
    std::vector<uint64_t> sizes;        ///< per size slot, at the target (bytes)
    /// Per size slot of a point-to-point call whose partners lie in several directions of the
    /// placement's grid (a run of copies, one per neighbour): the size by the partner's
    /// direction (ProcessGrid::direction) at the target; empty where one size serves all.
    std::vector<std::map<uint32_t, uint64_t>> sizeByDirection;
    uint64_t loopCount = 0; ///< at the target
    uint32_t ranksAtTarget = 0;
    /// Per step position (prefix, body, suffix concatenated): first rank and size slot.
    std::vector<uint32_t> rankSlotBase, sizeSlotBase;
    /// Per step position: mean length of the gap before its call (used outside the delta-time
    /// span, e.g. before MPI_Init), and where each event of the gap sits in it (0..1).
    std::vector<double> gapMeanNs;
    std::vector<std::vector<double>> gapFractions;

    /// The step id at position `pos`.
    uint32_t stepAt(size_t pos) const;
    size_t positions() const { return form.prefix.size() + form.body.size() + form.suffix.size(); }
    /// Position of the k-th step of a rank running `count` loop iterations.
    size_t positionOf(uint64_t k, uint64_t count) const;
    /// Per input scale (by index): the form as that scale runs it.
    std::vector<ScaleForm> inputForms;
    /// Position in the full form of the k-th step of a rank of input scale `scale`.
    size_t inputPosition(size_t scale, uint64_t k, uint64_t count) const;
    /// For roles read as runs whose length changes with the scale (synthruns.h), per step
    /// position: partners r XOR xorAt[pos] where it is not 0, and the position whose sizes,
    /// rules and gaps a position takes (itself, or a run's copy the inputs show). Empty: none.
    std::vector<int64_t> xorAt;
    std::vector<uint32_t> alias;
    size_t aliasOf(size_t pos) const { return alias.empty() ? pos : alias[pos]; }
    /// The lengths f(n) of its XOR runs (indices into scaleFunctions(), synthruns.h).
    std::vector<size_t> xorRunFunctions;
    /// Steps of one rank at the target.
    uint64_t stepCount() const { return form.length(loopCount); }
};

/// What a region of the synthesised trace is, taken from the inputs.
struct RegionInfo
{
    std::string name;
    RegionRole role = RegionRole::Function;
    Paradigm paradigm = Paradigm::Unknown;
    std::string file;
    uint32_t line = 0;
};

struct SynthesisPlan
{
    uint32_t target = 0;
    std::vector<uint32_t> scales;    ///< ascending
    std::vector<std::string> inputs; ///< the input traces' labels, in scale order
    Method method = Method::Rankscope;
    Placement placement{PlacementKind::Uniform};
    SkeletonContext context;
    std::vector<Role> roles;
    std::vector<int32_t> roleOfClass;       ///< class -> index into roles, -1 where none
    std::map<uint32_t, RegionInfo> regions; ///< by region-name symbol
    std::string threadName = "Master thread";
    std::string worldName = "MPI_COMM_WORLD";
    ExtrapolationResult timing;
    std::map<std::string, double> withinRankCv; ///< per interval `A - B`, at the target
    std::vector<UnruledInterval> unruled;       ///< carried from the nearest scale
    std::vector<Refusal> refused;               ///< non-empty: the program cannot be synthesised
    std::vector<std::string> warnings;          ///< what was carried without a rule
    std::vector<std::string> notes;             ///< what the synthesised trace leaves out, and why
    uint64_t events = 0;                        ///< events of the synthesised trace
    /// Roles carried from the largest scale showing them, or run by a position no input shows
    /// (warnings say which): their partners may make no matching call.
    uint32_t carriedRoles = 0;
    /// Why the roles could not be found without carrying (set when roles were carried): the
    /// refusal when the carried plan fails too.
    std::vector<Refusal> uncarried;
    bool cancelled = false;

    /// The role of rank r at the target (-1 when none).
    int32_t roleOf(uint32_t r, const ProcessGrid* grid) const;
    /// The grid at the target, for grid placements.
    std::optional<ProcessGrid> targetGrid() const { return placement.grid(target); }
    /// "grid 16 x 16", "one role for all ranks"...
    std::string placementText() const { return placement.describe(target); }
};

} // namespace synth

/// Builds the template from `traces` (at least 3 distinct scales of one program) for
/// options.target. Throws TraceError for bad input (too few or repeated scales, different
/// programs, an absurd target); a program that cannot be synthesised comes back with
/// `refused` filled.
synth::SynthesisPlan planSynthesis(const std::vector<const Trace*>& traces,
                                   const SynthesisOptions& options);

} // namespace rankscope::extrap
