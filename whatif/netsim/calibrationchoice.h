#pragma once
// Whether a calibration is used (ARCHITECTURE.md, "Comparing measured and predicted runs"): a
// fit (calibration.h) is applied only when the replay of its source trace on the fitted spec
// lands strictly nearer the measured span than the replay on the spec it started from. When the
// joint fit does not, the parameters fitted one at a time may count one effect twice (on a node
// with more ranks than cores, a send's duration and a message's latency both hold the time a
// rank waits to be scheduled), so every combination of them (the placement always kept) is
// replayed, and the one nearest the run is applied when it beats the starting spec. Otherwise
// nothing is applied, and the reason says so with both errors.
//
// Every caller that calibrates (`calibrate`, `predict`, scale and replay scenarios, the what-if
// panel's "Calibrate to this trace") decides here, so they cannot disagree.

#include "model/trace/trace.h"
#include "whatif/netsim/calibration.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <string>
#include <vector>

namespace rankscope::netsim {

struct CalibrationChoice
{
    CalibrationResult fit; ///< the joint fit on the source trace
    bool applied = false;  ///< `spec` carries fitted values (all, or a combination)
    bool partial = false;  ///< applied in part: the combination in appliedParameters
    std::vector<std::string> appliedParameters; ///< fitted keys applied (the placement aside)
    /// What is applied on top of the starting spec, in order (empty when not applied).
    std::vector<SpecOverride> overrides;
    NetworkSpec spec;                ///< the spec to use: the starting one plus `overrides`
    double uncalibratedErrorPct = 0; ///< the starting spec's replay of the source, %
    double calibratedErrorPct = 0;   ///< the joint fit's replay of the source, %
    double appliedErrorPct = 0;      ///< the used spec's replay of the source, %
    std::string reason;              ///< why it was applied, in part, or not at all
};

/// Calibrates `spec` to `source` (calibrate(), with `placement`) and decides what is used.
/// Throws TraceError as calibrate() does.
CalibrationChoice chooseCalibration(const Trace& source, const NetworkSpec& spec,
                                    const SimulationOptions& replay,
                                    CalibrationPlacement placement = CalibrationPlacement::Auto);

} // namespace rankscope::netsim
