#pragma once
// `simulate --engine simgrid`: prints the comparison of Rankscope's replay and SimGrid's
// (`smpirun -replay`) of one trace, computed by importers/simgrid/simgridengine.h.

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
