#include "model/waits/waitstates.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/perrank.h"
#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"
#include "model/waits/waitcollectives.h"
#include "model/waits/waitdependency.h"
#include "model/waits/waitpointtopoint.h"
#include "model/waits/waitwrongorder.h"

#include <algorithm>
#include <unordered_map>

// Design note: each rank's main location is scanned once (MpiCallScanner); per MPI call the
// payload events give its dependencies (WaitPointToPoint, WaitCollectives), the latest one
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

/// What the indirect test needs beside a WaitState (kept apart: not part of the result).
struct WaitLink
{
    uint32_t causeEvent = kNoEvent; ///< Enter of the cause's call on the cause's main location
    uint32_t nextSync = kNoEvent;   ///< Enter of the waiting rank's next synchronising call
    uint32_t leaveEvent = kNoEvent; ///< Leave of the waiting call (wrong-order test)
};

struct RankWaits
{
    std::vector<WaitState> waits; // in call order, so by begin
    std::vector<WaitLink> links;  // parallel to waits
    bool cancelled = false;
};

/// Remembers a matched message received from another rank by the payload event `p`.
void noteReceived(const Trace& trace, RankId rank, const CallPayload& p,
                  std::vector<ReceivedMessage>& received)
{
    if (p.kind != EventKind::MpiRecv && p.kind != EventKind::MpiIrecv) return;
    const Message& m = trace.message(p.message());
    if (!m.matched()) return;
    const RankId sender = trace.rankOf(m.sendLocation);
    if (sender != rank)
        received.push_back({trace.events(m.sendLocation).time(m.sendEvent), p.event, sender});
}

struct Detectors
{
    const WaitPointToPoint& p2p;
    const WaitCollectives& collectives;
};

RankWaits scanRank(const Trace& trace, RankId rank, CallSiteTable& callSites,
                   const Detectors& detect, const ProgressCallback& progress)
{
    RankWaits result;
    CallSiteResolver resolver(trace, callSites);
    MpiCallScanner scanner(trace, rank, &resolver);
    ProgressReporter reporter(progress, scanner.eventCount());
    std::vector<CallPayload> payload; // the current call's only
    std::vector<ReceivedMessage> received;
    CallRecord call;
    bool linkOpen = false; // the last wait still needs the next synchronising call
    while (scanner.next(call, &payload)) {
        WaitDependency dep;
        bool synchronising = false;
        for (uint32_t i = call.firstPayload; i < call.firstPayload + call.payloadCount; ++i) {
            if (isPointToPoint(payload[i].kind)) {
                synchronising |= detect.p2p.consider(rank, call, payload[i], dep);
                noteReceived(trace, rank, payload[i], received);
            } else
                synchronising |= detect.collectives.consider(rank, call, payload[i], dep);
        }
        payload.clear();
        if (synchronising && linkOpen) {
            result.links.back().nextSync = call.enterEvent;
            linkOpen = false;
        }
        // §6.1: w = Enter(q, k) - Enter(p, i), clamped to the call's duration.
        if (dep.valid() && dep.causeEnter > call.enterTime && call.duration() > 0) {
            const int64_t w = std::min(dep.causeEnter - call.enterTime, call.duration());
            CallSiteId site = call.callSite;
            if (!site.valid()) site = callSites.intern(trace.regionName(call.region));
            result.waits.push_back({dep.pattern, rank, call.enterEvent, call.region, site,
                                    call.enterTime, call.enterTime + w, dep.cause, true});
            result.links.push_back({dep.causeEvent, kNoEvent, call.leaveEvent});
            linkOpen = true;
        }
        if (!reporter.update(scanner.position())) {
            result.cancelled = true;
            return result;
        }
    }
    result.cancelled = !reporter.report(scanner.eventCount());
    std::vector<uint32_t> leaves(result.links.size());
    for (size_t i = 0; i < leaves.size(); ++i)
        leaves[i] = result.links[i].leaveEvent;
    classifyWrongOrder(result.waits, leaves, received);
    return result;
}

/// Marks the waits whose cause was itself waiting just before (see the design note).
void classifyIndirect(std::vector<RankWaits>& ranks)
{
    for (RankWaits& r : ranks) {
        for (size_t i = 0; i < r.waits.size(); ++i) {
            WaitState& w = r.waits[i];
            if (w.cause.value >= ranks.size()) continue;
            const RankWaits& q = ranks[w.cause.value];
            const uint32_t point = r.links[i].causeEvent;
            // q's last wait in a call entered before (q, k): indirect when no synchronising
            // call of q lies between it and (q, k).
            const auto it =
                std::partition_point(q.waits.begin(), q.waits.end(),
                                     [point](const WaitState& x) { return x.enterEvent < point; });
            if (it == q.waits.begin()) continue;
            const size_t j = size_t(it - q.waits.begin()) - 1;
            w.direct = q.links[j].nextSync < point;
        }
    }
}

void addTotals(WaitStateAnalysis& a, size_t rankCount)
{
    a.byRank.assign(rankCount, 0);
    std::unordered_map<uint64_t, size_t> sites; // (call site, pattern) -> byCallSite row
    for (const WaitState& w : a.waits) {
        const int64_t d = w.duration();
        a.byPattern[size_t(w.pattern)] += d;
        a.totalNs += d;
        (w.direct ? a.directNs : a.indirectNs) += d;
        if (w.wrongOrder != WrongOrder::None)
            a.wrongOrderNs[w.wrongOrder == WrongOrder::SameSource ? 0 : 1] += d;
        a.byRank[w.rank.value] += d;
        const uint64_t key = uint64_t(w.callSite.value) << 8 | uint64_t(w.pattern);
        const auto [it, added] = sites.try_emplace(key, a.byCallSite.size());
        if (added) a.byCallSite.push_back({w.callSite, w.pattern, 0, 0});
        a.byCallSite[it->second].waitNs += d;
        ++a.byCallSite[it->second].occurrences;
    }
    std::sort(
        a.byCallSite.begin(), a.byCallSite.end(), [](const CallSiteWait& x, const CallSiteWait& y) {
            if (x.waitNs != y.waitNs) return x.waitNs > y.waitNs;
            return std::tie(x.callSite.value, x.pattern) < std::tie(y.callSite.value, y.pattern);
        });
}

} // namespace

WaitStateAnalysis analyzeWaitStates(const Trace& trace, const WaitStateOptions& options)
{
    WaitStateAnalysis analysis;
    const WaitCallLocator locator(trace);
    const WaitPointToPoint p2p(trace, locator, options.eagerLimit);
    const WaitCollectives collectives(trace, locator);
    const Detectors detect{p2p, collectives};

    std::vector<RankWaits> ranks = analyseEachRank<RankWaits>(
        trace, options.progress, [&](RankId rank, const ProgressCallback& progress) {
            return scanRank(trace, rank, analysis.callSites, detect, progress);
        });
    analysis.cancelled = !ranks.empty() && ranks.back().cancelled;
    if (!analysis.cancelled) classifyIndirect(ranks);

    size_t count = 0;
    for (const RankWaits& r : ranks)
        count += r.waits.size();
    analysis.waits.reserve(count);
    for (RankWaits& r : ranks) {
        analysis.waits.insert(analysis.waits.end(), r.waits.begin(), r.waits.end());
        r = RankWaits(); // free as we go
    }
    addTotals(analysis, trace.rankCount());
    return analysis;
}

} // namespace rankscope
