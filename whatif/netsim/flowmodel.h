#pragma once
// The flow model (ALGORITHMS.md §7.3): each message is a flow over its route; flows share each
// link's bandwidth max-min fairly, re-solved whenever a flow starts or ends.
//
// Design note: a message's data moves at its current fair rate from its start; when the last
// byte has left, it arrives after the route's latency plus the protocol table's, so a lone flow
// costs L + M/B as under LogGP. The protocol's bandwidth factor caps the flow at that fraction
// of its narrowest link. A node's sends share its interface link (no LogGP gap on top). Only
// the flows connected to the one that started or ended (through shared links, transitively)
// are re-solved: max-min shares of unconnected flows cannot change. A flow whose rate changes
// gets a new completion event; its old one is recognised as stale by a generation number.
// Messages between ranks of one node cost what the analytic model says (no network), unless the
// intra-node link class has a `sharing` above 0: then they are flows over their node's one
// intra-node link. A link's capacity grows with its flows as n^(1 - sharing) (sharing 1, the
// default, is a fixed capacity shared max-min fairly), so the slowdown measured runs show
// when k transfers share a node (per-byte cost ~ k^0.45 on the TraceR stencils, see
// docs/design-notes.md) can be modelled; a flow's protocol cap still applies.
// Link statistics (linkstats.h): a link is busy at the share of its capacity its flows use. A
// flow alone would move at its cap; while it moves at a rate r below it, it falls behind by
// (1 - r / cap) per ns, which is its contention delay (summed: its transfer time minus
// bytes / cap) and is charged to the link whose filling fixed its rate (its bottleneck).

#include "whatif/netsim/machinelinks.h"
#include "whatif/netsim/maxminsolver.h"
#include "whatif/netsim/networkmodel.h"

#include <vector>

namespace rankscope::netsim {

class FlowModel : public NetworkModel
{
public:
    FlowModel(const Machine& machine, TransferSink& sink);
    std::string_view name() const override { return "flow"; }
    void start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
               Placement placement, double time) override;
    void onEvent(uint32_t payload, double time) override;
    std::vector<LinkInfo> linkInfo() const override { return links_.describe(); }

private:
    struct Flow
    {
        uint32_t transfer = 0;
        uint32_t generation = 0;
        uint32_t mark = 0;
        bool active = false;
        double remaining = 0; ///< bytes not yet sent at `updated`
        double rate = 0;
        double cap = 0;
        double updated = 0;
        double latencyNs = 0;
        double start = 0;                 ///< link statistics: when it started
        double contention = 0;            ///< link statistics: time lost to other flows so far
        uint32_t bottleneck = UINT32_MAX; ///< link statistics: the link fixing its rate, if any
        uint32_t hops = 0;                ///< link statistics: network links (0 inside a node)
        std::vector<uint32_t> links;
    };
    struct Pending
    {
        uint32_t flow = 0;
        uint32_t generation = 0;
    };

    void resolve(double now);
    void finish(uint32_t f, double now);
    /// Link statistics: what flow `fl` lost to others since it was last updated.
    void fallBehind(Flow& fl, double now);

    MachineLinks links_;
    const Machine& machine_;
    TransferSink& sink_;
    std::vector<Flow> flows_;
    std::vector<uint32_t> freeFlows_;
    std::vector<std::vector<uint32_t>> onLink_; // active flows per link
    std::vector<uint32_t> linkMark_, localLink_;
    uint32_t epoch_ = 0;
    std::vector<Pending> pending_;
    std::vector<uint32_t> freePending_;
    MaxMinSolver solver_;
    std::vector<uint32_t> seed_, stack_, compFlows_, compLinks_, local_;
};

} // namespace rankscope::netsim
