#pragma once
// Scale what-if on the machine the inputs ran on (`predict --calibrate`): the network spec is
// calibrated (netsim::calibrate) to the largest input trace, the one nearest the target, and the
// target's ranks are placed as the inputs were placed, so the replay of the synthesised trace
// pays what messages cost on that machine rather than on the spec's.
//
// Placement: when every input records the compute node of each rank and each ran on one node,
// the target runs on one node too (ranks_per_node = target); when they ran on several, the
// target keeps the largest input's ranks per node (block mapping). Inputs without node records
// keep the spec's placement. The largest input is used, not a fit of each parameter across the
// inputs: on the real multi-scale traces the fitted latencies do not follow a trend (CloverLeaf
// on one node: 0.71, 1.21, 1.07 ms at 4, 8, 16 ranks), and the nearest scale is the best guess.
// Whether the fit is used is decided by netsim::chooseCalibration, as for every other caller: a
// fit whose replay of the source lands further from the measured run than the spec's own
// replay (NPB MG W at 16 ranks: -80.7 % before, +422.1 % after) is not used as a whole; the
// combination of its parameters that replays the source best is, when it beats the spec (MG:
// the send overhead alone, +57 %; the shared-memory latency fitted to oversubscribed waits
// counts the same waits again).

#include "model/trace/trace.h"
#include "whatif/netsim/calibrationchoice.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::extrap {

struct ScaleCalibration
{
    netsim::NetworkSpec spec;      ///< calibrated, placed for the target
    netsim::CalibrationResult fit; ///< the calibration on the source trace
    size_t source = 0;             ///< index of the input it was calibrated on
    uint32_t sourceRanks = 0;
    std::string placement; ///< how the target's ranks are placed, in words
    /// False when the fitted spec replayed the source trace further from its run than the
    /// spec did: then the spec's own parameters are kept (placed as above), and `note` says so.
    bool applied = true;
    /// Applied in part: the joint fit replayed the source worse than the spec, and the
    /// combination of fitted parameters in `appliedParameters` replays it best (and better than
    /// the spec); `note` says so.
    bool partial = false;
    std::vector<std::string> appliedParameters; ///< fitted keys applied (the placement aside)
    double appliedErrorPct = 0; ///< the applied spec's replay of the source, % from its run
    /// The fitted values applied on top of the starting spec (netsim::CalibrationChoice).
    std::vector<netsim::SpecOverride> overrides;
    std::string note; ///< why the fit was applied, in part, or not (CalibrationChoice::reason)
};

/// Calibrates `spec` to the largest of `traces` and places `target` ranks as the inputs ran.
/// Throws TraceError when the calibration fails (the trace does not fit the spec's machine).
ScaleCalibration calibrateForTarget(const std::vector<const Trace*>& traces,
                                    const netsim::NetworkSpec& spec, uint32_t target,
                                    const netsim::SimulationOptions& replay);

} // namespace rankscope::extrap
