#pragma once
// Max-min fair sharing of link bandwidth by progressive filling (ALGORITHMS.md §7.3, the flow
// model): every unfixed flow's rate rises together until a link is full or a flow reaches its
// own cap; the flows through that link (or at that cap) are fixed at the level reached and the
// others go on with what is left. The result gives no flow more by taking from one with less.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankscope::netsim {

class MaxMinSolver
{
public:
    /// Forgets all links and flows (keeps the buffers).
    void clear();
    /// Adds a link of `capacity` (bytes/ns); returns its index in this problem.
    uint32_t addLink(double capacity);
    /// Adds a flow over `count` links (indices from addLink) limited to `cap` bytes/ns.
    void addFlow(const uint32_t* links, size_t count, double cap);
    /// The max-min fair rate of each flow, in the order they were added.
    const std::vector<double>& solve();
    /// After solve(): per flow, the link (index from addLink) whose filling fixed its rate, or
    /// kNoLink when its own cap did.
    const std::vector<uint32_t>& bottlenecks() const { return bottleneck_; }
    static constexpr uint32_t kNoLink = UINT32_MAX;
    /// After solve(): the share of link `l`'s capacity its flows use (0..1).
    double load(uint32_t l) const { return capacity_[l] > 0 ? 1 - residual_[l] / capacity_[l] : 0; }

private:
    std::vector<double> residual_;
    std::vector<double> capacity_;
    std::vector<uint32_t> users_; // unfixed flows per link
    std::vector<uint8_t> full_;
    std::vector<uint32_t> begin_{0};
    std::vector<uint32_t> links_;
    std::vector<double> cap_;
    std::vector<double> rate_;
    std::vector<uint32_t> bottleneck_;
    std::vector<uint32_t> open_, next_;
};

} // namespace rankscope::netsim
