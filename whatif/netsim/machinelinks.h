#pragma once
// Every directed link of every network of a machine in one numbering, for the models that track
// links (packet and flow): link ids of network k are offset by the links of networks 0..k-1.
// When the intra-node link class is shared (its `sharing` above 0), each node also has one
// intra-node link after them, which the flow model routes the node's own messages over.

#include "whatif/netsim/linkstats.h"
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
    /// The link's sharing exponent (LinkClass::sharing): n flows get bytesPerNs * n^-sharing.
    double sharing(uint32_t link) const { return sharing_[link]; }
    /// The link's aggregate capacity with `flows` flows on it: bytesPerNs * n^(1 - sharing),
    /// times (maxStreams / n)^congestion above maxStreams flows (LinkClass).
    double capacity(uint32_t link, size_t flows) const;
    /// The intra-node link of `rank`'s node, or -1 when messages inside a node share nothing.
    int64_t intraNodeLink(uint32_t rank) const
    {
        return intraBase_ < 0 ? -1 : intraBase_ + int64_t(machine_.nodeOf(rank));
    }
    /// Replaces `route` with the links a message of `bytes` from `srcRank` to `dstRank` crosses
    /// (the channel policy picks the network); returns false for ranks of one node (no links).
    bool route(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
               std::vector<uint32_t>& route) const;
    /// What a message between ranks of one node costs: no network, no contention.
    double intraNodeNs(uint64_t bytes) const;
    /// Name, class and ends of every link, in this numbering.
    std::vector<LinkInfo> describe() const;

private:
    const Machine& machine_;
    std::vector<uint32_t> offset_; // first global id of each network
    std::vector<double> latencyNs_;
    std::vector<double> bytesPerNs_;
    std::vector<double> sharing_;
    std::vector<uint32_t> maxStreams_;
    std::vector<double> congestion_;
    int64_t intraBase_ = -1; // id of node 0's intra-node link
};

} // namespace rankscope::netsim
