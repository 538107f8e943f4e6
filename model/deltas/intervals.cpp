#include "model/deltas/intervals.h"

#include "model/deltas/deltascanner.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/perrank.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope {

namespace {

uint64_t pairKey(CallSiteId a, CallSiteId b)
{
    return uint64_t(a.value) << 32 | b.value;
}

RankIntervals rankIntervals(const Trace& trace, RankId rank, const MpiLifecycle& lifecycle,
                            const ProgressCallback& progress)
{
    RankIntervals result;
    result.rank = rank;
    CallSiteResolver resolver(trace, result.callSites);
    DeltaScanner scanner(trace, rank, resolver, lifecycle);
    ProgressReporter reporter(progress, scanner.eventCount());
    // One hash lookup per delta; the map grows with the rank's distinct intervals.
    std::unordered_map<uint64_t, uint32_t> index;
    DeltaTime delta;
    while (scanner.next(delta)) {
        const auto [it, added] =
            index.try_emplace(pairKey(delta.from, delta.to), uint32_t(result.intervals.size()));
        if (added) result.intervals.push_back({delta.from, delta.to, {}});
        result.intervals[it->second].stats.add(delta.delta());
        result.deltaSum += delta.delta();
        if (!reporter.update(scanner.position())) {
            result.cancelled = true;
            return result;
        }
    }
    result.cancelled = !reporter.report(scanner.eventCount());
    return result;
}

} // namespace

std::string IntervalTable::name(const ExecutionInterval& interval) const
{
    std::string s(callSites.name(interval.from));
    s += " - ";
    s += callSites.name(interval.to);
    return s;
}

const ExecutionInterval* IntervalTable::find(std::string_view from, std::string_view to) const
{
    const CallSiteId a = callSites.find(from);
    const CallSiteId b = callSites.find(to);
    if (!a.valid() || !b.valid()) return nullptr;
    const auto it =
        std::find_if(intervals.begin(), intervals.end(),
                     [&](const ExecutionInterval& i) { return i.from == a && i.to == b; });
    return it == intervals.end() ? nullptr : &*it;
}

int64_t IntervalTable::maxRankDeltaSum() const
{
    return rankDeltaSums.empty() ? 0
                                 : *std::max_element(rankDeltaSums.begin(), rankDeltaSums.end());
}

RankId IntervalTable::maxRankDeltaSumRank() const
{
    if (rankDeltaSums.empty()) return {};
    const auto it = std::max_element(rankDeltaSums.begin(), rankDeltaSums.end());
    return RankId(uint32_t(it - rankDeltaSums.begin()));
}

RankIntervals computeRankIntervals(const Trace& trace, RankId rank,
                                   const ProgressCallback& progress)
{
    return rankIntervals(trace, rank, MpiLifecycle::of(trace), progress);
}

IntervalTable mergeRankIntervals(size_t rankCount, const std::vector<RankIntervals>& ranks)
{
    // Merge in rank order so call-site ids and per-rank lists do not depend on the input order.
    std::vector<const RankIntervals*> ordered;
    ordered.reserve(ranks.size());
    for (const RankIntervals& r : ranks)
        ordered.push_back(&r);
    std::sort(ordered.begin(), ordered.end(),
              [](const RankIntervals* a, const RankIntervals* b) { return a->rank < b->rank; });

    IntervalTable table;
    table.rankDeltaSums.assign(rankCount, 0);
    std::unordered_map<uint64_t, uint32_t> index;
    for (const RankIntervals* r : ordered) {
        table.cancelled = table.cancelled || r->cancelled;
        if (r->rank.value < rankCount) table.rankDeltaSums[r->rank.value] += r->deltaSum;
        const std::vector<CallSiteId> remap = table.callSites.merge(r->callSites);
        for (const RankIntervals::Interval& local : r->intervals) {
            const CallSiteId from = remap[local.from.value];
            const CallSiteId to = remap[local.to.value];
            const auto [it, added] =
                index.try_emplace(pairKey(from, to), uint32_t(table.intervals.size()));
            if (added) table.intervals.push_back({from, to, {}, {}});
            ExecutionInterval& global = table.intervals[it->second];
            global.stats.merge(local.stats);
            global.perRank.push_back({r->rank, local.stats});
        }
    }
    const CallSiteTable& sites = table.callSites;
    std::sort(table.intervals.begin(), table.intervals.end(),
              [&](const ExecutionInterval& a, const ExecutionInterval& b) {
                  return std::pair(sites.name(a.from), sites.name(a.to)) <
                         std::pair(sites.name(b.from), sites.name(b.to));
              });
    return table;
}

IntervalTable computeIntervals(const Trace& trace, const ProgressCallback& progress)
{
    const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
    const auto ranks = analyseEachRank<RankIntervals>(
        trace, progress, [&](RankId rank, const ProgressCallback& rankProgress) {
            return rankIntervals(trace, rank, lifecycle, rankProgress);
        });
    const bool cancelled = !ranks.empty() && ranks.back().cancelled;
    IntervalTable table = mergeRankIntervals(trace.rankCount(), ranks);
    table.cancelled = cancelled;
    return table;
}

} // namespace rankscope
