#pragma once
// The per-rank pass of the wait-state analysis (model/waits/waitstates.h), open to callers that
// hold only some ranks (rankscope-mpi): scan a rank, test a wait's cause for waiting, total the
// waits, merge totals of parts. analyzeWaitStates is these steps over every rank of one trace.

#include "model/waits/waitboundary.h"
#include "model/waits/waitcollectives.h"
#include "model/waits/waitstates.h"

#include <memory>
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

/// Fills the totals of `a` (byPattern ... byCallSite) from a.waits; byRank gets `rankCount` rows.
void addWaitTotals(WaitStateAnalysis& a, size_t rankCount);

/// The totals (and rows) of several parts of one trace, each holding its ranks' totals (waits
/// may be empty), merged in part order: call sites in order of first sight over the parts, so in
/// the order of the whole trace's analysis when parts hold ascending blocks of ranks.
WaitStateAnalysis mergeWaitTotals(std::vector<WaitStateAnalysis> parts, size_t rankCount);

} // namespace rankscope
