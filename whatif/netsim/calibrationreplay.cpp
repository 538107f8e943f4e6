#include "whatif/netsim/calibration.h"

#include <cmath>

namespace rankscope::netsim {

CalibrationReplay replayAgainstMeasured(const Trace& trace, const NetworkSpec& spec,
                                        const SimulationOptions& replay)
{
    SimulationOptions options = replay;
    options.buildTrace = false;
    const SimulationResult r = simulate(trace, spec, options);
    CalibrationReplay out;
    out.measuredNs = r.inputRuntimeNs;
    out.predictedNs = r.predictedRuntimeNs;
    out.errorPct = r.inputRuntimeNs > 0 ? 100.0 * double(r.predictedRuntimeNs - r.inputRuntimeNs) /
                                              double(r.inputRuntimeNs)
                                        : 0.0;
    for (const RankTimes& t : r.perRank) {
        const double e = t.inputMpiNs > 0
                             ? 100.0 * double(t.mpiNs - t.inputMpiNs) / double(t.inputMpiNs)
                             : (t.mpiNs > 0 ? 100.0 : 0.0);
        out.maxRankMpiErrorPct = std::max(out.maxRankMpiErrorPct, std::abs(e));
        if (std::abs(e) <= 20.0) ++out.ranksMpiWithin20Pct;
    }
    return out;
}

} // namespace rankscope::netsim
