#pragma once
// The packet model (ALGORITHMS.md §7.2-7.3, PSI-NSIM): messages are cut into packets of the
// spec's packet size; each packet locks each link of its route in turn, so contention appears
// where routes share links.
//
// Design note: a link is locked by one packet at a time, in the order packets reach it. Events
// come in time order, so a packet reaching a link at t locks it at max(t, when the link is
// released) and fixes the release then (lock + the packet's serialisation time on the link):
// a packet that comes later waits for that release. Nothing is ever reserved out of order.
// Store-and-forward: the next link is requested when the whole packet has arrived (release +
// link latency). Cut-through: as soon as its head has (lock + latency), and the packet cannot
// leave a link before its tail has reached it. A message's packets enter the first link one
// after the other: packet k+1 asks for it when packet k releases it, so concurrent messages
// from a node interleave packet by packet. The message arrives when its last packet's tail
// has crossed the last link, plus the protocol table's latency; the bandwidth factor stretches
// every serialisation. Messages between ranks of one node cost what the analytic model says.
// Link statistics (linkstats.h): a link is busy while a packet holds it. A message waits for a
// link while one of its packets, having asked for it, finds it held by another message's packet
// (waiting behind its own packets is its own serialisation): that time, counted once however
// many of its packets wait together, is the link's contention. A message's contention delay is
// its transfer time less what it would take on idle links (its packets computed alone), so it
// is what the other traffic cost it end to end, never more than its transfer time.

#include "whatif/netsim/machinelinks.h"
#include "whatif/netsim/networkmodel.h"

#include <vector>

namespace rankscope::netsim {

class PacketModel : public NetworkModel
{
public:
    PacketModel(const Machine& machine, TransferSink& sink);
    std::string_view name() const override { return "packet"; }
    void start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
               Placement placement, double time) override;
    void onEvent(uint32_t payload, double time) override;
    std::vector<LinkInfo> linkInfo() const override { return links_.describe(); }

    /// When `link` (a MachineLinks id) is released by the last packet that locked it.
    double releasedAt(uint32_t link) const { return release_[link]; }

private:
    struct Message
    {
        uint32_t transfer = 0;
        uint32_t inFlight = 0; ///< packets not yet arrived
        uint64_t unsent = 0;   ///< bytes not yet cut into packets
        double factor = 1;
        double extraNs = 0;           ///< the protocol table's latency
        double arrival = 0;           ///< latest packet arrival so far
        double start = 0;             ///< link statistics: when the transfer started
        double alone = 0;             ///< link statistics: its transfer time on idle links
        uint64_t serial = 0;          ///< link statistics: tells messages apart (slots are reused)
        bool onePacket = false;       ///< link statistics: a single packet (waitedTo unused)
        std::vector<double> waitedTo; ///< link statistics: per hop, waiting counted up to
        std::vector<uint32_t> route;
    };
    struct Packet
    {
        uint32_t message = 0;
        uint32_t hop = 0;
        double bytes = 0;
        double tail = 0; ///< when its tail reaches the link it asks for
    };

    uint32_t newPacket(uint32_t message, double time);
    /// Link statistics: the transfer time of `msg` (of `bytes`) on idle links.
    double alone(const Message& msg, uint64_t bytes);
    /// alone() for a message of one packet (no other packet of its own to wait for).
    double aloneOnePacket(const Message& msg, double bytes) const;
    /// alone() from the memo when a message of as many bytes at the same protocol factor took
    /// a route of the same links' figures (every message of a stencil sends the same sizes
    /// over the same kinds of route): the same inputs give the same bits.
    double aloneMemoised(const Message& msg, uint64_t bytes);
    void hop(uint32_t packet, double time);

    MachineLinks links_;
    const Machine& machine_;
    TransferSink& sink_;
    double packetBytes_;
    bool cutThrough_;
    std::vector<double> release_; // per link
    uint64_t serial_ = 0;
    std::vector<double> aloneRelease_; // alone(): per hop
    static constexpr size_t kMemoHops = 8, kMemoSlots = 256;
    struct AloneMemo
    {
        uint64_t bytes = 0;
        double factor = 0;
        uint32_t hops = 0;                 // 0: empty
        double perHop[2 * kMemoHops] = {}; // bytesPerNs, latencyNs of each hop
        double ns = 0;
    };
    std::vector<AloneMemo> aloneMemo_; // kMemoSlots, direct-mapped, with a recorder
    std::vector<Message> messages_;
    std::vector<uint32_t> freeMessages_;
    std::vector<Packet> packets_;
    std::vector<uint32_t> freePackets_;
};

} // namespace rankscope::netsim
