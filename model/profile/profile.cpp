#include "model/profile/profile.h"

#include "model/analysis/runspan.h"
#include "model/trace/perrank.h"
#include "model/trace/trace.h"

#include <algorithm>

namespace rankscope {

namespace {

struct Frame
{
    RegionId region;
    int64_t enter;
    int64_t childTime; // time in directly nested instances
};

constexpr size_t kNoFrame = SIZE_MAX;

} // namespace

RankProfile computeRankProfile(const Trace& trace, RankId rank, const ProgressCallback& progress)
{
    RankProfile result;
    result.rank = rank;
    result.regions.assign(trace.regions().size(), RegionTimes());
    const EventStream& events = trace.rankEvents(rank);
    const size_t n = events.size();

    // Memory grows with nesting depth and region count, never with events.
    std::vector<Frame> stack;
    stack.reserve(64);
    std::vector<uint32_t> open(trace.regions().size(), 0); // instances of each region on the stack
    size_t mpiFrame = kNoFrame; // stack index of the open outermost MPI call

    const auto closeTop = [&](int64_t t) {
        const Frame f = stack.back();
        stack.pop_back();
        const int64_t d = t - f.enter;
        RegionTimes& times = result.regions[f.region.value];
        times.exclusive += d - f.childTime;
        if (--open[f.region.value] == 0) times.inclusive += d;
        if (!stack.empty()) stack.back().childTime += d;
        if (stack.size() == mpiFrame) {
            result.mpiTime += d;
            ++result.mpiCalls;
            mpiFrame = kNoFrame;
        }
    };

    ProgressReporter reporter(progress, n);
    for (size_t i = 0; i < n; ++i) {
        const EventKind kind = events.kind(i);
        if (kind == EventKind::Enter) {
            const RegionId region = events.region(i);
            if (mpiFrame == kNoFrame && trace.region(region).isMpi()) mpiFrame = stack.size();
            stack.push_back({region, events.time(i), 0});
            ++result.regions[region.value].calls;
            ++open[region.value];
        } else if (kind == EventKind::Leave) {
            // Broken nesting: close the innermost open instance of the region and all above it;
            // a Leave with nothing to close is ignored (the builder counts it).
            const RegionId region = events.region(i);
            size_t k = stack.size();
            while (k > 0 && stack[k - 1].region != region)
                --k;
            const int64_t t = events.time(i);
            while (k > 0 && stack.size() >= k)
                closeTop(t);
        }
        if (!reporter.update(i)) {
            result.cancelled = true;
            return result;
        }
    }
    result.unclosedRegions = stack.size();
    while (!stack.empty())
        closeTop(events.time(n - 1));
    result.cancelled = !reporter.report(n);
    return result;
}

Profile mergeRankProfiles(const Trace& trace, std::vector<RankProfile> ranks)
{
    return mergeRankProfiles(trace, std::move(ranks), runSpan(trace));
}

Profile mergeRankProfiles(const Trace& trace, std::vector<RankProfile> ranks, const RunSpan& span)
{
    const size_t rankCount = trace.rankCount();
    const size_t regionCount = trace.regions().size();
    Profile profile;
    profile.ranks.resize(rankCount);
    for (uint32_t r = 0; r < rankCount; ++r) {
        profile.ranks[r].rank = RankId(r);
        profile.ranks[r].regions.assign(regionCount, RegionTimes());
    }
    for (RankProfile& rp : ranks) {
        if (rp.rank.value >= rankCount) continue;
        profile.cancelled = profile.cancelled || rp.cancelled;
        rp.regions.resize(regionCount);
        profile.ranks[rp.rank.value] = std::move(rp);
    }

    std::vector<int64_t> values(rankCount); // one column of the region x rank matrix at a time
    const auto spread = [&](auto field) {
        for (size_t r = 0; r < rankCount; ++r)
            values[r] = field(profile.ranks[r]);
        return RankSpread::of(values);
    };
    profile.regions.resize(regionCount);
    for (uint32_t g = 0; g < regionCount; ++g) {
        RegionSummary& s = profile.regions[g];
        s.region = RegionId(g);
        for (const RankProfile& rp : profile.ranks) {
            s.calls += rp.regions[g].calls;
            s.inclusive += rp.regions[g].inclusive;
            s.exclusive += rp.regions[g].exclusive;
        }
        s.callsPerRank =
            spread([g](const RankProfile& rp) { return int64_t(rp.regions[g].calls); });
        s.inclusivePerRank = spread([g](const RankProfile& rp) { return rp.regions[g].inclusive; });
        s.exclusivePerRank = spread([g](const RankProfile& rp) { return rp.regions[g].exclusive; });
    }
    profile.mpiTimePerRank = spread([](const RankProfile& rp) { return rp.mpiTime; });
    profile.spanNs = span.duration();
    for (size_t r = 0; r < rankCount && r < span.ranks.size(); ++r)
        values[r] = span.ranks[r].mpiNs;
    profile.spanMpiTimePerRank = RankSpread::of(values);
    return profile;
}

Profile computeProfile(const Trace& trace, const ProgressCallback& progress)
{
    auto ranks = analyseEachRank<RankProfile>(
        trace, progress, [&](RankId rank, const ProgressCallback& rankProgress) {
            return computeRankProfile(trace, rank, rankProgress);
        });
    const bool cancelled = !ranks.empty() && ranks.back().cancelled;
    Profile profile = mergeRankProfiles(trace, std::move(ranks));
    profile.cancelled = cancelled;
    return profile;
}

std::vector<RegionId> regionsByExclusiveTime(const Trace& trace, const Profile& profile)
{
    std::vector<RegionId> order;
    for (const RegionSummary& s : profile.regions) {
        if (s.calls > 0) order.push_back(s.region);
    }
    std::sort(order.begin(), order.end(), [&](RegionId a, RegionId b) {
        const int64_t ea = profile.regions[a.value].exclusive;
        const int64_t eb = profile.regions[b.value].exclusive;
        if (ea != eb) return ea > eb;
        return std::pair(trace.regionName(a), a) < std::pair(trace.regionName(b), b);
    });
    return order;
}

std::vector<std::string_view> regionNamesByExclusiveTime(const Trace& trace, const Profile& profile)
{
    std::vector<std::string_view> names;
    for (const RegionId r : regionsByExclusiveTime(trace, profile))
        names.push_back(trace.regionName(r));
    return names;
}

} // namespace rankscope
