#pragma once
// Every directed link of every network of a machine in one numbering, for the models that track
// links (packet and flow): link ids of network k are offset by the links of networks 0..k-1.

#include "whatif/netsim/machine.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class MachineLinks
{
public:
    explicit MachineLinks(const Machine& machine);

    size_t size() const { return latencyNs_.size(); }
    double latencyNs(uint32_t link) const { return latencyNs_[link]; }
    double bytesPerNs(uint32_t link) const { return bytesPerNs_[link]; }
    /// Replaces `route` with the links a message of `bytes` from `srcRank` to `dstRank` crosses
    /// (the channel policy picks the network); returns false for ranks of one node (no links).
    bool route(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
               std::vector<uint32_t>& route) const;
    /// What a message between ranks of one node costs: no network, no contention.
    double intraNodeNs(uint64_t bytes) const;

private:
    const Machine& machine_;
    std::vector<uint32_t> offset_; // first global id of each network
    std::vector<double> latencyNs_;
    std::vector<double> bytesPerNs_;
};

} // namespace rankscope::netsim
