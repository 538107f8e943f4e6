#pragma once
// `simulate --engine simgrid`: the same scenario replayed by SimGrid (`smpirun -replay`) beside
// Rankscope's own replay. The trace becomes an action program (as Rankscope replays it), written
// as SimGrid time-independent traces with a platform from the network spec
// (importers/simgrid/simgridexport.h); smpirun replays them with tracing on, and its Paje trace
// is imported as the predicted trace. Both engines' predicted run times, their difference and
// each engine's wall-clock time are printed.

#include "app/cli/clicommon.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <string>

namespace rankscope::cli {

struct SimGridEngineRequest
{
    std::string tracePath;
    netsim::NetworkSpec spec;
    netsim::SimulationOptions options; ///< Rankscope's replay (model, cpu factor, algorithms)
    std::string workDir; ///< where the TI traces, platform and Paje output go; empty: a temporary
                         ///< folder, removed afterwards
    bool json = false;
};

/// Runs both engines and prints the comparison. Returns the exit code: kBadInput with a message
/// saying how to install SimGrid when smpirun is not on PATH.
int runSimGridEngine(const Trace& trace, const SimGridEngineRequest& request);

} // namespace rankscope::cli
