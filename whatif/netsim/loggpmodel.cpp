#include "whatif/netsim/loggpmodel.h"

#include <algorithm>

namespace rankscope::netsim {

LogGpModel::LogGpModel(const Machine& machine, TransferSink& sink)
    : machine_(machine), sink_(sink), nicFree_(machine.networkCount() * machine.spec().nodes, 0.0)
{
    // A spec read from a file has no negative latency and no zero bandwidth (specreader.cpp);
    // one built in code might.
    const NetworkSpec& spec = machine.spec();
    monotone_ = true;
    for (const LinkClass& c : spec.links)
        monotone_ = monotone_ && c.latencyNs >= 0 && c.bytesPerNs > 0;
    for (const ProtocolEntry& p : spec.protocol)
        monotone_ = monotone_ && p.latencyNs >= 0 && p.bandwidthFactor > 0;
}

double LogGpModel::transferTime(uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                                Placement placement) const
{
    const ProtocolEntry& p = machine_.protocol(bytes);
    const int net = machine_.channel(srcRank, dstRank, bytes, placement);
    double latency = p.latencyNs;
    double bw = 0;
    if (net < 0) {
        if (const LinkClass* shm = machine_.intraNode()) {
            latency += shm->latencyNs;
            bw = shm->bytesPerNs;
        }
    } else {
        const PathInfo path =
            machine_.topology(size_t(net)).path(machine_.nodeOf(srcRank), machine_.nodeOf(dstRank));
        latency += path.latencyNs;
        bw = path.bytesPerNs;
    }
    return latency + (bw > 0 ? double(bytes) / (bw * p.bandwidthFactor) : 0.0);
}

double LogGpModel::arrival(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
                           double time)
{
    const ProtocolEntry& p = machine_.protocol(bytes);
    const uint32_t src = machine_.nodeOf(srcRank), dst = machine_.nodeOf(dstRank);
    const int net = machine_.channelBetween(src, dst, bytes, placement);
    if (net < 0) {
        // Ranks of one node: shared memory, no network interface involved.
        return time + transferTime(srcRank, dstRank, bytes, placement);
    }
    const PathInfo path = machine_.topology(size_t(net)).path(src, dst);
    const double serial = double(bytes) / (path.bytesPerNs * p.bandwidthFactor);
    double& free = nicFree_[size_t(net) * machine_.spec().nodes + src];
    const double begin = std::max(time, free);
    free = begin + serial;
    return begin + path.latencyNs + p.latencyNs + serial;
}

} // namespace rankscope::netsim
