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
    uint32_t nodeOf(uint32_t rank) const;
    size_t networkCount() const { return topologies_.size(); }
    const Topology& topology(size_t network) const { return topologies_[network]; }

    /// The network a message of `bytes` from `srcRank` to `dstRank` takes, by the policy or
    /// the hybrid step placement (the first network when there is no policy); -1 for ranks
    /// on one node.
    int channel(uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                Placement placement = Placement::Policy) const;
    /// The protocol-table row for a message of `bytes` (a neutral row without a table).
    const ProtocolEntry& protocol(uint64_t bytes) const;
    /// The link class between ranks of one node, or null when that costs nothing.
    const LinkClass* intraNode() const { return intraNode_; }

private:
    const NetworkSpec& spec_;
    std::vector<Topology> topologies_;
    int direct_ = -1;
    int fallback_ = 0;
    const LinkClass* intraNode_ = nullptr;
    ProtocolEntry neutral_;
};

} // namespace rankscope::netsim
