#pragma once
// The values of a replay what-if (the measured run, the baseline replay on the unedited spec,
// each edited replay and its effect, edited - baseline), the baseline replay itself (cached by
// baselinecache.h), and the reading of scenario files. The what-if pipeline
// (whatifpipeline.h) is what answers a scenario; these are its pieces.

#include "whatif/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope {
class Trace;
}

namespace rankscope::whatif {

/// Run time (span) and MPI time summed over ranks of one run.
struct RunTimes
{
    int64_t runNs = 0;
    int64_t mpiNs = 0;
    bool operator==(const RunTimes&) const = default;
};

/// One edited replay: the scenario as saved, or one sweep point.
struct EditedRun
{
    std::string value; ///< the sweep value; empty without a sweep
    RunTimes edited;
    int64_t effectNs = 0;            ///< edited - baseline run time
    std::optional<double> effectPct; ///< effectNs / baseline run time in %
    int64_t mpiEffectNs = 0;         ///< edited - baseline MPI time
    bool operator==(const EditedRun&) const = default;
};

/// The measured run and its baseline replay, over one span (model/analysis/runspan.h).
struct BaselineReplay
{
    std::string span;
    RunTimes measured;
    RunTimes baseline;
    /// The what-if pipeline's baselines (whatifpipeline.h) also carry the replay's wait time
    /// and the link classes its messages crossed (to flag edits that cannot change anything).
    std::optional<int64_t> waitNs;
    std::optional<std::vector<std::string>> usedLinkClasses;
    bool operator==(const BaselineReplay&) const = default;
};

struct ScenarioOutcome
{
    std::string name;
    std::string span; ///< RunSpan::name() of the baseline trace
    RunTimes measured;
    RunTimes baseline;
    /// (baseline - measured) / measured run time in %: the replay's calibration error.
    std::optional<double> calibrationErrorPct;
    std::vector<EditedRun> edited; ///< one, or one per sweep value
    bool operator==(const ScenarioOutcome&) const = default;
};

/// Replays `trace` on the unedited `spec` with network `model`: the baseline of its what-ifs.
BaselineReplay baselineReplay(const Trace& trace, const netsim::NetworkSpec& spec,
                              const std::string& model);

/// `edited` against the baseline: the effect (edited - baseline) in ns and %.
EditedRun editedRun(const std::string& value, const BaselineReplay& base, const RunTimes& edited);

/// The outcome of one edited run against `base` (the calibration error apart).
ScenarioOutcome outcomeOf(const std::string& name, const BaselineReplay& base,
                          std::vector<EditedRun> edited);

/// The scenarios of a YAML file: a single scenario (a map with `name`), or a session or list
/// file with `scenarios:`. Relative trace and network paths are taken from the file's folder.
/// Throws TraceError naming the file, line and key. A session file (`rankscope_session:`) is
/// first checked as the GUI opens it (checkSessionDocument).
std::vector<Scenario> readScenarioFile(const std::string& path);

/// The session file format this build reads and writes (`rankscope_session: 1`).
constexpr int kSessionFormatVersion = 1;

/// What the GUI and `scenario run` both require of a session document: `rankscope_session` is
/// kSessionFormatVersion, and each `results:` entry is a scenario (a map) or names one of its
/// `scenarios:`. Throws TraceError "<source>:<line>: <key>: ...".
void checkSessionDocument(const YAML::Node& root, const std::string& source);

} // namespace rankscope::whatif
