#pragma once
// SimGrid as the what-if pipeline's peer engine (whatif/netsim/peerengine.h): runSimGridEngine
// (simgridengine.h) behind the pipeline's interface, so `scenario run` and the GUI's what-if
// jobs get the same side-by-side figures from the same call.

#include "whatif/netsim/peerengine.h"

namespace rankscope::bench {

class SimGridPeer : public netsim::PeerEngine
{
public:
    std::string name() const override { return "simgrid"; }
    /// Throws TraceError when smpirun is missing (saying how to install it) or fails.
    netsim::PeerRun replay(const Trace& trace, const netsim::NetworkSpec& spec,
                           const netsim::SimulationOptions& options, const std::string& source,
                           const ProgressCallback& keepGoing) const override;
};

/// The one SimGridPeer of the program.
const SimGridPeer& simgridPeer();

} // namespace rankscope::bench
