#include "model/waits/waitscan.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"
#include "model/waits/waitdependency.h"
#include "model/waits/waitpointtopoint.h"
#include "model/waits/waitwrongorder.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope {

WaitScanner::WaitScanner(const Trace& trace, const WaitStateOptions& options)
    : trace_(trace), locator_(std::make_unique<WaitCallLocator>(trace)),
      p2p_(std::make_unique<WaitPointToPoint>(trace, *locator_, options.eagerLimit)),
      collectives_(std::make_unique<WaitCollectives>(trace, *locator_))
{
}

WaitScanner::WaitScanner(const Trace& trace, const WaitStateOptions& options,
                         const WaitBoundary& boundary, std::vector<CollectiveArrivals> summaries)
    : trace_(trace), boundary_(&boundary), locator_(std::make_unique<WaitCallLocator>(trace)),
      p2p_(std::make_unique<WaitPointToPoint>(trace, *locator_, options.eagerLimit, &boundary)),
      collectives_(std::make_unique<WaitCollectives>(trace, std::move(summaries)))
{
}

WaitScanner::~WaitScanner() = default;

namespace {

/// Remembers a matched message received from another rank by the payload event `p`.
void noteReceived(const Trace& trace, const WaitBoundary* boundary, RankId rank,
                  const CallPayload& p, std::vector<ReceivedMessage>& received)
{
    if (p.kind != EventKind::MpiRecv && p.kind != EventKind::MpiIrecv) return;
    const Message& m = trace.message(p.message());
    if (!m.matched()) {
        // Sent by a rank another process holds: its send time came with the boundary.
        if (boundary == nullptr || m.sendLocation.valid()) return;
        const auto it = boundary->sends.find(p.message().value);
        if (it != boundary->sends.end())
            received.push_back({it->second.sendTime, p.event, trace.messageSender(m)});
        return;
    }
    const RankId sender = trace.rankOf(m.sendLocation);
    if (sender != rank)
        received.push_back({trace.events(m.sendLocation).time(m.sendEvent), p.event, sender});
}

} // namespace

RankWaits WaitScanner::scan(RankId rank, CallSiteTable& callSites,
                            const ProgressCallback& progress) const
{
    const Trace& trace = trace_;
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
                synchronising |= p2p_->consider(rank, call, payload[i], dep);
                noteReceived(trace, boundary_, rank, payload[i], received);
            } else
                synchronising |= collectives_->consider(rank, call, payload[i], dep);
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
            WaitState ws;
            ws.begin = call.enterTime;
            ws.end = call.enterTime + w;
            ws.rank = rank;
            ws.enterEvent = call.enterEvent;
            ws.region = call.region;
            ws.callSite = site;
            ws.cause = dep.cause;
            ws.pattern = dep.pattern;
            result.waits.push_back(ws);
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
    // Every rank's waits are held until all are classified: no spare capacity.
    result.waits.shrink_to_fit();
    result.links.shrink_to_fit();
    return result;
}

bool causeWasIdle(const RankWaits& q, uint32_t point)
{
    // q's last wait in a call entered before (q, k): indirect when no synchronising call of q
    // lies between it and (q, k).
    const auto it =
        std::partition_point(q.waits.begin(), q.waits.end(),
                             [point](const WaitState& x) { return x.enterEvent < point; });
    if (it == q.waits.begin()) return true;
    const size_t j = size_t(it - q.waits.begin()) - 1;
    return q.links[j].nextSync < point;
}

std::vector<WaitSync> waitSyncs(const RankWaits& q)
{
    std::vector<WaitSync> syncs(q.waits.size());
    for (size_t i = 0; i < syncs.size(); ++i)
        syncs[i] = {q.waits[i].enterEvent, q.links[i].nextSync};
    return syncs;
}

bool causeWasIdle(const std::vector<WaitSync>& q, uint32_t point)
{
    // As above, on the two numbers the test reads.
    const auto it = std::partition_point(q.begin(), q.end(),
                                         [point](const WaitSync& x) { return x.enter < point; });
    return it == q.begin() || std::prev(it)->nextSync < point;
}

namespace {

void sortByCallSite(std::vector<CallSiteWait>& rows)
{
    std::sort(rows.begin(), rows.end(), [](const CallSiteWait& x, const CallSiteWait& y) {
        if (x.waitNs != y.waitNs) return x.waitNs > y.waitNs;
        return std::tie(x.callSite.value, x.pattern) < std::tie(y.callSite.value, y.pattern);
    });
}

void sortRows(std::vector<WaitRow>& rows)
{
    std::sort(rows.begin(), rows.end(), [](const WaitRow& x, const WaitRow& y) {
        return std::tie(x.rank.value, x.callSite.value, x.pattern) <
               std::tie(y.rank.value, y.callSite.value, y.pattern);
    });
}

uint64_t siteKey(CallSiteId site, WaitPattern pattern)
{
    return uint64_t(site.value) << 8 | uint64_t(pattern);
}

} // namespace

void WaitTotals::add(const WaitState& w)
{
    const int64_t d = w.duration();
    a_.byPattern[size_t(w.pattern)] += d;
    a_.totalNs += d;
    (w.direct ? a_.directNs : a_.indirectNs) += d;
    if (w.wrongOrder != WrongOrder::None)
        a_.wrongOrderNs[w.wrongOrder == WrongOrder::SameSource ? 0 : 1] += d;
    if (w.rank.value >= a_.byRank.size()) a_.byRank.resize(w.rank.value + 1, 0);
    a_.byRank[w.rank.value] += d;
    const auto [it, added] =
        sites_.try_emplace(siteKey(w.callSite, w.pattern), a_.byCallSite.size());
    if (added) a_.byCallSite.push_back({w.callSite, w.pattern, 0, 0});
    a_.byCallSite[it->second].waitNs += d;
    ++a_.byCallSite[it->second].occurrences;
    if (!rows_) return;
    if (w.rank != rank_) {
        rankRows_.clear();
        rank_ = w.rank;
    }
    const auto [row, newRow] = rankRows_.try_emplace(siteKey(w.callSite, w.pattern), rows_->size());
    if (newRow) rows_->push_back({w.pattern, w.callSite, w.rank, 0, 0, 0, 0, 0});
    WaitRow& r = (*rows_)[row->second];
    r.waitNs += d;
    r.indirectNs += w.direct ? 0 : d;
    r.wrongOrderNs += w.wrongOrder != WrongOrder::None ? d : 0;
    r.longestNs = std::max(r.longestNs, d);
    ++r.occurrences;
}

void WaitTotals::finish()
{
    sortByCallSite(a_.byCallSite);
    if (rows_) sortRows(*rows_);
}

void addWaitTotals(WaitStateAnalysis& a, size_t rankCount)
{
    a.byRank.assign(rankCount, 0);
    WaitTotals totals(a, nullptr);
    for (const WaitState& w : a.waits)
        totals.add(w);
    totals.finish();
}

WaitStateAnalysis mergeWaitTotals(std::vector<WaitStateAnalysis> parts, size_t rankCount)
{
    WaitStateAnalysis a;
    a.byRank.assign(rankCount, 0);
    std::unordered_map<uint64_t, size_t> sites;
    for (WaitStateAnalysis& part : parts) {
        const std::vector<CallSiteId> ids = a.callSites.merge(part.callSites);
        for (size_t p = 0; p < kWaitPatternCount; ++p)
            a.byPattern[p] += part.byPattern[p];
        a.totalNs += part.totalNs;
        a.directNs += part.directNs;
        a.indirectNs += part.indirectNs;
        a.wrongOrderNs[0] += part.wrongOrderNs[0];
        a.wrongOrderNs[1] += part.wrongOrderNs[1];
        for (size_t r = 0; r < part.byRank.size() && r < rankCount; ++r)
            a.byRank[r] += part.byRank[r];
        for (const CallSiteWait& c : part.byCallSite) {
            const CallSiteId site = ids[c.callSite.value];
            const auto [it, added] =
                sites.try_emplace(siteKey(site, c.pattern), a.byCallSite.size());
            if (added) a.byCallSite.push_back({site, c.pattern, 0, 0});
            a.byCallSite[it->second].waitNs += c.waitNs;
            a.byCallSite[it->second].occurrences += c.occurrences;
        }
        for (WaitRow row : part.rows) {
            row.callSite = ids[row.callSite.value];
            a.rows.push_back(row);
        }
        a.cancelled = a.cancelled || part.cancelled;
        part = WaitStateAnalysis(); // free as we go
    }
    sortByCallSite(a.byCallSite);
    sortRows(a.rows);
    return a;
}

std::vector<WaitRow> waitRows(const WaitStateAnalysis& a)
{
    // The totals of a scratch analysis are thrown away; only the rows are kept.
    std::vector<WaitRow> rows;
    WaitStateAnalysis scratch;
    WaitTotals totals(scratch, &rows);
    for (const WaitState& w : a.waits)
        totals.add(w);
    totals.finish();
    return rows;
}

} // namespace rankscope
