#include "whatif/netsim/packetmodel.h"

#include <algorithm>

namespace rankscope::netsim {

PacketModel::PacketModel(const Machine& machine, TransferSink& sink)
    : links_(machine), machine_(machine), sink_(sink),
      packetBytes_(double(machine.spec().packetBytes)), cutThrough_(machine.spec().cutThrough),
      release_(links_.size(), 0.0)
{
}

void PacketModel::start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                        Placement placement, double time)
{
    uint32_t m;
    if (!freeMessages_.empty()) {
        m = freeMessages_.back();
        freeMessages_.pop_back();
    } else {
        m = uint32_t(messages_.size());
        messages_.emplace_back();
    }
    Message& msg = messages_[m];
    if (!links_.route(srcRank, dstRank, bytes, placement, msg.route)) {
        freeMessages_.push_back(m);
        sink_.delivered(transfer, time + links_.intraNodeNs(bytes));
        return;
    }
    const ProtocolEntry& p = machine_.protocol(bytes);
    msg.transfer = transfer;
    msg.inFlight = 0;
    msg.unsent = bytes;
    msg.factor = p.bandwidthFactor;
    msg.extraNs = p.latencyNs;
    msg.arrival = time;
    hop(newPacket(m, time), time); // an empty message still sends one (empty) packet
}

uint32_t PacketModel::newPacket(uint32_t message, double time)
{
    Message& msg = messages_[message];
    const double bytes = std::min(double(msg.unsent), packetBytes_);
    msg.unsent -= uint64_t(bytes);
    ++msg.inFlight;
    uint32_t k;
    if (!freePackets_.empty()) {
        k = freePackets_.back();
        freePackets_.pop_back();
    } else {
        k = uint32_t(packets_.size());
        packets_.emplace_back();
    }
    packets_[k] = Packet{message, 0, bytes, time};
    return k;
}

void PacketModel::onEvent(uint32_t payload, double time)
{
    hop(payload, time);
}

void PacketModel::hop(uint32_t k, double time)
{
    Packet& pk = packets_[k];
    const uint32_t m = pk.message;
    Message& msg = messages_[m];
    const uint32_t link = msg.route[pk.hop];
    const double lock = std::max(time, release_[link]);
    const double serial = pk.bytes / (links_.bytesPerNs(link) * msg.factor);
    const double released = cutThrough_ ? std::max(lock + serial, pk.tail) : lock + serial;
    release_[link] = released;
    const double latency = links_.latencyNs(link);
    const bool first = pk.hop == 0;
    const bool last = pk.hop + 1 == msg.route.size();
    if (last) {
        msg.arrival = std::max(msg.arrival, released + latency);
        --msg.inFlight;
        freePackets_.push_back(k);
    } else {
        ++pk.hop;
        pk.tail = released + latency;
        sink_.scheduleModelEvent(cutThrough_ ? lock + latency : pk.tail, k);
    }
    if (first && msg.unsent > 0) {
        // The next packet asks for the first link when this one releases it.
        sink_.scheduleModelEvent(released, newPacket(m, released));
    } else if (msg.inFlight == 0 && msg.unsent == 0) {
        sink_.delivered(msg.transfer, msg.arrival + msg.extraNs);
        freeMessages_.push_back(m);
    }
}

} // namespace rankscope::netsim
