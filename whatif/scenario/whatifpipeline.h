#pragma once
// The what-if pipeline: the one place where a what-if question is answered. `runWhatIf` takes a
// scenario (scenario.h: a replay with edits, a scale prediction, an extrapolation; any of them
// with a sweep; a replay also with a peer engine) and the traces it names, already loaded, and
// returns one value: the prediction, the baseline replay on the unedited spec, the effect of the
// edit (edited - baseline), the comparison with a measured run over one span
// (model/analysis/runspan.h), the wait time of the prediction, the calibration used and why,
// and every warning. `rankscope-cli` (simulate, sweep, predict, extrapolate, calibrate,
// scenario run) and the GUI's what-if jobs call it; the GUI only runs it in the background and
// shows what it returns (docs/design-notes.md, "One what-if pipeline", draws the flow).
//
// Words: the *baseline replay* is the trace (Scale: the synthesised trace) replayed on the
// unedited spec (the file with the scenario's baseline_set and the calibration applied); the
// *edited replay* is the same with the scenario's edits (set, collectives, cpu_factor). The
// *effect* is edited - baseline; the *error* is prediction - measured. A sweep has one edited
// replay per value, all against the one baseline.

#include "model/support/progressreporter.h"
#include "model/trace/partialmark.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/extrapolation.h"
#include "whatif/extrap/synthcompare.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/calibrationchoice.h"
#include "whatif/netsim/networklayout.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/peerengine.h"
#include "whatif/scenario/scenario.h"
#include "whatif/scenario/scenariorun.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::whatif {

class BaselineCache;

/// The traces a scenario names, loaded, and its spec as read from its file.
struct WhatIfInputs
{
    netsim::NetworkSpec fileSpec; ///< no overrides; unused by an extrapolation
    std::vector<std::shared_ptr<const Trace>> baselines; ///< in Scenario::baselines order
    std::vector<std::string> names; ///< one per baseline (for messages); may be shorter
    /// The run to compare with (Scenario::compareWith); null: a replay compares with its
    /// baseline trace itself, a scale prediction with nothing.
    std::shared_ptr<const Trace> measured;
    std::string measuredName;
};

struct WhatIfPoint;

/// A scale prediction the synthesis refused: the message lists each refused call site, and
/// `refused` keeps them (predict --json prints them).
class SynthesisRefused : public TraceError
{
public:
    SynthesisRefused(const std::string& what, std::vector<extrap::Refusal> reasons)
        : TraceError(what), refused(std::move(reasons))
    {
    }
    std::vector<extrap::Refusal> refused;
};

struct WhatIfOptions
{
    bool keepTrace = false; ///< whole runs keep the predicted trace (WhatIfPoint::trace)
    bool linkStats = false; ///< whole replays: what the network did (WhatIfPoint::network)
    bool waitStates = true; ///< the wait time of each prediction (WhatIfPoint::waitNs)
    /// The peer for `engine: simgrid` (null: such a scenario reports that it has none).
    const netsim::PeerEngine* peer = nullptr;
    /// Baseline replays kept across calls (the GUI's: every run on a trace shares one); null:
    /// replayed in this call.
    BaselineCache* cache = nullptr;
    unsigned threads = 2; ///< sweep points run this many at a time
    /// Scale: the synthesis' limits (extrap::SynthesisOptions).
    uint64_t maxEvents = extrap::SynthesisOptions{}.maxEvents;
    double maxUnruledShare = extrap::SynthesisOptions{}.maxUnruledShare;
    /// Each sweep point as it ends (from a worker thread, one call at a time).
    std::function<void(const WhatIfPoint&)> onPoint;
    ProgressCallback progress; ///< 0..1; returning false cancels (runWhatIf throws Cancelled)
};

/// How the spec was calibrated before the run, and whether the fit is used.
struct WhatIfCalibration
{
    std::string source; ///< the trace it was fitted to (its name)
    uint32_t sourceRanks = 0;
    bool applied = false;
    bool partial = false;
    double uncalibratedErrorPct = 0; ///< the source's replay on the spec it started from
    double calibratedErrorPct = 0;   ///< on the fitted spec
    double appliedErrorPct = 0;      ///< on the spec used
    std::vector<netsim::SpecOverride> overrides; ///< applied on top of the baseline spec
    std::vector<netsim::CalibratedParameter> parameters;
    std::string placement; ///< Scale: how the target's ranks are placed
    std::string reason;
};

/// One prediction: the whole scenario, or one sweep point.
struct WhatIfPoint
{
    int index = -1;    ///< sweep point; -1 for a whole run
    std::string value; ///< the sweep value; empty for a whole run
    Scenario scenario; ///< as run (a sweep point with its value)
    uint32_t ranks = 0;
    uint64_t events = 0;
    RunTimes predicted; ///< over the span
    std::optional<int64_t> waitNs;
    /// The baseline replay (Replay: the result's; Scale: this point's synthesis on the unedited
    /// spec, the prediction itself when nothing is edited).
    std::optional<RunTimes> baseline;
    std::optional<int64_t> effectNs;    ///< predicted - baseline run time
    std::optional<double> effectPct;    ///< of the baseline run time
    std::optional<int64_t> mpiEffectNs; ///< predicted - baseline MPI time
    std::optional<double> errorPct;     ///< (predicted - measured) / measured run time in %
    std::string error;                  ///< a sweep point that failed (the other points stand)
    // Replay details (simulate prints them).
    std::vector<netsim::RankTimes> perRank;
    uint64_t messages = 0;
    int64_t predictedWholeRunNs = 0, inputWholeRunNs = 0;
    uint64_t stridedFaces = 0;
    std::string placementNote;
    std::shared_ptr<const netsim::NetworkPicture> network; ///< with WhatIfOptions::linkStats
    // Scale details (predict prints them); the synthesis without its trace.
    std::shared_ptr<const extrap::SynthesisResult> synthesis;
    std::optional<extrap::StructureMatch> structure; ///< against the measured run
    std::shared_ptr<Trace> trace;                    ///< with WhatIfOptions::keepTrace
};

/// An extrapolation scenario's results: the chosen method first, the other to compare.
struct WhatIfExtrapolation
{
    std::optional<extrap::ExtrapolationResult> rankscope, classic;
    std::optional<extrap::Method> autoChosen; ///< set when the method was chosen automatically
    std::vector<extrap::MethodCandidate> candidates;
    /// The result shown first: the automatic choice, else the one asked for.
    const extrap::ExtrapolationResult* primary() const;
};

struct WhatIfResult
{
    std::string name;
    ScenarioKind kind = ScenarioKind::Replay;
    std::string span; ///< RunSpan::name() of the compared runs
    std::optional<RunTimes> measured;
    std::optional<RunTimes> baseline;      ///< Replay: the baseline replay (Scale: per point)
    std::optional<int64_t> baselineWaitNs; ///< Replay: the baseline replay's wait time
    /// Replay: (baseline - measured) / measured run time: the replay's calibration error.
    std::optional<double> baselineErrorPct;
    std::optional<WhatIfCalibration> calibration;
    std::vector<WhatIfPoint> runs; ///< one, or one per sweep value in order
    std::string sweepParam;
    std::vector<std::string> notes;    ///< what the engines said besides the result
    std::vector<std::string> warnings; ///< what may make the answer wrong or empty
    /// Edits of link classes that no message crosses in the baseline replay (key -> why): they
    /// cannot change the answer.
    std::vector<std::pair<std::string, std::string>> idleEdits;
    std::optional<netsim::PeerRun> peer;
    std::string peerError; ///< the peer could not run (the Rankscope result stands)
    std::optional<WhatIfExtrapolation> extrapolation;
    /// The traces it rests on (baselines in order, then the measured run): path, partial flag
    /// and warnings, as every --json answer lists them.
    std::vector<TraceNotice> inputs;
};

/// Answers `s` on `in` (see the header note). Throws TraceError naming the scenario when it is
/// invalid, its traces are missing, an edit is bad or an engine refuses (each refused call site
/// named), and Cancelled when options.progress returns false. A sweep point that fails is
/// reported in its WhatIfPoint::error; the others stand.
WhatIfResult runWhatIf(const Scenario& s, const WhatIfInputs& in,
                       const WhatIfOptions& options = {});

/// The extrapolation of `s` (kind Extrapolate) with the automatic choice and the other method
/// beside it: what runWhatIf fills WhatIfResult::extrapolation with.
WhatIfExtrapolation runExtrapolation(const Scenario& s, const WhatIfInputs& in,
                                     const ProgressCallback& keepGoing = {}, int bins = 20);

/// Edits of `overrides` on link classes (`links.<class>.<field>`) that are not among
/// `usedLinkClasses`, the classes some message crossed (key -> why).
std::vector<std::pair<std::string, std::string>>
idleLinkEdits(const std::vector<netsim::SpecOverride>& overrides,
              const std::vector<std::string>& usedLinkClasses);

/// The baseline spec of `s`: the file with its baseline_set.
netsim::NetworkSpec baselineSpec(const Scenario& s, const netsim::NetworkSpec& fileSpec);

} // namespace rankscope::whatif
