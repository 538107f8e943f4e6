#pragma once
// The per-rank pass of the wait-state analysis (model/waits/waitstates.h), open to callers that
// hold only some ranks (rankscope-mpi): scan a rank, test a wait's cause for waiting, total the
// waits, merge totals of parts. analyzeWaitStates is these steps over every rank of one trace.

#include "model/waits/waitboundary.h"
#include "model/waits/waitcollectives.h"
#include "model/waits/waitstates.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace rankscope {

class WaitCallLocator;
class WaitPointToPoint;

/// What the indirect test needs beside a WaitState (kept apart: not part of the result).
struct WaitLink
{
    uint32_t causeEvent = kNoEvent; ///< Enter of the cause's call on the cause's location
    uint32_t nextSync = kNoEvent;   ///< Enter of the waiting rank's next synchronising call
    uint32_t leaveEvent = kNoEvent; ///< Leave of the waiting call (wrong-order test)
};

/// The waits of one rank, in call order (so by begin), directness not yet decided.
struct RankWaits
{
    std::vector<WaitState> waits;
    std::vector<WaitLink> links; ///< parallel to waits
    bool cancelled = false;
};

class WaitScanner
{
public:
    /// Over a whole trace: every partner is in `trace`.
    WaitScanner(const Trace& trace, const WaitStateOptions& options);
    /// Over a part: partners on ranks not read come from `boundary` (messages) and `summaries`
    /// (every collective instance of `trace`, by CollectiveId). `boundary` must outlive this.
    WaitScanner(const Trace& trace, const WaitStateOptions& options, const WaitBoundary& boundary,
                std::vector<CollectiveArrivals> summaries);
    ~WaitScanner();

    /// The waits of `rank`; call sites are interned into `callSites` in order of first sight.
    RankWaits scan(RankId rank, CallSiteTable& callSites, const ProgressCallback& progress) const;

    const WaitCallLocator& locator() const { return *locator_; }

private:
    const Trace& trace_;
    const WaitBoundary* boundary_ = nullptr;
    std::unique_ptr<WaitCallLocator> locator_;
    std::unique_ptr<WaitPointToPoint> p2p_;
    std::unique_ptr<WaitCollectives> collectives_;
};

/// The indirect test (waitstates.cpp's design note): a wait caused at `point` (the Enter of the
/// cause's call) is direct unless the cause's last wait before `point` was followed by no
/// synchronising call before it. `cause` holds the cause rank's waits.
bool causeWasIdle(const RankWaits& cause, uint32_t point);

/// What the indirect test reads of one wait of the cause rank: the Enter of its call and of
/// the rank's next synchronising call (8 bytes, where a WaitState and its link take 60).
struct WaitSync
{
    uint32_t enter = kNoEvent;
    uint32_t nextSync = kNoEvent;
};
/// The WaitSync of each of `q`'s waits, in order.
std::vector<WaitSync> waitSyncs(const RankWaits& q);
/// causeWasIdle on the compact form.
bool causeWasIdle(const std::vector<WaitSync>& cause, uint32_t point);

/// Adds waits one at a time to the totals of an analysis (byPattern ... byCallSite) and, when
/// given a row list, to the (pattern, call site, rank) rows; waits of a rank come together.
class WaitTotals
{
public:
    /// `a`'s byRank should be sized to the rank count first (it grows if not).
    WaitTotals(WaitStateAnalysis& a, std::vector<WaitRow>* rows) : a_(a), rows_(rows) {}
    void add(const WaitState& w);
    /// Sorts byCallSite (by descending wait) and the rows (by rank, call site, pattern).
    void finish();

private:
    WaitStateAnalysis& a_;
    std::vector<WaitRow>* rows_;
    std::unordered_map<uint64_t, size_t> sites_;    ///< (call site, pattern) -> byCallSite row
    std::unordered_map<uint64_t, size_t> rankRows_; ///< (call site, pattern) -> row of rank_
    RankId rank_;
};

/// Fills the totals of `a` (byPattern ... byCallSite) from a.waits; byRank gets `rankCount` rows.
void addWaitTotals(WaitStateAnalysis& a, size_t rankCount);

/// The totals (and rows) of several parts of one trace, each holding its ranks' totals (waits
/// may be empty), merged in part order: call sites in order of first sight over the parts, so in
/// the order of the whole trace's analysis when parts hold ascending blocks of ranks.
WaitStateAnalysis mergeWaitTotals(std::vector<WaitStateAnalysis> parts, size_t rankCount);

} // namespace rankscope
