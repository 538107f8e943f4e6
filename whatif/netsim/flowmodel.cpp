#include "whatif/netsim/flowmodel.h"

#include <algorithm>

namespace rankscope::netsim {

FlowModel::FlowModel(const Machine& machine, TransferSink& sink)
    : links_(machine), machine_(machine), sink_(sink), onLink_(links_.size()),
      linkMark_(links_.size(), 0), localLink_(links_.size(), 0)
{
}

void FlowModel::start(uint32_t transfer, uint32_t srcRank, uint32_t dstRank, uint64_t bytes,
                      Placement placement, double time)
{
    uint32_t hops = 0;
    if (links_.route(srcRank, dstRank, bytes, placement, seed_)) {
        hops = uint32_t(seed_.size());
    } else {
        const int64_t shared = links_.intraNodeLink(srcRank);
        if (shared < 0) {
            const double ns = links_.intraNodeNs(bytes);
            if (recorder_) recorder_->message(transfer, 0, ns, 0);
            sink_.delivered(transfer, time + ns);
            return;
        }
        seed_.assign(1, uint32_t(shared)); // the node's memory, shared by its own messages
    }
    const ProtocolEntry& p = machine_.protocol(bytes);
    double latency = p.latencyNs;
    double narrowest = links_.bytesPerNs(seed_.front());
    for (uint32_t l : seed_) {
        latency += links_.latencyNs(l);
        narrowest = std::min(narrowest, links_.bytesPerNs(l));
    }
    if (recorder_)
        for (uint32_t l : seed_)
            recorder_->carry(l, bytes);
    if (bytes == 0) {
        if (recorder_) recorder_->message(transfer, hops, latency, 0);
        sink_.delivered(transfer, time + latency);
        return;
    }
    uint32_t f;
    if (!freeFlows_.empty()) {
        f = freeFlows_.back();
        freeFlows_.pop_back();
    } else {
        f = uint32_t(flows_.size());
        flows_.emplace_back();
    }
    Flow& flow = flows_[f];
    flow.transfer = transfer;
    flow.active = true;
    flow.remaining = double(bytes);
    flow.rate = 0;
    flow.cap = narrowest * p.bandwidthFactor;
    flow.updated = time;
    flow.latencyNs = latency;
    flow.start = time;
    flow.contention = 0;
    flow.bottleneck = MaxMinSolver::kNoLink;
    flow.hops = hops;
    flow.links = seed_;
    for (uint32_t l : seed_)
        onLink_[l].push_back(f);
    resolve(time);
}

void FlowModel::onEvent(uint32_t payload, double time)
{
    const Pending p = pending_[payload];
    freePending_.push_back(payload);
    const Flow& flow = flows_[p.flow];
    if (flow.active && flow.generation == p.generation) finish(p.flow, time);
}

void FlowModel::finish(uint32_t f, double now)
{
    Flow& flow = flows_[f];
    flow.active = false;
    ++flow.generation;
    if (recorder_) {
        fallBehind(flow, now);
        recorder_->message(flow.transfer, flow.hops, now + flow.latencyNs - flow.start,
                           flow.contention);
    }
    sink_.delivered(flow.transfer, now + flow.latencyNs);
    for (uint32_t l : flow.links) {
        std::vector<uint32_t>& users = onLink_[l];
        *std::find(users.begin(), users.end(), f) = users.back();
        users.pop_back();
    }
    seed_ = flow.links;
    freeFlows_.push_back(f);
    resolve(now);
}

void FlowModel::fallBehind(Flow& fl, double now)
{
    const double lost = (now - fl.updated) * (1 - fl.rate / fl.cap);
    if (!(lost > 0)) return;
    fl.contention += lost;
    if (fl.bottleneck != MaxMinSolver::kNoLink) recorder_->wait(fl.bottleneck, lost);
}

void FlowModel::resolve(double now)
{
    // The component of the seed links: flows sharing a link with them, transitively.
    if (++epoch_ == 0) { // wrapped: clear the marks once
        std::fill(linkMark_.begin(), linkMark_.end(), 0);
        for (Flow& fl : flows_)
            fl.mark = 0;
        epoch_ = 1;
    }
    compFlows_.clear();
    compLinks_.clear();
    stack_.clear();
    for (uint32_t l : seed_)
        if (linkMark_[l] != epoch_) {
            linkMark_[l] = epoch_;
            stack_.push_back(l);
        }
    while (!stack_.empty()) {
        const uint32_t l = stack_.back();
        stack_.pop_back();
        compLinks_.push_back(l);
        for (uint32_t f : onLink_[l]) {
            Flow& fl = flows_[f];
            if (fl.mark == epoch_) continue;
            fl.mark = epoch_;
            compFlows_.push_back(f);
            for (uint32_t m : fl.links)
                if (linkMark_[m] != epoch_) {
                    linkMark_[m] = epoch_;
                    stack_.push_back(m);
                }
        }
    }
    // Sorted, so the solver sees the same problem whatever order the search took.
    std::sort(compFlows_.begin(), compFlows_.end());
    std::sort(compLinks_.begin(), compLinks_.end());
    solver_.clear();
    // A link offers n flows bytesPerNs * n^(1 - sharing) in all (each gets bytesPerNs *
    // n^-sharing when nothing else limits it), less above its max_streams.
    for (uint32_t l : compLinks_)
        localLink_[l] = solver_.addLink(links_.capacity(l, onLink_[l].size()));
    for (uint32_t f : compFlows_) {
        Flow& fl = flows_[f];
        if (recorder_) fallBehind(fl, now);
        fl.remaining = std::max(0.0, fl.remaining - fl.rate * (now - fl.updated));
        fl.updated = now;
        local_.clear();
        for (uint32_t l : fl.links)
            local_.push_back(localLink_[l]);
        solver_.addFlow(local_.data(), local_.size(), fl.cap);
    }
    const std::vector<double>& rates = solver_.solve();
    const std::vector<uint32_t>& bottlenecks = solver_.bottlenecks();
    for (size_t i = 0; i < compFlows_.size(); ++i) {
        Flow& fl = flows_[compFlows_[i]];
        // Links were added in compLinks_ order: a local link index is a position in it.
        fl.bottleneck =
            bottlenecks[i] == MaxMinSolver::kNoLink ? bottlenecks[i] : compLinks_[bottlenecks[i]];
        if (rates[i] == fl.rate) continue; // its completion event still holds
        fl.rate = rates[i];
        ++fl.generation;
        uint32_t slot;
        if (!freePending_.empty()) {
            slot = freePending_.back();
            freePending_.pop_back();
        } else {
            slot = uint32_t(pending_.size());
            pending_.emplace_back();
        }
        pending_[slot] = Pending{compFlows_[i], fl.generation};
        sink_.scheduleModelEvent(now + fl.remaining / fl.rate, slot);
    }
    // Each link's period at its old share closes now and one at its new share opens: one
    // pass, so a link's counters are fetched once per re-solve.
    if (recorder_)
        for (uint32_t l : compLinks_) { // (at most 1: rounding may overfill a link by an ulp)
            recorder_->busyUntil(l, now);
            recorder_->setShare(l, std::clamp(solver_.load(localLink_[l]), 0.0, 1.0));
        }
}

} // namespace rankscope::netsim
