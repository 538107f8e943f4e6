#include "model/waits/rootcause.h"

#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "model/waits/rootcausecursor.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace rankscope {

namespace {

// 128-bit products: a wait and an excess of a few seconds each overflow 64 bits in ns^2.
__extension__ typedef __int128 Int128;

constexpr uint32_t kWaitingSide = 0; // the sync point of the waiting rank, at WaitState::begin
constexpr uint32_t kCauseSide = 1;   // the sync point of the cause rank, at WaitState::end

/// Splits `wait` ns over the hotspots in proportion to `sigma` (sum `total` > 0): floor shares,
/// the remainder to the largest excess (lowest index on ties), so the parts add up to `wait`.
void splitWait(const std::vector<int64_t>& sigma, int64_t total, int64_t wait,
               std::vector<int64_t>& parts)
{
    parts.assign(sigma.size(), 0);
    int64_t given = 0;
    size_t largest = 0;
    for (size_t c = 0; c < sigma.size(); ++c) {
        if (sigma[c] == 0) continue;
        parts[c] = int64_t(Int128(sigma[c]) * wait / total);
        given += parts[c];
        if (sigma[c] > sigma[largest]) largest = c;
    }
    parts[largest] += wait - given;
}

} // namespace

bool chargeableWait(const WaitState& w, size_t rankCount)
{
    return w.rank.valid() && w.cause.valid() && w.rank.value < rankCount &&
           w.cause.value < rankCount && w.rank != w.cause && w.end > w.begin;
}

bool chargeWait(std::span<const int64_t> causeInterval, std::span<const int64_t> waitingInterval,
                int64_t wait, std::vector<int64_t>& sigma, std::vector<int64_t>& parts)
{
    sigma.resize(causeInterval.size());
    int64_t sigmaSum = 0;
    for (size_t c = 0; c < sigma.size(); ++c) {
        sigma[c] = std::max<int64_t>(0, causeInterval[c] - waitingInterval[c]);
        sigmaSum += sigma[c];
    }
    if (sigmaSum == 0) return false; // q did no more hotspot work than p: nothing to charge
    splitWait(sigma, sigmaSum, wait, parts);
    return true;
}

std::vector<RegionId> findHotspots(const Trace& trace, double thresholdPercent,
                                   const ProgressCallback& progress, bool* cancelled)
{
    if (cancelled) *cancelled = false;
    // One rank profile at a time, folded into per-region totals: memory stays regions-sized.
    std::vector<int64_t> exclusive(trace.regions().size(), 0);
    uint64_t totalEvents = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r)
        totalEvents += trace.rankEvents(RankId(r)).size();
    uint64_t done = 0;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        const uint64_t events = trace.rankEvents(RankId(r)).size();
        ProgressCallback rankProgress;
        if (progress) {
            rankProgress = [&progress, done, events, totalEvents](double f) {
                return progress(totalEvents == 0
                                    ? 1.0
                                    : (double(done) + f * double(events)) / double(totalEvents));
            };
        }
        const RankProfile rp = computeRankProfile(trace, RankId(r), rankProgress);
        if (rp.cancelled) {
            if (cancelled) *cancelled = true;
            return {};
        }
        for (size_t g = 0; g < rp.regions.size() && g < exclusive.size(); ++g)
            exclusive[g] += rp.regions[g].exclusive;
        done += events;
    }

    return hotspotsOf(trace, exclusive, thresholdPercent);
}

std::vector<RegionId> hotspotsOf(const Trace& trace, const std::vector<int64_t>& exclusive,
                                 double thresholdPercent)
{
    int64_t total = 0;
    for (int64_t e : exclusive)
        total += e;
    std::vector<RegionId> hotspots;
    if (total <= 0) return hotspots;
    for (uint32_t g = 0; g < exclusive.size(); ++g) {
        // excl >= h% of total, compared without dividing.
        if (!trace.region(RegionId(g)).isMpi() && exclusive[g] > 0 &&
            double(exclusive[g]) * 100.0 >= thresholdPercent * double(total))
            hotspots.push_back(RegionId(g));
    }
    std::sort(hotspots.begin(), hotspots.end(), [&](RegionId a, RegionId b) {
        if (exclusive[a.value] != exclusive[b.value])
            return exclusive[a.value] > exclusive[b.value];
        return a < b;
    });
    return hotspots;
}

RootCauseReport analyzeRootCauses(const Trace& trace, const WaitStateAnalysis& analysis,
                                  const RootCauseOptions& options)
{
    RootCauseReport report;
    const std::vector<WaitState>& waits = analysis.waits;
    const size_t rankCount = trace.rankCount();

    // Progress: the hotspot pass is the first half, the sweep the second.
    ProgressCallback firstHalf;
    if (options.progress) firstHalf = [&options](double f) { return options.progress(0.5 * f); };
    bool cancelled = false;
    report.hotspots = findHotspots(trace, options.hotspotThresholdPercent, firstHalf, &cancelled);
    if (cancelled) {
        report.cancelled = true;
        return report;
    }

    std::map<uint32_t, int64_t> waitAtCallSite;
    for (const WaitState& w : waits) {
        report.totalWaitNs += w.duration();
        if (w.callSite.valid()) waitAtCallSite[w.callSite.value] += w.duration();
    }

    const size_t hotspotCount = report.hotspots.size();
    std::vector<uint32_t> hotspotOf(trace.regions().size(), RootCauseCursor::kNotHotspot);
    for (uint32_t h = 0; h < hotspotCount; ++h)
        hotspotOf[report.hotspots[h].value] = h;

    // Both synchronisation points of every wait, in time order; at equal times the waiting side
    // first, so a wait's own interval on p is known when its cause side is reached.
    std::vector<uint32_t> items;
    items.reserve(2 * waits.size());
    for (uint32_t i = 0; i < waits.size(); ++i) {
        if (!chargeableWait(waits[i], rankCount)) continue;
        items.push_back(2 * i + kWaitingSide);
        items.push_back(2 * i + kCauseSide);
    }
    const auto itemTime = [&](uint32_t item) {
        const WaitState& w = waits[item / 2];
        return item % 2 == kWaitingSide ? w.begin : w.end;
    };
    std::sort(items.begin(), items.end(), [&](uint32_t a, uint32_t b) {
        const int64_t ta = itemTime(a);
        const int64_t tb = itemTime(b);
        if (ta != tb) return ta < tb;
        if (a % 2 != b % 2) return a % 2 < b % 2;
        return a < b;
    });

    std::vector<RootCauseCursor> cursors;
    cursors.reserve(rankCount);
    uint64_t totalEvents = 0;
    for (uint32_t r = 0; r < rankCount; ++r) {
        cursors.emplace_back(trace.rankEvents(RankId(r)), &hotspotOf, hotspotCount);
        totalEvents += trace.rankEvents(RankId(r)).size();
    }

    // Intervals of waiting ranks whose wait has not reached its cause side yet: at most the
    // waits open at one moment (about one per rank), not all waits.
    std::unordered_map<uint32_t, std::vector<int64_t>> pending;
    std::vector<int64_t> rankCost(rankCount * hotspotCount, 0);
    std::map<std::pair<uint32_t, uint32_t>, int64_t> siteCost; // (call site, hotspot)
    std::vector<int64_t> sigma, parts;

    ProgressReporter reporter(options.progress, 2 * totalEvents);
    uint64_t consumed = 0;
    for (const uint32_t item : items) {
        const uint32_t index = item / 2;
        const WaitState& w = waits[index];
        const bool waitingSide = item % 2 == kWaitingSide;
        RootCauseCursor& cursor = cursors[waitingSide ? w.rank.value : w.cause.value];
        const size_t before = cursor.position();
        const std::vector<int64_t>& interval = cursor.intervalUntil(itemTime(item));
        consumed += cursor.position() - before;
        if (!reporter.update(totalEvents + consumed)) {
            report.cancelled = true;
            break;
        }
        if (waitingSide) {
            pending.emplace(index, interval);
            continue;
        }
        const auto p = pending.find(index);
        if (p == pending.end()) continue;
        const bool charged = chargeWait(interval, p->second, w.duration(), sigma, parts);
        pending.erase(p);
        if (!charged) continue;
        report.explainedNs += w.duration();
        for (uint32_t c = 0; c < hotspotCount; ++c) {
            if (parts[c] == 0) continue;
            rankCost[size_t(w.cause.value) * hotspotCount + c] += parts[c];
            if (w.callSite.valid()) siteCost[{w.callSite.value, c}] += parts[c];
        }
    }
    if (!report.cancelled) report.cancelled = !reporter.report(2 * totalEvents);

    finishRootCauseReport(report, rankCost, siteCost, waitAtCallSite);
    return report;
}

void finishRootCauseReport(RootCauseReport& report, const std::vector<int64_t>& rankCost,
                           const std::map<std::pair<uint32_t, uint32_t>, int64_t>& siteCost,
                           const std::map<uint32_t, int64_t>& waitAtCallSite)
{
    const double totalWait = double(report.totalWaitNs);
    const size_t hotspotCount = report.hotspots.size();
    const size_t rankCount = hotspotCount == 0 ? 0 : rankCost.size() / hotspotCount;
    std::vector<int64_t> functionCost(hotspotCount, 0);
    for (uint32_t r = 0; r < rankCount; ++r) {
        for (uint32_t c = 0; c < hotspotCount; ++c) {
            const int64_t cost = rankCost[size_t(r) * hotspotCount + c];
            if (cost == 0) continue;
            report.perFunctionRank.push_back({report.hotspots[c], RankId(r), cost});
            functionCost[c] += cost;
        }
    }
    for (uint32_t c = 0; c < hotspotCount; ++c) {
        if (functionCost[c] == 0) continue;
        report.perFunction.push_back({report.hotspots[c], functionCost[c],
                                      totalWait > 0 ? double(functionCost[c]) / totalWait : 0.0});
    }
    for (const auto& [key, cost] : siteCost) {
        const auto site = waitAtCallSite.find(key.first);
        const double atSite = site == waitAtCallSite.end() ? 0.0 : double(site->second);
        report.perCallSite.push_back({CallSiteId(key.first), report.hotspots[key.second], cost,
                                      atSite > 0 ? double(cost) / atSite : 0.0});
    }

    std::sort(report.perFunctionRank.begin(), report.perFunctionRank.end(),
              [](const RootCauseCost& a, const RootCauseCost& b) {
                  if (a.costNs != b.costNs) return a.costNs > b.costNs;
                  return std::tie(a.function, a.rank) < std::tie(b.function, b.rank);
              });
    std::sort(report.perFunction.begin(), report.perFunction.end(),
              [](const FunctionCause& a, const FunctionCause& b) {
                  if (a.costNs != b.costNs) return a.costNs > b.costNs;
                  return a.function < b.function;
              });
    std::sort(report.perCallSite.begin(), report.perCallSite.end(),
              [](const CallSiteCause& a, const CallSiteCause& b) {
                  if (a.costNs != b.costNs) return a.costNs > b.costNs;
                  return std::tie(a.callSite, a.function) < std::tie(b.callSite, b.function);
              });
}

} // namespace rankscope
