#pragma once
// Fits a network spec to what a trace measured (the `calibrate` command and the what-if panel's
// "Calibrate to this trace"), so that the baseline replay of the trace comes near its run.
//
// Method (calibrationsamples.h says which observations are used and why): ordinary least
// squares (Eigen) of the LogGP terms, so the calibrated replay reproduces the mean measured cost
// (waiting and noise included, which is what the run time adds up):
//  - the eager limit first: the candidate (the spec's, each message size, "all rendezvous")
//    whose protocol explains the blocking sends' durations best (eager: o_s; rendezvous: until
//    the data arrived), taken only when it halves the spec's limit's squared error;
//  - o_s: the mean duration of eager single-message sends;
//  - per link class (a route made of links of one class, or the intra-node link): latency and
//    bandwidth from
//      t - o_s - o_r - protocol latency(b) = hops * L + b / (B * protocol factor(b))
//    over the calls that waited for their messages (t: the completing call's end minus the
//    send call's start), blocking rendezvous sends (t: their duration, no o_r) and barriers
//    (the last entry to the last exit: ceil(log2 P) dissemination rounds of empty messages);
//  - o_r: the mean duration of blocking receives whose message had arrived by the fitted
//    transfer time when they were entered; the link fit is repeated with it (three rounds).
// A parameter the trace cannot determine keeps the spec's value and says why: too few samples,
// one message size (bandwidth), a fitted value <= 0, or a relative standard error of 100 % or
// more. The protocol table's rows (size thresholds, extra latencies) are kept as in the spec.

#include "model/trace/trace.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope::netsim {

/// One spec parameter before and after calibration.
struct CalibratedParameter
{
    std::string key;    ///< the spec key, as `--set` takes it ("links.hdr.latency")
    std::string before; ///< value with units, as in the spec
    std::string after;  ///< value with units (= before when not determined)
    bool determined = false;
    uint64_t samples = 0; ///< observations behind the value
    /// Relative standard error of the fitted value; nothing when it cannot be estimated.
    std::optional<double> relStdError;
    std::string note; ///< why it was not determined, or how it was
    bool operator==(const CalibratedParameter&) const = default;
};

/// Replay of the trace on one spec, against the measured span (model/analysis/runspan.h).
struct CalibrationReplay
{
    int64_t measuredNs = 0;
    int64_t predictedNs = 0;
    double errorPct = 0;           ///< (predicted - measured) / measured * 100
    double maxRankMpiErrorPct = 0; ///< the largest |error| of a rank's MPI time
    uint32_t ranksMpiWithin20Pct = 0;
    bool operator==(const CalibrationReplay&) const = default;
};

struct CalibrationResult
{
    NetworkSpec spec; ///< the calibrated spec (the input with overrides)
    std::vector<CalibratedParameter> parameters;
    CalibrationReplay before, after;
    uint64_t transferSamples = 0, skippedTransfers = 0; ///< skipped: routes of mixed classes
    bool operator==(const CalibrationResult&) const = default;
};

/// Where calibration places the ranks. Trace: on the compute nodes the trace recorded
/// (`mapping: trace`, traceplacement.h), when it records them. Auto: the same, unless ranks
/// sharing a node also send to other nodes (the fit does not model their queueing at the
/// node's interface). Spec: as the spec says.
enum class CalibrationPlacement : uint8_t
{
    Auto,
    Trace,
    Spec
};

/// Calibrates `spec` to `trace`; `replay` chooses the model etc. of the before/after replays
/// (the fit itself assumes LogGP terms). The placement comes first (the "mapping" parameter):
/// everything else is fitted on it. Throws TraceError when the trace does not fit on the
/// spec's machine or its replay fails.
CalibrationResult calibrate(const Trace& trace, const NetworkSpec& spec,
                            const SimulationOptions& replay,
                            CalibrationPlacement placement = CalibrationPlacement::Auto);

/// The replay of `trace` on `spec`, compared with the measured span.
CalibrationReplay replayAgainstMeasured(const Trace& trace, const NetworkSpec& spec,
                                        const SimulationOptions& replay);

} // namespace rankscope::netsim
