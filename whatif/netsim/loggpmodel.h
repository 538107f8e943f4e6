#pragma once
// The analytic LogGP model (ALGORITHMS.md §7.3): no contention between messages.
//
// A message of b bytes occupies its sender's network interface for b·G and arrives L later:
// arrival = start + L + b·G, with L the route's latency plus the protocol table's, and
// G = 1 / (narrowest link bandwidth x the protocol's bandwidth factor). The overheads o_s and
// o_r are charged by the engine on the ranks' CPUs. Consecutive messages from one node wait
// for its interface (LogGP's gap per byte), so a root sending to many ranks pays for each.
// Decision: b·G rather than (b-1)·G, so a message of M bytes costs exactly M/B of bandwidth,
// as the §8 cost formulas count it (the difference is one byte's time).
// Link statistics (linkstats.h) are per network interface (network, node): busy for b·G per
// message it sends; a message that finds it busy waits, which is its contention delay.

#include "whatif/netsim/machine.h"
#include "whatif/netsim/networkmodel.h"

#include <vector>

namespace rankscope::netsim {

class LogGpModel : public NetworkModel, public ImmediateModel
{
public:
    LogGpModel(const Machine& machine, TransferSink& sink);
    std::string_view name() const override { return "loggp"; }
    void start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
               Placement placement, double time) override
    {
        sink_.delivered(transfer, arrive(transfer, srcRank, dstRank, bytes, placement, time));
    }
    bool needsTimeOrder() const override { return false; }
    ImmediateModel* immediate() override { return monotone_ ? this : nullptr; }
    double arrival(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
                   double time) override
    {
        return arrive(LinkRecorder::kNoTransfer, srcRank, dstRank, bytes, placement, time);
    }
    /// One interface per (network, node), numbered network by network.
    std::vector<LinkInfo> linkInfo() const override;

    /// Arrival of a message started at `time` (also used by the hybrid cost queries).
    double transferTime(uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                        Placement placement = Placement::Policy) const;

private:
    /// arrival() of engine transfer `transfer` (LinkRecorder::kNoTransfer: none).
    double arrive(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                  Placement placement, double time);

    const Machine& machine_;
    TransferSink& sink_;
    /// Per (network, node): when the interface is free again, and the last idle gap it had
    /// before a reservation. The engine starts this model's transfers as ranks reach them, not
    /// in time order (needsTimeOrder() is false), so a message posted earlier can be started
    /// after one posted later; it then takes the gap it would have had, not the end of the
    /// later one (extended van de Geijn, two streams: one stream's first piece went after its
    /// second, 28 us instead of the formula's 26 us).
    struct Interface
    {
        double free = 0;
        double gapBegin = 0, gapEnd = 0;
    };
    std::vector<Interface> nics_;
    bool monotone_ = false; // no transfer arrives before it starts
};

} // namespace rankscope::netsim
