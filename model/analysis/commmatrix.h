#pragma once
// The communication matrix (Vampir's and Paraver's 2-D view): for every sender rank and
// receiver rank (world ranks), how many messages went between them, how many bytes, and their
// mean and longest transfer time.
//
// Rules: a point-to-point message counts when both ends were matched; its transfer time is its
// receive event's time minus its send event's time (the line a timeline draws), and it belongs
// to a time window [from, to) when its send event lies in it. Unmatched messages are counted
// apart. With collectives included, each collective instance adds the traffic it implies
// (collectiveTraffic below) to the count and bytes, but not to the transfer times: a collective
// records no per-pair send and receive times. An implied transfer belongs to the window holding
// its sender's collective begin event.
//
// Design note: one pass over the message table (not the events), accumulating into a dense
// ranks x ranks array when that is small (up to kDenseRankLimit ranks), else into a hash map;
// either way the result is the sparse list of non-empty cells in (sender, receiver) order.

#include "model/support/progressreporter.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;
struct CollectiveInstance;

/// Which quantity a matrix view or export shows per cell.
enum class CommMatrixMetric
{
    Count,
    Bytes,
    MeanTime, ///< mean transfer time
    MaxTime,  ///< longest transfer time
};

struct CommMatrixOptions
{
    int64_t from = std::numeric_limits<int64_t>::min(); ///< window start (inclusive), ns
    int64_t to = std::numeric_limits<int64_t>::max();   ///< window end (exclusive), ns
    bool includeCollectives = false; ///< add the traffic collective operations imply
};

/// One non-empty (sender, receiver) pair.
struct CommMatrixCell
{
    uint32_t sender = 0;   ///< world rank
    uint32_t receiver = 0; ///< world rank
    uint64_t count = 0;    ///< messages (point-to-point, plus implied collective transfers)
    uint64_t bytes = 0;
    uint64_t timedCount = 0; ///< point-to-point messages, which have a transfer time
    int64_t totalNs = 0;     ///< sum of their transfer times
    int64_t maxNs = 0;       ///< longest transfer time (0 when timedCount is 0)

    /// Mean transfer time of the point-to-point messages (0 when there are none).
    double meanNs() const { return timedCount == 0 ? 0.0 : double(totalNs) / double(timedCount); }
    /// The value of `metric` in this cell.
    double value(CommMatrixMetric metric) const;
    bool operator==(const CommMatrixCell& o) const
    {
        return std::tie(sender, receiver, count, bytes, timedCount, totalNs, maxNs) ==
               std::tie(o.sender, o.receiver, o.count, o.bytes, o.timedCount, o.totalNs, o.maxNs);
    }
};

struct CommMatrix
{
    uint32_t rankCount = 0;
    std::vector<CommMatrixCell> cells; ///< non-empty cells, by sender then receiver
    uint64_t unmatched = 0;            ///< messages in the window with only one end
    bool cancelled = false;

    /// The cell (sender, receiver), or nullptr when no message went that way.
    const CommMatrixCell* find(uint32_t sender, uint32_t receiver) const;
    bool operator==(const CommMatrix& o) const
    {
        return std::tie(rankCount, cells, unmatched, cancelled) ==
               std::tie(o.rankCount, o.cells, o.unmatched, o.cancelled);
    }
};

/// Largest rank count accumulated into a dense array (4096^2 cells of 40 bytes = 640 MiB would
/// be too much; 2048^2 is 160 MiB at most and used only while computing).
inline constexpr uint32_t kDenseRankLimit = 2048;

/// The communication matrix of `trace` (cancellable through `progress`).
CommMatrix computeCommMatrix(const Trace& trace, const CommMatrixOptions& options = {},
                             const ProgressCallback& progress = {});

/// One transfer a collective implies: from world rank `sender` to `receiver`, `bytes` long.
struct ImpliedTransfer
{
    uint32_t sender = 0;
    uint32_t receiver = 0;
    uint64_t bytes = 0;
    bool operator==(const ImpliedTransfer&) const = default;
};

/// The transfers a collective instance implies, by the shape of its operation: one-to-all
/// (Bcast, Scatter[v]) root -> each other member with what that member received; all-to-one
/// (Reduce, Gather[v]) each other member -> root with what it sent; all-to-all (Allreduce,
/// Allgather[v], Alltoall[v|w], Reduce_scatter[_block], Scan, Exscan) each member -> each other
/// member with an equal share of what it sent (the remainder to the first receivers). Barriers
/// and handle operations imply none; zero-byte transfers are left out.
std::vector<ImpliedTransfer> collectiveTraffic(const Trace& trace, const CollectiveInstance& c);

} // namespace rankscope
