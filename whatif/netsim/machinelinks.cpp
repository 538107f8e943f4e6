#include "whatif/netsim/machinelinks.h"

#include <cmath>

namespace rankscope::netsim {

MachineLinks::MachineLinks(const Machine& machine) : machine_(machine)
{
    for (size_t n = 0; n < machine.networkCount(); ++n) {
        offset_.push_back(uint32_t(latencyNs_.size()));
        for (const Link& l : machine.topology(n).links()) {
            latencyNs_.push_back(l.latencyNs);
            bytesPerNs_.push_back(l.bytesPerNs);
            sharing_.push_back(l.sharing);
            maxStreams_.push_back(l.maxStreams);
            congestion_.push_back(l.congestion);
        }
    }
    const LinkClass* shm = machine.intraNode();
    if (shm && shm->sharingOr(0) > 0) {
        intraBase_ = int64_t(latencyNs_.size());
        for (uint32_t n = 0; n < machine.spec().nodes; ++n) {
            latencyNs_.push_back(shm->latencyNs);
            bytesPerNs_.push_back(shm->bytesPerNs);
            sharing_.push_back(shm->sharingOr(0));
            maxStreams_.push_back(shm->maxStreams);
            congestion_.push_back(shm->congestion);
        }
    }
}

bool MachineLinks::route(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
                         std::vector<uint32_t>& route) const
{
    route.clear();
    const int net = machine_.channel(srcRank, dstRank, bytes, placement);
    if (net < 0) return false;
    machine_.topology(size_t(net)).route(machine_.nodeOf(srcRank), machine_.nodeOf(dstRank), route);
    for (uint32_t& l : route)
        l += offset_[size_t(net)];
    return true;
}

double MachineLinks::capacity(uint32_t link, size_t flows) const
{
    const double n = double(flows);
    double c = bytesPerNs_[link];
    if (sharing_[link] != 1 && n > 1) c *= std::pow(n, 1 - sharing_[link]);
    if (maxStreams_[link] > 0 && n > maxStreams_[link])
        c *= std::pow(double(maxStreams_[link]) / n, congestion_[link]);
    return c;
}

double MachineLinks::intraNodeNs(uint64_t bytes) const
{
    const ProtocolEntry& p = machine_.protocol(bytes);
    const LinkClass* shm = machine_.intraNode();
    if (!shm) return p.latencyNs;
    return p.latencyNs + shm->latencyNs + double(bytes) / (shm->bytesPerNs * p.bandwidthFactor);
}

} // namespace rankscope::netsim

namespace rankscope::netsim {

std::vector<LinkInfo> MachineLinks::describe() const
{
    std::vector<LinkInfo> out;
    out.reserve(size());
    const NetworkSpec& spec = machine_.spec();
    for (size_t n = 0; n < machine_.networkCount(); ++n) {
        const Topology& t = machine_.topology(n);
        const std::string& net = spec.networks[n].name;
        for (const Link& l : t.links()) {
            std::string from = t.vertexName(l.from), to = t.vertexName(l.to);
            out.push_back(LinkInfo{net + ":" + from + "->" + to, spec.links[l.linkClass].name,
                                   std::move(from), std::move(to)});
        }
    }
    if (intraBase_ >= 0)
        for (uint32_t n = 0; n < spec.nodes; ++n) {
            const std::string node = "n" + std::to_string(n);
            out.push_back(
                LinkInfo{spec.intraNodeLink + ":" + node, spec.intraNodeLink, node, node});
        }
    return out;
}

} // namespace rankscope::netsim
