#pragma once
// Another simulator that replays the same what-if (a scenario's `engine`), seen from the what-if
// pipeline (whatif/scenario/whatifpipeline.h). The pipeline asks it for the edited replay and
// shows both engines side by side; it does not know how the peer runs. SimGrid's `smpirun
// -replay` is the one implementation (importers/simgrid/simgridpeer.h); callers that want it
// pass it in, so the core needs no process handling of its own.

#include "model/support/progressreporter.h"
#include "model/trace/trace.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/simulation.h"

#include <cstdint>
#include <memory>
#include <string>

namespace rankscope::netsim {

/// Both engines' replay of one edited spec.
struct PeerRun
{
    std::string engine;              ///< the peer's name ("simgrid")
    std::string model;               ///< Rankscope's network model
    int64_t rankscopeNs = 0;         ///< Rankscope's predicted run time (the program's)
    double rankscopeWallSeconds = 0; ///< its replay's wall-clock time
    int64_t peerNs = 0;              ///< the peer's predicted run time
    double peerWallSeconds = 0;      ///< the peer's whole side: export, run and import
    double peerToolSeconds = 0;      ///< the peer's own process, start to exit
    double differencePercent = 0;    ///< (peer - Rankscope) / Rankscope in %
    std::shared_ptr<Trace> trace;    ///< the peer's predicted trace, when it writes one
    std::string placementNote;       ///< how ranks were placed on the spec's nodes, if said
};

class PeerEngine
{
public:
    virtual ~PeerEngine() = default;
    /// "simgrid"
    virtual std::string name() const = 0;
    /// Replays `trace` on `spec` with Rankscope (with `options`) and with the peer. Throws
    /// TraceError when the peer cannot run (naming why), Cancelled when `keepGoing` says stop.
    virtual PeerRun replay(const Trace& trace, const NetworkSpec& spec,
                           const SimulationOptions& options, const std::string& source,
                           const ProgressCallback& keepGoing) const = 0;
};

} // namespace rankscope::netsim
