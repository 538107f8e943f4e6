#include "importers/simgrid/simgridpeer.h"

#include "importers/simgrid/simgridengine.h"
#include "model/trace/traceerror.h"

namespace rankscope::bench {

netsim::PeerRun SimGridPeer::replay(const Trace& trace, const netsim::NetworkSpec& spec,
                                    const netsim::SimulationOptions& options,
                                    const std::string& source,
                                    const ProgressCallback& keepGoing) const
{
    SimGridEngineRequest r;
    r.spec = spec;
    r.options = options;
    r.source = source;
    double fraction = 0;
    r.progress = [&fraction](double f) { fraction = f; };
    r.cancelled = [&] { return keepGoing && !keepGoing(fraction); };
    SimGridEngineResult result;
    try {
        result = runSimGridEngine(trace, r);
    } catch (const SimGridUnavailable& e) {
        throw TraceError(e.what());
    }
    netsim::PeerRun p;
    p.engine = name();
    p.model = result.model;
    p.rankscopeNs = result.rankscopeNs;
    p.rankscopeWallSeconds = result.rankscopeWallSeconds;
    p.peerNs = result.simgridNs;
    p.peerWallSeconds = result.simgridWallSeconds();
    p.peerToolSeconds = result.smpirunSeconds;
    p.differencePercent = result.differencePercent;
    p.trace = std::move(result.simgridTrace);
    p.placementNote = result.placementNote;
    return p;
}

const SimGridPeer& simgridPeer()
{
    static const SimGridPeer peer;
    return peer;
}

} // namespace rankscope::bench
