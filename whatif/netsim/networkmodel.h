#pragma once
// How a network model moves data; the replay engine owns the clock and the event queue.
//
// A model is told that a transfer starts (at the engine's current time or later) and reports
// when its last byte arrived, either at once (the analytic model knows the answer) or later from
// an event it scheduled (packet and flow models, whose answer depends on other traffic).

#include "whatif/netsim/linkstats.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::netsim {

/// What a model may ask of the engine.
class TransferSink
{
public:
    virtual ~TransferSink() = default;
    /// The last byte of `transfer` arrives at `time` (>= now).
    virtual void delivered(uint32_t transfer, double time) = 0;
    /// Calls the model's onEvent(payload) at `time` (>= now), in queue order.
    virtual void scheduleModelEvent(double time, uint32_t payload) = 0;
};

/// A model that knows when a transfer arrives as soon as it starts, and in which a transfer
/// waits for no other but earlier ones from the same node (the analytic model): with at most
/// one rank per node, every arrival then follows from the sending rank's own history, which
/// lets the engine evaluate a collective round by round (pairwiseexchange.h).
class ImmediateModel
{
public:
    virtual ~ImmediateModel() = default;
    /// When a transfer started at `time` arrives: what start() reports as delivered, with the
    /// same effect on the model.
    virtual double arrival(uint32_t srcRank, uint32_t dstRank, uint64_t bytes, Placement placement,
                           double time) = 0;
};

class NetworkModel
{
public:
    virtual ~NetworkModel() = default;
    virtual std::string_view name() const = 0;
    /// Starts moving `bytes` from `srcRank` to `dstRank` at `time` (the engine's now), on the
    /// network Machine::channel picks with `placement`.
    virtual void start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                       Placement placement, double time) = 0;
    /// An event this model scheduled has come due.
    virtual void onEvent(uint32_t /*payload*/, double /*time*/) {}
    /// False when start() may be called ahead of time (the analytic model has no contention).
    virtual bool needsTimeOrder() const { return true; }
    /// This model as an ImmediateModel when it is one and no latency or bandwidth lets a
    /// transfer arrive before it starts; else null.
    virtual ImmediateModel* immediate() { return nullptr; }
    /// Feeds `recorder` from now on (null: nothing), its links numbered as linkInfo() lists them.
    void setRecorder(LinkRecorder* recorder) { recorder_ = recorder; }
    /// The links a recorder counts: the networks' links (packet and flow models) or the nodes'
    /// network interfaces (LogGP).
    virtual std::vector<LinkInfo> linkInfo() const = 0;

protected:
    LinkRecorder* recorder_ = nullptr;
};

} // namespace rankscope::netsim
