#include "whatif/netsim/machine.h"

#include "model/support/memorybudget.h"
#include "model/trace/traceerror.h"
#include "whatif/netsim/topology.h"

namespace rankscope::netsim {

namespace {

// What a machine costs while a replay runs, besides the program: per directed link its Link
// (48 bytes), its entry in its vertex's list and the network model's state for it; per vertex
// its list of links (a vector and its allocation); per node its slot of lazily built route
// trees. Peak memory of `collective --ranks 4` measured on 2 cores: a crossbar of 16,777,216
// nodes (33.5 M links) 3.61 GB with loggp, 4.69 GB packet, 5.48 GB flow; a 32-ary 4-tree of
// 1,048,576 nodes (8.4 M links, 131,072 switches) 0.63, 0.98, 1.16 GB. The flow model's figures
// give 108-122 bytes per link and about 111 per vertex; these constants estimate 1.3-1.4 times
// the largest peak.
constexpr uint64_t kMachineBytesPerLink = 160;
constexpr uint64_t kMachineBytesPerVertex = 96;
constexpr uint64_t kMachineBytesPerNode = 48;

uint64_t machineMemoryBytes(uint64_t links, uint64_t vertices, uint64_t nodes)
{
    return links * kMachineBytesPerLink + vertices * kMachineBytesPerVertex +
           nodes * kMachineBytesPerNode;
}

} // namespace

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
    // A spec of millions of nodes takes gigabytes before the first message (the links, each
    // vertex's list of links, per-source route trees, the model's per-link state): refused at
    // once, naming the spec, when the machine has not the memory (model/support/memorybudget.h).
    uint64_t links = 0, vertices = 0;
    for (const NetworkDef& def : spec.networks) {
        const auto [l, v] = Topology::plannedSize(spec, def);
        links += l, vertices += v;
    }
    requireMemory(spec.source + ": the machine of " + std::to_string(spec.nodes) + " nodes (" +
                      std::to_string(links) + " links)",
                  machineMemoryBytes(links, vertices, spec.nodes), availableMemoryBytes());
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
