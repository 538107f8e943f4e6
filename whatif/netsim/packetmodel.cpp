#include "whatif/netsim/packetmodel.h"

#include <algorithm>
#include <bit>
#include <limits>

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
        const double ns = links_.intraNodeNs(bytes);
        if (recorder_) recorder_->message(transfer, 0, ns, 0);
        sink_.delivered(transfer, time + ns);
        return;
    }
    const ProtocolEntry& p = machine_.protocol(bytes);
    msg.transfer = transfer;
    msg.inFlight = 0;
    msg.unsent = bytes;
    msg.factor = p.bandwidthFactor;
    msg.extraNs = p.latencyNs;
    msg.arrival = time;
    if (recorder_) {
        msg.start = time;
        msg.alone = aloneMemoised(msg, bytes);
        msg.serial = ++serial_;
        // A single packet's waits never overlap each other: no per-hop record is needed
        // (most messages of a stencil are one packet, and filling it was a tenth of the cost).
        msg.onePacket = double(bytes) <= packetBytes_;
        if (!msg.onePacket) msg.waitedTo.assign(msg.route.size(), time);
        for (uint32_t l : msg.route)
            recorder_->carry(l, bytes);
    }
    hop(newPacket(m, time), time); // an empty message still sends one (empty) packet
}

double PacketModel::aloneMemoised(const Message& msg, uint64_t bytes)
{
    const size_t hops = msg.route.size();
    // One packet costs no more than the memo's look-up.
    if (double(bytes) <= packetBytes_) return aloneOnePacket(msg, double(bytes));
    if (hops > kMemoHops) return alone(msg, bytes);
    AloneMemo key;
    key.bytes = bytes;
    key.factor = msg.factor;
    key.hops = uint32_t(hops);
    uint64_t hash = bytes * 0x9E3779B97F4A7C15ull ^ std::bit_cast<uint64_t>(msg.factor);
    for (size_t h = 0; h < hops; ++h) {
        key.perHop[2 * h] = links_.bytesPerNs(msg.route[h]);
        key.perHop[2 * h + 1] = links_.latencyNs(msg.route[h]);
        hash = (hash ^ std::bit_cast<uint64_t>(key.perHop[2 * h])) * 0x100000001B3ull;
        hash = (hash ^ std::bit_cast<uint64_t>(key.perHop[2 * h + 1])) * 0x100000001B3ull;
    }
    if (aloneMemo_.empty()) aloneMemo_.resize(kMemoSlots);
    AloneMemo& slot = aloneMemo_[(hash ^ (hash >> 29)) % kMemoSlots];
    if (slot.hops == key.hops && slot.bytes == bytes && slot.factor == key.factor &&
        std::equal(key.perHop, key.perHop + 2 * hops, slot.perHop))
        return slot.ns;
    key.ns = alone(msg, bytes); // (its protocol latency too: a function of `bytes`)
    slot = key;
    return key.ns;
}

double PacketModel::alone(const Message& msg, uint64_t bytes)
{
    // hop() for this message's packets on idle links, packet after packet: a packet depends
    // only on the ones before it, so this order gives the times the event order would.
    aloneRelease_.assign(msg.route.size(), -std::numeric_limits<double>::infinity());
    double arrival = 0, ask = 0;
    uint64_t unsent = bytes;
    do {
        const double size = std::min(double(unsent), packetBytes_);
        unsent -= uint64_t(size);
        double t = ask, tail = ask;
        for (size_t h = 0; h < msg.route.size(); ++h) {
            const uint32_t link = msg.route[h];
            const double lock = std::max(t, aloneRelease_[h]);
            const double serial = size / (links_.bytesPerNs(link) * msg.factor);
            const double released = cutThrough_ ? std::max(lock + serial, tail) : lock + serial;
            aloneRelease_[h] = released;
            const double latency = links_.latencyNs(link);
            tail = released + latency;
            t = cutThrough_ ? lock + latency : tail;
            if (h + 1 == msg.route.size()) arrival = std::max(arrival, tail);
        }
        ask = aloneRelease_[0];
    } while (unsent > 0);
    return arrival + msg.extraNs;
}

double PacketModel::aloneOnePacket(const Message& msg, double bytes) const
{
    // alone()'s loop for its first and only packet: every link is idle when it asks.
    double t = 0, tail = 0;
    for (const uint32_t link : msg.route) {
        const double serial = bytes / (links_.bytesPerNs(link) * msg.factor);
        const double released = cutThrough_ ? std::max(t + serial, tail) : t + serial;
        const double latency = links_.latencyNs(link);
        tail = released + latency;
        t = cutThrough_ ? t + latency : tail;
    }
    return tail + msg.extraNs;
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
    if (recorder_) {
        recorder_->busy(link, lock, released);
        // The message waits for the link while one of its packets waits for another's; its
        // packets' waits overlap, so only time not yet counted for this hop counts.
        uint32_t& holder = recorder_->lastUser(link);
        if (msg.onePacket) {
            if (lock > time && holder != uint32_t(msg.serial)) recorder_->wait(link, lock - time);
        } else {
            double& counted = msg.waitedTo[pk.hop];
            if (lock > counted && holder != uint32_t(msg.serial)) {
                recorder_->wait(link, lock - std::max(time, counted));
                counted = lock;
            }
        }
        holder = uint32_t(msg.serial);
    }
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
        if (recorder_) {
            const double transfer = msg.arrival + msg.extraNs - msg.start;
            recorder_->message(msg.transfer, uint32_t(msg.route.size()), transfer,
                               std::max(0.0, transfer - msg.alone));
        }
        sink_.delivered(msg.transfer, msg.arrival + msg.extraNs);
        freeMessages_.push_back(m);
    }
}

} // namespace rankscope::netsim
