#pragma once
// Message statistics: histograms of message size, transfer time and bandwidth, over all
// point-to-point messages and per call site (of the send) and per communicator.
//
// The messages are the matched ones, with the transfer time of the communication matrix
// (commmatrix.h: receive event time minus send event time). Histograms have power-of-two bins,
// which suit sizes and times spread over many orders of magnitude and are easy to check: bin 0
// holds the value 0 (and negative times, from unsynchronised clocks), bin k >= 1 holds
// [2^(k-1), 2^k). Bandwidth is bytes per second (bytes * 1e9 / transfer ns, rounded down), for
// messages with bytes and a positive transfer time.

#include "model/support/progressreporter.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

struct Log2Histogram
{
    std::vector<uint64_t> counts; ///< counts[k]: values in bin k; no trailing empty bins

    /// The bin of `v`: 0 for v <= 0, else the bit width of v.
    static uint32_t binOf(int64_t v);
    /// The smallest value of bin k (0 for bin 0).
    static uint64_t lower(uint32_t k) { return k == 0 ? 0 : uint64_t(1) << (k - 1); }
    /// One past the largest value of bin k (1 for bin 0).
    static uint64_t upper(uint32_t k) { return uint64_t(1) << k; }
    void add(int64_t v);
    uint64_t total() const;
    bool operator==(const Log2Histogram&) const = default;
};

/// The messages of one group (all, one call site, one communicator).
struct MessageGroup
{
    std::string name;
    uint64_t count = 0;
    uint64_t bytes = 0;
    int64_t totalNs = 0;     ///< sum of transfer times
    int64_t maxNs = 0;       ///< longest transfer time
    Log2Histogram size;      ///< bytes
    Log2Histogram time;      ///< transfer time, ns
    Log2Histogram bandwidth; ///< bytes per second

    double meanNs() const { return count == 0 ? 0.0 : double(totalNs) / double(count); }
    bool operator==(const MessageGroup& o) const
    {
        return std::tie(name, count, bytes, totalNs, maxNs, size, time, bandwidth) ==
               std::tie(o.name, o.count, o.bytes, o.totalNs, o.maxNs, o.size, o.time, o.bandwidth);
    }
};

struct MessageStatistics
{
    MessageGroup all;
    std::vector<MessageGroup> byCallSite;     ///< by descending count, then name
    std::vector<MessageGroup> byCommunicator; ///< by descending count, then name
    uint64_t unmatched = 0;                   ///< messages with one end only (not in the groups)
    bool cancelled = false;
    bool operator==(const MessageStatistics& o) const
    {
        return std::tie(all, byCallSite, byCommunicator, unmatched, cancelled) ==
               std::tie(o.all, o.byCallSite, o.byCommunicator, o.unmatched, o.cancelled);
    }
};

/// The message statistics of `trace` (one pass over each rank's MPI calls to find the send
/// call sites, then one over the message table; cancellable through `progress`).
MessageStatistics computeMessageStatistics(const Trace& trace,
                                           const ProgressCallback& progress = {});

} // namespace rankscope
