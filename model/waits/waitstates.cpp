#include "model/waits/waitstates.h"

#include "model/support/memorybudget.h"
#include "model/trace/perrank.h"
#include "model/trace/trace.h"
#include "model/waits/waitscan.h"

#include <algorithm>
#include <optional>

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

WaitStateAnalysis analyzeWaitStates(const Trace& trace, const WaitStateOptions& options)
{
    WaitStateAnalysis analysis;
    const WaitScanner scanner(trace, options);
    const size_t ranks = trace.rankCount();
    // Every wait lies in its own MPI call, which has an Enter and a Leave: a rank has at most
    // half its main location's events in waits. Reserved at that bound (address space: a page
    // is resident once written), the waits are appended rank by rank and never gathered again,
    // which held them twice at the end; the bound is taken only while it is a small part of the
    // memory available, else the table grows as it fills.
    uint64_t bound = 0;
    for (uint32_t r = 0; r < ranks; ++r)
        bound += trace.rankEvents(RankId(r)).size() / 2 + 1;
    std::vector<WaitLink> links;
    const std::optional<uint64_t> available = availableMemoryBytes();
    if (!available || bound * (sizeof(WaitState) + sizeof(WaitLink)) <= *available / 4) {
        analysis.waits.reserve(bound);
        links.reserve(bound);
    }
    std::vector<size_t> first{0}; // rank r's waits: [first[r], first[r + 1])
    struct Scanned
    {
        bool cancelled = false;
    };
    const std::vector<Scanned> done = analyseEachRank<Scanned>(
        trace, options.progress, [&](RankId rank, const ProgressCallback& progress) {
            const RankWaits r = scanner.scan(rank, analysis.callSites, progress);
            analysis.waits.insert(analysis.waits.end(), r.waits.begin(), r.waits.end());
            links.insert(links.end(), r.links.begin(), r.links.end());
            first.push_back(analysis.waits.size());
            return Scanned{r.cancelled};
        });
    first.resize(ranks + 1, analysis.waits.size()); // ranks after a cancel hold none
    analysis.cancelled = !done.empty() && done.back().cancelled;

    // The indirect test (see the design note) on the cause rank's part of the table.
    if (!analysis.cancelled) {
        std::vector<WaitState>& waits = analysis.waits;
        for (WaitState& w : waits) {
            if (w.cause.value >= ranks) continue;
            const size_t i = size_t(&w - waits.data());
            const uint32_t point = links[i].causeEvent;
            const auto b = waits.begin() + std::ptrdiff_t(first[w.cause.value]);
            const auto e = waits.begin() + std::ptrdiff_t(first[w.cause.value + 1]);
            const auto it = std::partition_point(
                b, e, [point](const WaitState& x) { return x.enterEvent < point; });
            w.direct = it == b || links[size_t(it - waits.begin()) - 1].nextSync < point;
        }
    }
    std::vector<WaitLink>().swap(links);
    addWaitTotals(analysis, ranks);
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
