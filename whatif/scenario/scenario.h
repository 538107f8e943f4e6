#pragma once
// A what-if scenario: one named question asked of one or more baseline traces, re-runnable and
// saved in session files (YAML, like network specs).
//
// Three kinds (all run by whatif::runWhatIf, whatifpipeline.h):
// - Replay: replay one baseline trace on a network spec (netsim::simulate), with edits of a copy
//   of the spec (overrides), a network model, collective algorithms and a CPU factor.
// - Scale: synthesise the trace of a scale never run from baselines at three or more scales
//   (extrap::synthesise), timed by a replay on the same kind of spec.
// - Extrapolate: the delta-time extrapolation of max_r S(r) to the target (extrap::extrapolate),
//   no trace and no network.
// Either may carry a sweep: one parameter and the values to try. A parameter is a spec key
// ("links.wan.latency", "wide_area_streams", "eager_limit"...), or "target" (Scale: the rank
// count) or "cpu_factor".
//
// Plain C++ (no Qt): the GUI, its tests and scripts read and write the same YAML.

#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace rankscope::whatif {

enum class ScenarioKind : uint8_t
{
    Replay,
    Scale,
    Extrapolate
};

struct Scenario
{
    std::string name;
    ScenarioKind kind = ScenarioKind::Replay;
    /// Trace paths. Replay: exactly one; Scale: one per input scale (three or more).
    std::vector<std::string> baselines;
    /// A measured run to compare the result with (Scale: a run at the target); may be empty.
    /// Empty for Replay means: compare with the baseline itself.
    std::string compareWith;
    std::string network; ///< network spec file path
    /// The baseline spec: the file with these (e.g. "Calibrate to this trace"); YAML
    /// `baseline_set`. The edits below apply on top of it.
    std::vector<netsim::SpecOverride> baselineOverrides;
    std::vector<netsim::SpecOverride> overrides; ///< the edits of the spec copy, in order
    std::string model = "loggp";                 ///< netsim::models()
    std::vector<std::pair<std::string, std::string>> collectives; ///< op -> algorithm
    double cpuFactor = 1.0;
    uint32_t target = 0; ///< Scale: the rank count to predict
    /// Scale: "rankscope" or "classic"; Extrapolate: also "auto" (the default there: YAML
    /// without `method` reads as "auto" for an extrapolation).
    std::string method = "rankscope";
    std::string mode = "interval"; ///< Extrapolate with the classic method: "interval" or "sum"
    /// Calibration of the spec before the run (netsim::chooseCalibration decides whether the
    /// fit is used): "auto" (Scale: to the largest input, the one nearest the target; Replay:
    /// none, the baseline_set carries any earlier one), "on" (also for a replay: to its trace)
    /// or "off". YAML `calibrate`, written only when not "auto".
    std::string calibrate = "auto";
    uint64_t seed = 1; ///< Scale: delta-time sampling
    /// Who replays it: "rankscope" (its own simulator) or "simgrid" (also SimGrid's
    /// `smpirun -replay`, compared side by side; replays without a sweep only). YAML `engine`,
    /// written only when not "rankscope".
    std::string engine = "rankscope";
    std::string sweepParam;               ///< empty: no sweep
    std::vector<std::string> sweepValues; ///< one run per value

    bool operator==(const Scenario&) const = default;
};

/// "replay" / "scale" / "extrapolate".
std::string kindName(ScenarioKind kind);

/// One line for lists and tooltips: "Replay of X on two-clusters-wan (links.wan.latency=20ms),
/// loggp".
std::string describe(const Scenario& scenario);

/// True when `param` is a scenario parameter rather than a spec key ("target", "cpu_factor").
bool isScenarioParam(const std::string& param);

/// `scenario` with `param` set to `value` (a sweep point): "target" and "cpu_factor" set those
/// fields; any other key becomes (or replaces) a spec override. Throws TraceError when the value
/// is not a number where one is needed ("target", "cpu_factor"). Spec keys are checked when the
/// spec is read with the overrides (netsim::NetworkSpec::withOverrides).
Scenario withParam(const Scenario& scenario, const std::string& param, const std::string& value);
/// Point `index` of `scenario`'s sweep as a scenario of its own: withParam with that value, no
/// sweep, named "<name> (<param>=<value>)". Throws as withParam does.
Scenario sweepPoint(const Scenario& scenario, size_t index);

/// The baseline spec's and then the edits' overrides (what the edited replay reads).
std::vector<netsim::SpecOverride> allOverrides(const Scenario& scenario);

/// `overrides` with `o` set: replaces an override of the same key, else appends.
void setOverride(std::vector<netsim::SpecOverride>& overrides, const netsim::SpecOverride& o);

/// Checks what can be checked without files: a name, baselines (Replay one, Scale three or
/// more), a network, a known model, method and engine, cpu factor in (0, 1000], Scale target
/// >= 1, sweep values present when a sweep parameter is, the SimGrid engine only for a replay
/// without a sweep. Returns the first problem, or empty.
std::string validate(const Scenario& scenario);

YAML::Node toYaml(const Scenario& scenario);
/// Reads one scenario; throws TraceError naming `source`, the line and the key.
Scenario scenarioFromYaml(const YAML::Node& node, const std::string& source);

} // namespace rankscope::whatif
