#pragma once
// Which messages crossed a link (the network view's click on a link): each point-to-point
// message of a program routed again as the replay routed it (the spec's channel policy and the
// topology's routes are fixed, so the same message takes the same links), and per link the
// heaviest kept. Computed after the replay, off the GUI thread, only when asked for
// (SimulationOptions::heaviestPerLink): the replay itself is not slowed.

#include "whatif/netsim/actionprogram.h"
#include "whatif/netsim/linkstats.h"
#include "whatif/netsim/networkspec.h"

#include <string>
#include <vector>

namespace rankscope::netsim {

/// Per link of `figures` (numbered as `model` numbers them: a network interface per node and
/// network for "loggp", MachineLinks' links otherwise), the `n` heaviest point-to-point
/// messages of `program` that crossed it: most bytes first, then the longest contention
/// delay, then in message order. Their transfer and contention figures come from
/// `figures.messages` (zero when it does not have them).
std::vector<std::vector<LinkMessage>> heaviestMessages(const ActionProgram& program,
                                                       const NetworkSpec& spec,
                                                       const std::string& model,
                                                       const NetworkFigures& figures, size_t n);

} // namespace rankscope::netsim
