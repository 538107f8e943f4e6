#include "whatif/netsim/loggpmodel.h"

#include <algorithm>

namespace rankscope::netsim {

LogGpModel::LogGpModel(const Machine& machine, TransferSink& sink)
    : machine_(machine), sink_(sink), nics_(machine.networkCount() * machine.spec().nodes)
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

std::vector<LinkInfo> LogGpModel::linkInfo() const
{
    std::vector<LinkInfo> out;
    const NetworkSpec& spec = machine_.spec();
    for (size_t n = 0; n < machine_.networkCount(); ++n) {
        // An interface's class is that of its node's links (the first one, on a network
        // whose nodes have several).
        const Topology& t = machine_.topology(n);
        std::vector<uint32_t> cls(spec.nodes, UINT32_MAX);
        for (const Link& l : t.links())
            if (l.from < spec.nodes && cls[l.from] == UINT32_MAX) cls[l.from] = l.linkClass;
        const std::string& net = spec.networks[n].name;
        for (uint32_t k = 0; k < spec.nodes; ++k) {
            const std::string node = "n" + std::to_string(k);
            out.push_back(LinkInfo{net + ":" + node + ":nic",
                                   cls[k] == UINT32_MAX ? std::string() : spec.links[cls[k]].name,
                                   node, net});
        }
    }
    return out;
}

double LogGpModel::arrive(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                          Placement placement, double time)
{
    const ProtocolEntry& p = machine_.protocol(bytes);
    const uint32_t src = machine_.nodeOf(srcRank), dst = machine_.nodeOf(dstRank);
    const int net = machine_.channelBetween(src, dst, bytes, placement);
    if (net < 0) {
        // Ranks of one node: shared memory, no network interface involved.
        const double ns = transferTime(srcRank, dstRank, bytes, placement);
        if (recorder_) recorder_->message(transfer, 0, ns, 0);
        return time + ns;
    }
    const PathInfo path = machine_.topology(size_t(net)).path(src, dst);
    const double serial = double(bytes) / (path.bytesPerNs * p.bandwidthFactor);
    const size_t nic = size_t(net) * machine_.spec().nodes + src;
    Interface& n = nics_[nic];
    double begin = std::max(time, n.gapBegin);
    if (begin + serial <= n.gapEnd) {
        n.gapBegin = begin + serial; // what is left of the gap after it
    } else {
        begin = std::max(time, n.free);
        if (begin > n.free) { // idle until then: a gap an earlier-posted message may still take
            n.gapBegin = n.free;
            n.gapEnd = begin;
        }
        n.free = begin + serial;
    }
    const double arrival = begin + path.latencyNs + p.latencyNs + serial;
    if (recorder_) {
        recorder_->carry(uint32_t(nic), bytes);
        recorder_->busy(uint32_t(nic), begin, begin + serial);
        if (begin > time) recorder_->wait(uint32_t(nic), begin - time);
        recorder_->message(transfer, path.hops, arrival - time, begin - time);
    }
    return arrival;
}

} // namespace rankscope::netsim
