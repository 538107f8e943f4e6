#include "model/waits/waitstates.h"

#include "model/trace/perrank.h"
#include "model/trace/trace.h"
#include "model/waits/waitscan.h"

// Design note: each rank's main location is scanned once (MpiCallScanner, in waitscan.cpp); per MPI
// call the payload events give its dependencies (WaitPointToPoint, WaitCollectives), the latest one
// decides the call's single wait (so a call never counts twice, and the sum of waits stays
// within the MPI time). Partner calls are found through WaitCallLocator, collective arrivals
// from one pass over the collective table. Memory: one call's payload at a time plus results.
//
// Direct vs indirect (ALGORITHMS.md §6.3). A wait of p caused by q depends on q's call (q, k).
// The synchronisation interval before that point starts at q's last synchronising call before
// (q, k): the last MPI call of q that itself depended on another rank (a blocking receive, a
// wait completing receives, a synchronising send, a collective with a wait pattern), whether or
// not it waited. The wait of p is indirect (propagated) when that call of q held a wait state:
// q reached (q, k) late partly because it was waiting itself. Otherwise q was late by its own
// work, and the wait is direct. A wait inside (q, k) itself does not count: it starts at
// Enter(q, k), so it cannot have delayed that Enter. Using q's last synchronisation with any
// rank, not only with p, keeps the test one binary search per wait.

namespace rankscope {

std::string_view waitPatternKey(WaitPattern pattern)
{
    switch (pattern) {
    case WaitPattern::LateSender:
        return "late_sender";
    case WaitPattern::LateReceiver:
        return "late_receiver";
    case WaitPattern::WaitAtBarrier:
        return "wait_at_barrier";
    case WaitPattern::WaitAtNxN:
        return "wait_at_nxn";
    case WaitPattern::LateBroadcast:
        return "late_broadcast";
    case WaitPattern::EarlyReduce:
        return "early_reduce";
    }
    return "unknown";
}

std::string_view waitPatternName(WaitPattern pattern)
{
    switch (pattern) {
    case WaitPattern::LateSender:
        return "Late Sender";
    case WaitPattern::LateReceiver:
        return "Late Receiver";
    case WaitPattern::WaitAtBarrier:
        return "Wait at Barrier";
    case WaitPattern::WaitAtNxN:
        return "Wait at N x N";
    case WaitPattern::LateBroadcast:
        return "Late Broadcast";
    case WaitPattern::EarlyReduce:
        return "Early Reduce";
    }
    return "unknown";
}

namespace {

/// Marks the waits whose cause was itself waiting just before (see the design note).
void classifyIndirect(std::vector<RankWaits>& ranks)
{
    for (RankWaits& r : ranks) {
        for (size_t i = 0; i < r.waits.size(); ++i) {
            WaitState& w = r.waits[i];
            if (w.cause.value >= ranks.size()) continue;
            w.direct = causeWasIdle(ranks[w.cause.value], r.links[i].causeEvent);
        }
    }
}

} // namespace

WaitStateAnalysis analyzeWaitStates(const Trace& trace, const WaitStateOptions& options)
{
    WaitStateAnalysis analysis;
    const WaitScanner scanner(trace, options);
    std::vector<RankWaits> ranks = analyseEachRank<RankWaits>(
        trace, options.progress, [&](RankId rank, const ProgressCallback& progress) {
            return scanner.scan(rank, analysis.callSites, progress);
        });
    analysis.cancelled = !ranks.empty() && ranks.back().cancelled;
    if (!analysis.cancelled) classifyIndirect(ranks);

    size_t count = 0;
    for (RankWaits& r : ranks) {
        count += r.waits.size();
        std::vector<WaitLink>().swap(r.links); // classified: the links are done with
    }
    analysis.waits.reserve(count);
    for (RankWaits& r : ranks) {
        analysis.waits.insert(analysis.waits.end(), r.waits.begin(), r.waits.end());
        r = RankWaits(); // free as we go
    }
    addWaitTotals(analysis, trace.rankCount());
    return analysis;
}

WaitStateAnalysis analyzeWaitTotals(const Trace& trace, const WaitStateOptions& options)
{
    WaitStateAnalysis analysis;
    const WaitScanner scanner(trace, options);
    // First pass (the first half of the progress): what the indirect test reads of each wait.
    ProgressCallback first, second;
    if (options.progress) {
        first = [&](double f) { return options.progress(0.5 * f); };
        second = [&](double f) { return options.progress(0.5 + 0.5 * f); };
    }
    struct RankSyncs
    {
        std::vector<WaitSync> syncs;
        bool cancelled = false;
    };
    std::vector<RankSyncs> syncs = analyseEachRank<RankSyncs>(
        trace, first, [&](RankId rank, const ProgressCallback& progress) {
            const RankWaits w = scanner.scan(rank, analysis.callSites, progress);
            return RankSyncs{waitSyncs(w), w.cancelled};
        });
    if (!syncs.empty() && syncs.back().cancelled) {
        analysis.cancelled = true;
        return analysis;
    }
    // Second pass: the same waits again (call sites already interned, in the same order), each
    // classified and added to the totals; one rank's waits held at a time.
    analysis.byRank.assign(trace.rankCount(), 0);
    WaitTotals totals(analysis, &analysis.rows);
    struct Done
    {
        bool cancelled = false;
    };
    const std::vector<Done> done =
        analyseEachRank<Done>(trace, second, [&](RankId rank, const ProgressCallback& progress) {
            RankWaits r = scanner.scan(rank, analysis.callSites, progress);
            if (r.cancelled) return Done{true};
            for (size_t i = 0; i < r.waits.size(); ++i) {
                WaitState& w = r.waits[i];
                if (w.cause.value < syncs.size())
                    w.direct = causeWasIdle(syncs[w.cause.value].syncs, r.links[i].causeEvent);
                totals.add(w);
            }
            return Done{};
        });
    analysis.cancelled = !done.empty() && done.back().cancelled;
    totals.finish();
    return analysis;
}

} // namespace rankscope
