#pragma once
// The simulated machine: where each rank runs, the networks over the nodes, which network a
// message takes (ALGORITHMS.md §9) and the size-dependent protocol costs (§7.3).

#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/topology.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class Machine
{
public:
    /// Places `ranks` ranks on the nodes of `spec`; throws TraceError when they do not fit.
    Machine(const NetworkSpec& spec, uint32_t ranks);

    const NetworkSpec& spec() const { return spec_; }
    uint32_t nodeOf(uint32_t rank) const
    {
        switch (spec_.mapping) {
        case RankMapping::Block:
        case RankMapping::Trace: // Trace is refused by the constructor
            // One rank per node is the usual machine: no division per message end.
            return spec_.ranksPerNode == 1 ? rank : rank / spec_.ranksPerNode;
        case RankMapping::Cyclic:
            return rank % spec_.nodes;
        case RankMapping::File:
            return spec_.mappingTable[rank];
        }
        return 0;
    }
    size_t networkCount() const { return topologies_.size(); }
    const Topology& topology(size_t network) const { return topologies_[network]; }

    /// The network a message of `bytes` from `srcRank` to `dstRank` takes, by the policy or
    /// the hybrid step placement (the first network when there is no policy); -1 for ranks
    /// on one node.
    int channel(uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                Placement placement = Placement::Policy) const
    {
        return channelBetween(nodeOf(srcRank), nodeOf(dstRank), bytes, placement);
    }
    /// The same for a message between nodes `a` and `b` (a model that knows them already).
    int channelBetween(uint32_t a, uint32_t b, uint64_t bytes,
                       Placement placement = Placement::Policy) const
    {
        if (a == b) return -1;
        return direct_ < 0 ? 0 : byPolicy(a, b, bytes, placement);
    }
    /// The protocol-table row for a message of `bytes` (a neutral row without a table).
    const ProtocolEntry& protocol(uint64_t bytes) const
    {
        for (const ProtocolEntry& e : spec_.protocol)
            if (bytes <= e.upToBytes) return e;
        return neutral_;
    }
    /// The link class between ranks of one node, or null when that costs nothing.
    const LinkClass* intraNode() const { return intraNode_; }

private:
    /// channelBetween() of two nodes on a machine with a channel policy.
    int byPolicy(uint32_t a, uint32_t b, uint64_t bytes, Placement placement) const;

    const NetworkSpec& spec_;
    std::vector<Topology> topologies_;
    int direct_ = -1;
    int fallback_ = 0;
    int strided_ = -1; ///< the network strided faces take, -1: by the policy's rules
    const LinkClass* intraNode_ = nullptr;
    ProtocolEntry neutral_;
};

} // namespace rankscope::netsim
