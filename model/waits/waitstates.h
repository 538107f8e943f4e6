#pragma once
// Wait states (ALGORITHMS.md §6.1-6.3, names as in Scalasca): the part of an MPI call a rank
// spends waiting for another rank, found from the message and collective tables.
//
// Rule (§6.1): a call (p, i) whose completion depends on a call (q, k) waits
// w = Enter(q, k) - Enter(p, i) when Enter(p, i) < Enter(q, k) < Exit(p, i), clamped to the
// call's duration. The waiting span is [Enter(p, i), Enter(p, i) + w).

#include "model/support/progressreporter.h"
#include "model/trace/callsites.h"
#include "model/trace/ids.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

enum class WaitPattern : uint8_t
{
    LateSender,    ///< receive (or the wait completing it) entered before the send
    LateReceiver,  ///< synchronising send (ssend or above the eager limit) before the receive
    WaitAtBarrier, ///< MPI_Barrier: until the last rank enters
    WaitAtNxN,     ///< all-to-all style collectives: until the last rank enters
    LateBroadcast, ///< 1-to-N collectives: a non-root rank entered before the root
    EarlyReduce,   ///< N-to-1 collectives: the root waits for the last non-root rank
};
inline constexpr size_t kWaitPatternCount = 6;

/// Late Sender sub-pattern (model/waits/waitwrongorder.h): the receiver could have received a
/// message sent earlier, from the same rank it waited for or from another one.
enum class WrongOrder : uint8_t
{
    None,
    SameSource,
    DifferentSource
};

/// The JSON key of a pattern: late_sender, late_receiver, wait_at_barrier, wait_at_nxn,
/// late_broadcast, early_reduce.
std::string_view waitPatternKey(WaitPattern pattern);
/// Human-readable name: "Late Sender", ...
std::string_view waitPatternName(WaitPattern pattern);

/// One wait: who waited, in which call, for how long, because of whom. The 8-byte members
/// come first so that a wait takes 40 bytes, not 48 (a trace can hold one every few events).
struct WaitState
{
    int64_t begin = 0; ///< waiting span [begin, end), ns
    int64_t end = 0;
    RankId rank;             ///< the waiting rank
    uint32_t enterEvent = 0; ///< Enter of the waiting MPI call on the rank's main location
    RegionId region;         ///< the MPI function
    CallSiteId callSite;     ///< in WaitStateAnalysis::callSites
    RankId cause;            ///< the rank whose lateness made it wait
    WaitPattern pattern = WaitPattern::LateSender;
    bool direct = true; ///< false when the cause was itself waiting (propagated)
    WrongOrder wrongOrder = WrongOrder::None; ///< Late Sender only

    int64_t duration() const { return end - begin; }
    bool operator==(const WaitState& o) const
    {
        return std::tie(pattern, rank, enterEvent, region, callSite, begin, end, cause, direct,
                        wrongOrder) == std::tie(o.pattern, o.rank, o.enterEvent, o.region,
                                                o.callSite, o.begin, o.end, o.cause, o.direct,
                                                o.wrongOrder);
    }
};

struct WaitStateOptions
{
    /// Messages above this many bytes use rendezvous: a send waits for its receiver.
    uint64_t eagerLimit = 64 * 1024;
    ProgressCallback progress;
};

/// Totals for one (call site, pattern) pair.
struct CallSiteWait
{
    CallSiteId callSite;
    WaitPattern pattern = WaitPattern::LateSender;
    int64_t waitNs = 0;
    uint64_t occurrences = 0;
    bool operator==(const CallSiteWait&) const = default;
};

/// Totals for one (pattern, call site, waiting rank): the rows of the wait-state table, and what
/// a result summary (importers/rsum) keeps instead of the waits themselves.
struct WaitRow
{
    WaitPattern pattern = WaitPattern::LateSender;
    CallSiteId callSite;
    RankId rank;
    int64_t waitNs = 0;
    int64_t indirectNs = 0;
    int64_t wrongOrderNs = 0; ///< Late Sender with a message that could have come first
    int64_t longestNs = 0;    ///< the longest single wait
    uint64_t occurrences = 0;
    bool operator==(const WaitRow&) const = default;
};

struct WaitStateAnalysis
{
    CallSiteTable callSites;
    std::vector<WaitState> waits; ///< sorted by (rank, begin)
    std::array<int64_t, kWaitPatternCount> byPattern{};
    int64_t totalNs = 0;
    int64_t directNs = 0;
    int64_t indirectNs = 0;
    /// Late Sender waiting with messages in wrong order: [0] same source, [1] different source.
    std::array<int64_t, 2> wrongOrderNs{};
    std::vector<int64_t> byRank;          ///< indexed by RankId
    std::vector<CallSiteWait> byCallSite; ///< by descending waitNs
    /// Set only when `waits` is not held (an analysis read from a result summary): the rows
    /// waitRows() gives for the waits.
    std::vector<WaitRow> rows;
    bool cancelled = false;
};

/// The (pattern, call site, rank) rows of `a.waits`, by (rank, call site, pattern).
std::vector<WaitRow> waitRows(const WaitStateAnalysis& a);

/// Finds every wait state of `trace`.
WaitStateAnalysis analyzeWaitStates(const Trace& trace, const WaitStateOptions& options = {});

/// The totals and rows of analyzeWaitStates without holding the waits (`waits` stays empty,
/// `rows` is filled, as for an analysis read from a result summary): each rank is scanned
/// twice, first keeping only what the indirect test needs of its waits (8 bytes a wait), then
/// adding each wait to the totals as it is found. For commands that print totals, on traces
/// whose waits would cost more memory than the trace (one wait per few events).
WaitStateAnalysis analyzeWaitTotals(const Trace& trace, const WaitStateOptions& options = {});

} // namespace rankscope
