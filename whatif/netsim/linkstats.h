#pragma once
// What the network did during a replay (opt-in, SimulationOptions::linkStats): per link of the
// packet and flow models (per network interface of the LogGP model) the bytes and messages it
// carried, how long it was busy, its utilisation over the run and at its busiest time window,
// and the time messages spent waiting for it (contention delay); per message its hops, transfer
// time and contention delay.
//
// Design note: the models feed a LinkRecorder from the bookkeeping they already do (a packet
// locking a link, a flow's rate changing, a message leaving a network interface), so collecting
// costs a few additions per event and one null test when it is off. Busy time is added to time
// windows of one common width, which doubles (merging neighbours) whenever a busy period ends
// past the last window: at the end the width is the smallest power of two nanoseconds for which
// kWindows windows from the run's start cover every busy period, the peak utilisation is the
// busiest window's, and memory is kWindows numbers per link whatever the run's length. What counts
// as waiting is each model's own: see packetmodel.h, flowmodel.h and loggpmodel.h.

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::netsim {

/// Where a link is: its name, class and end points (vertex names, Topology::vertexName()).
struct LinkInfo
{
    std::string name;      ///< "<network>:<from>-><to>", "<class>:n<k>" (a node's memory),
                           ///< "<network>:n<k>:nic" (LogGP)
    std::string linkClass; ///< the spec's link class
    std::string from, to;
    bool operator==(const LinkInfo&) const = default;
};

struct LinkFigures
{
    LinkInfo info;
    uint64_t bytes = 0;         ///< carried (every message crossing it, whole)
    uint64_t messages = 0;      ///< messages crossing it
    double busyNs = 0;          ///< time it was busy (the flow model: weighted by the share in use)
    double utilisation = 0;     ///< busyNs over the replayed run
    double peakUtilisation = 0; ///< the busiest time window's utilisation
    double contentionNs = 0;    ///< time messages waited for it
    bool operator==(const LinkFigures&) const = default;
};

/// One message's passage through the network.
struct MessageFigures
{
    uint32_t hops = 0;       ///< links crossed (0 inside a node)
    double transferNs = 0;   ///< from the start of the transfer to the arrival of its last byte
    double contentionNs = 0; ///< of that, the time it waited for other messages
    bool operator==(const MessageFigures&) const = default;
};

struct NetworkFigures
{
    std::vector<LinkFigures> links;
    /// Per point-to-point message of the program (the trace's MessageId order).
    std::vector<MessageFigures> messages;
    uint64_t collectiveMessages = 0;   ///< messages of collectives (not kept one by one)
    double collectiveContentionNs = 0; ///< their contention delay, summed
    double contentionNs = 0;           ///< every message's contention delay, summed
    double runNs = 0;                  ///< the run the utilisations are taken over
    double windowNs = 0;               ///< the width of the peak utilisation's windows
    bool operator==(const NetworkFigures&) const = default;

    /// Indices of the `n` hottest links: those messages waited for longest, then by
    /// utilisation, then in link order.
    std::vector<size_t> hottest(size_t n) const;
};

class LinkRecorder
{
public:
    static constexpr size_t kWindows = 64;

    /// `links` links, `pointToPoint` messages kept one by one (transfer ids below it), windows
    /// starting at `originNs` (the run's start).
    LinkRecorder(size_t links, size_t pointToPoint, double originNs);

    /// A message of `bytes` crosses `link`.
    void carry(uint32_t link, uint64_t bytes)
    {
        counters_[link].bytes += bytes;
        ++counters_[link].messages;
    }
    /// `link` is busy from `from` to `to` at `share` of its capacity (1: wholly).
    void busy(uint32_t link, double from, double to, double share = 1);
    /// Messages waited `ns` for `link`.
    void wait(uint32_t link, double ns) { counters_[link].contention += ns; }
    /// Transfer `transfer` (an engine slot; kNoTransfer for one with no slot) has arrived.
    void message(uint32_t transfer, uint32_t hops, double transferNs, double contentionNs);
    static constexpr uint32_t kNoTransfer = UINT32_MAX;

    /// The figures over a run of `runNs`, naming the links by `info` (one per link). Hands over
    /// the per-message figures (no copy of a table that may hold millions): call it once.
    NetworkFigures figures(std::vector<LinkInfo> info, double runNs);

private:
    /// Doubles the window width, merging neighbouring windows.
    void widen();

    // One link's counters in one place: a replay touches links in no useful order.
    struct Counters
    {
        uint64_t bytes = 0, messages = 0;
        double busy = 0, contention = 0;
    };
    double origin_;
    double width_ = 1; // ns
    double perWidth_ = 1;
    std::vector<Counters> counters_;
    std::vector<double> windows_; // kWindows per link
    std::vector<MessageFigures> p2p_;
    uint64_t collective_ = 0;
    double collectiveContention_ = 0;
};

} // namespace rankscope::netsim
