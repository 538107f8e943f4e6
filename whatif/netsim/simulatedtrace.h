#pragma once
// The simulated run as a Trace (ALGORITHMS.md §7.1): the input's definitions and events, every
// event at its simulated time, so timeline, histograms and wait states work on it unchanged.
//
// Events the simulator placed (Enter/Leave of MPI calls, sends, receives, request completions,
// collective ends) take their simulated times; every other event keeps its distance from the
// placed event before it (times the CPU factor), never passing the next one, so each location
// stays in time order. Other locations of a rank (threads, devices) are shifted the same way.

#include "model/trace/trace.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <vector>

namespace rankscope::netsim {

/// What the provenance record of a simulated trace says.
struct SimulatedProvenance
{
    const NetworkSpec& spec;
    const SimulationOptions& options;
    /// What the network did, when collected: each message's contention delay goes into the
    /// trace (Trace::messageContentionNs()).
    const NetworkFigures* network = nullptr;
};

/// Builds the simulated trace from the replay's recorded action times.
Trace simulatedTrace(const Trace& input, const ActionProgram& program,
                     const std::vector<std::vector<ActionAnchor>>& anchors,
                     const std::vector<double>& actionTimes, const SimulatedProvenance& provenance);

/// The provenance parameters text: spec, overrides, model, algorithms, CPU factor.
std::string simulationParameters(const NetworkSpec& spec, const SimulationOptions& options);

} // namespace rankscope::netsim
