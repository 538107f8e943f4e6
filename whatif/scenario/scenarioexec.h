#pragma once
// Runs one scenario's engine (scenario.h): the replay of its baseline on the edited spec, or the
// synthesis of its target scale from its baselines. The GUI's what-if job and the command line
// both call it; neither knows how a scenario maps onto the engines.

#include "model/trace/trace.h"
#include "whatif/netsim/networklayout.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/scenario/scenario.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rankscope::whatif {

/// The baselines a scenario runs on, in its `baselines` order, and names for messages.
struct ScenarioInputs
{
    netsim::NetworkSpec fileSpec; ///< as read from its file; the scenario's overrides go on top
    std::vector<std::shared_ptr<const Trace>> traces;
    std::vector<std::string> names; ///< may be shorter than traces (then unnamed)
    /// Replays: also collect what the network did (ScenarioRunResult::network).
    bool linkStats = false;
};

struct ScenarioRunResult
{
    std::shared_ptr<Trace> trace;   ///< the replayed or synthesised run
    int64_t runtimeNs = 0;          ///< predicted run time (replay: over the span)
    int64_t mpiNs = 0;              ///< replay: MPI time summed over ranks; scale: 0
    std::vector<std::string> notes; ///< what the engine said besides the result
    /// Replays with ScenarioInputs::linkStats: the link figures and where to draw them.
    std::shared_ptr<const netsim::NetworkPicture> network;
};

/// Runs `s` (validated first) on `in`. Throws TraceError naming the scenario when it is invalid,
/// its baselines are missing or the synthesis refuses (with each refused call site), and
/// Cancelled when `keepGoing` (0..1) returns false.
ScenarioRunResult runScenario(const Scenario& s, const ScenarioInputs& in,
                              const std::function<bool(double)>& keepGoing = {});

} // namespace rankscope::whatif
