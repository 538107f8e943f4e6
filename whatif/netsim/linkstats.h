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

#include "whatif/netsim/hugepageallocator.h"

#include <algorithm>
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

/// A point-to-point message that crossed a link (NetworkFigures::heaviest).
struct LinkMessage
{
    uint32_t message = 0;      ///< the trace's MessageId (the program's message index)
    uint32_t src = 0, dst = 0; ///< ranks
    uint64_t bytes = 0;
    double transferNs = 0, contentionNs = 0; ///< its MessageFigures
    bool operator==(const LinkMessage&) const = default;
};

struct NetworkFigures
{
    std::vector<LinkFigures> links;
    /// Per point-to-point message of the program (the trace's MessageId order).
    /// (Huge pages: a replay of half a million messages writes 12 MB here once, and with 4 KiB
    /// pages the faults alone were a tenth of what collecting cost LogGP.)
    std::vector<MessageFigures, HugePageAllocator<MessageFigures>> messages;
    uint64_t collectiveMessages = 0;   ///< messages of collectives (not kept one by one)
    double collectiveContentionNs = 0; ///< their contention delay, summed
    double contentionNs = 0;           ///< every message's contention delay, summed
    double runNs = 0;                  ///< the run the utilisations are taken over
    double windowNs = 0;               ///< the width of the peak utilisation's windows
    double originNs = 0;               ///< where the first window starts (the run's start)
    /// Busy time of each link in each window: LinkRecorder::kWindows per link, link after link.
    std::vector<double> windowBusyNs;
    /// Per link, its heaviest point-to-point messages (SimulationOptions::heaviestPerLink,
    /// heaviestMessages()); empty when not asked for.
    std::vector<std::vector<LinkMessage>> heaviest;
    bool operator==(const NetworkFigures&) const = default;

    /// Each link's utilisation over [fromNs, toNs) (trace time): its busy time in the windows
    /// overlapping that span, a window counted in proportion to its overlap (its busy time taken
    /// as spread evenly over it), over the span's length. The whole run gives `utilisation`
    /// (up to rounding); an empty span gives zeros.
    std::vector<double> utilisationBetween(double fromNs, double toNs) const;

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
    void busy(uint32_t link, double from, double to, double share = 1)
    {
        // Inline: every model calls it per event. The common case (a period inside the
        // link's open window) is one addition; the rest is busySpanning().
        if (!(to > from) || !(share > 0)) return;
        Counters& c = counters_[link];
        c.busy += (to - from) * share;
        const double a = from - origin_, b = to - origin_;
        if (a >= 0 && b <= width_ * double(kWindows)) {
            const size_t i = std::min(size_t(a * perWidth_), kWindows - 1);
            if (i == c.window && i == std::min(size_t(b * perWidth_), kWindows - 1)) {
                if (b > a) c.open += (b - a) * share;
                return;
            }
        }
        busySpanning(link, from, to, share);
    }
    /// The flow model's bookkeeping: `link` has been busy at its current share since its last
    /// change; close that period at `now` (the share is set again with setShare).
    void busyUntil(uint32_t link, double now)
    {
        Counters& c = counters_[link];
        busy(link, c.since, now, c.share);
        c.since = now;
    }
    /// The flow model: the share of `link` in use from its last busyUntil() on.
    void setShare(uint32_t link, double share) { counters_[link].share = share; }
    /// The packet model: the message that used `link` last (the model's serial, modulo 2^32).
    uint32_t& lastUser(uint32_t link) { return counters_[link].lastUser; }
    /// Messages waited `ns` for `link`.
    void wait(uint32_t link, double ns) { counters_[link].contention += ns; }
    /// Transfer `transfer` (an engine slot; kNoTransfer for one with no slot) has arrived.
    void message(uint32_t transfer, uint32_t hops, double transferNs, double contentionNs)
    {
        if (transfer < pointToPoint_) {
            log_.push_back(Logged{transfer, hops, transferNs, contentionNs});
            return;
        }
        ++collective_;
        collectiveContention_ += contentionNs;
    }
    static constexpr uint32_t kNoTransfer = UINT32_MAX;

    /// The figures over a run of `runNs`, naming the links by `info` (one per link). Frees the
    /// log of per-message figures it puts in order: call it once.
    NetworkFigures figures(std::vector<LinkInfo> info, double runNs);

private:
    /// busy() once its counters are added: the windows of a period not inside the open one.
    void busySpanning(uint32_t link, double from, double to, double share);
    /// Doubles the window width, merging neighbouring windows.
    void widen();

    /// Adds `ns` to window `k` of `link` through the link's open window (see Counters).
    void addToWindow(uint32_t link, size_t k, double ns);
    /// Writes every link's open window back to its row (before widening or reading them).
    void closeWindows();

    // One link's counters in one place: a replay touches links in no useful order. The window
    // a link is busy in is kept open here, beside its counters: its row of windows_ (another
    // cache line, a megabyte for two thousand links) is touched only when the link moves to
    // another window. Opening a window moves its sum here and closing moves it back, so the
    // sums are added in the same order, to the same bits, as straight into the row.
    // What a model needs per link only for statistics is kept here too (since, share,
    // lastUser): one cache line per link holds all a replay touches for its statistics.
    static constexpr uint32_t kClosed = UINT32_MAX;
    struct alignas(64) Counters
    {
        uint64_t bytes = 0, messages = 0;
        double busy = 0, contention = 0;
        double open = 0;           ///< the sum of window `window` (its row holds 0 meanwhile)
        double since = 0;          ///< busyUntil(): the start of the current period
        double share = 0;          ///< busyUntil(): the share in use during it
        uint32_t window = kClosed; ///< the open window, or kClosed
        uint32_t lastUser = 0;     ///< lastUser()
    };
    static_assert(sizeof(Counters) == 64);
    double origin_;
    double width_ = 1; // ns
    double perWidth_ = 1;
    std::vector<Counters> counters_;
    std::vector<double> windows_; // kWindows per link
    // Per-message figures are logged in the order messages arrive and put in message order
    // at the end: written straight into a table in message order they landed all over a
    // table of tens of megabytes, a cache miss per message that cost a replay of mostly
    // small messages a fifth of its speed.
    struct Logged
    {
        uint32_t transfer = 0, hops = 0;
        double transferNs = 0, contentionNs = 0;
    };
    size_t pointToPoint_;
    std::vector<Logged, HugePageAllocator<Logged>> log_;
    uint64_t collective_ = 0;
    double collectiveContention_ = 0;
};

} // namespace rankscope::netsim
