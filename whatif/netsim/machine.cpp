#include "whatif/netsim/machine.h"

#include "model/trace/traceerror.h"

namespace rankscope::netsim {

Machine::Machine(const NetworkSpec& spec, uint32_t ranks) : spec_(spec)
{
    const uint64_t capacity = uint64_t(spec.nodes) * spec.ranksPerNode;
    if (spec.mapping == RankMapping::Trace)
        throw TraceError(spec.source + ": mapping: trace places ranks as a trace recorded them, "
                                       "and there is no trace here (use block, cyclic or file)");
    if (spec.mapping == RankMapping::File) {
        if (spec.mappingTable.size() < ranks)
            throw TraceError(spec.source + ": mapping_file: names the node of " +
                             std::to_string(spec.mappingTable.size()) + " ranks, the trace has " +
                             std::to_string(ranks));
    } else if (ranks > capacity) {
        throw TraceError(spec.source +
                         ": nodes: the machine is too small: " + std::to_string(spec.nodes) +
                         " nodes x " + std::to_string(spec.ranksPerNode) +
                         " ranks per node = " + std::to_string(capacity) +
                         " ranks, the trace has " + std::to_string(ranks));
    }
    topologies_.reserve(spec.networks.size());
    for (const NetworkDef& def : spec.networks)
        topologies_.emplace_back(spec, def);
    if (spec.hasPolicy) {
        direct_ = spec.networkIndex(spec.policy.direct);
        fallback_ = spec.networkIndex(spec.policy.fallback);
        if (!spec.policy.stridedNetwork.empty())
            strided_ = spec.networkIndex(spec.policy.stridedNetwork);
    }
    intraNode_ = spec.intraNodeLink.empty() ? nullptr : spec.link(spec.intraNodeLink);
}

int Machine::byPolicy(uint32_t a, uint32_t b, uint64_t bytes, Placement placement) const
{
    if (placement == Placement::Strided && strided_ >= 0) return strided_;
    const ChannelPolicy& p = spec_.policy;
    const Topology& direct = topologies_[size_t(direct_)];
    const bool hybrid = placement == Placement::Hybrid;
    if ((p.sameSubcluster || hybrid) && direct.subcluster(a) != direct.subcluster(b))
        return fallback_;
    // The size threshold holds for the hybrid steps too: above it the switched network is
    // faster whatever the distance (the TCA paper gains on PEACH2 up to 512 KiB only).
    if (bytes > p.maxBytes) return fallback_;
    if (p.maxHops != UINT32_MAX) {
        const PathInfo path = direct.path(a, b);
        if (path.hops > p.maxHops || path.hops == 0) return fallback_;
    }
    return direct_;
}

} // namespace rankscope::netsim
