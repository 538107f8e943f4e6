#include "app/report/analysisjson.h"

#include "model/trace/trace.h"

namespace rankscope {

nlohmann::ordered_json rankSpreadJson(const RankSpread& s)
{
    return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

nlohmann::ordered_json profileJson(const Trace& trace, const Profile& profile)
{
    nlohmann::ordered_json j;
    j["ranks"] = trace.rankCount();
    j["mpi_time_per_rank_ns"] = rankSpreadJson(profile.mpiTimePerRank);
    auto& perRank = j["mpi_time_ns"] = nlohmann::ordered_json::array();
    for (const RankProfile& r : profile.ranks)
        perRank.push_back(r.mpiTime);
    auto& rows = j["regions"] = nlohmann::ordered_json::array();
    for (RegionId id : regionsByExclusiveTime(trace, profile)) {
        const RegionSummary& s = profile.regions[id.value];
        rows.push_back({{"region", std::string(trace.regionName(id))},
                        {"role", std::string(regionRoleName(trace.region(id).role))},
                        {"calls", s.calls},
                        {"inclusive_ns", s.inclusive},
                        {"exclusive_ns", s.exclusive},
                        {"calls_per_rank", rankSpreadJson(s.callsPerRank)},
                        {"inclusive_per_rank_ns", rankSpreadJson(s.inclusivePerRank)},
                        {"exclusive_per_rank_ns", rankSpreadJson(s.exclusivePerRank)}});
    }
    return j;
}

nlohmann::ordered_json intervalsJson(size_t rankCount, const IntervalTable& table)
{
    nlohmann::ordered_json j;
    j["ranks"] = rankCount;
    j["max_rank_delta_sum_ns"] = table.maxRankDeltaSum();
    j["rank_delta_sums_ns"] = table.rankDeltaSums;
    auto& rows = j["intervals"] = nlohmann::ordered_json::array();
    for (const ExecutionInterval& iv : table.intervals) {
        rows.push_back({{"interval", table.name(iv)},
                        {"from", std::string(table.callSites.name(iv.from))},
                        {"to", std::string(table.callSites.name(iv.to))},
                        {"occurrences", iv.stats.occurrences},
                        {"ranks", iv.perRank.size()},
                        {"total_ns", iv.stats.total},
                        {"mean_ns", iv.stats.mean()},
                        {"min_ns", iv.stats.min},
                        {"max_ns", iv.stats.max}});
    }
    return j;
}

nlohmann::ordered_json waitStatesJson(const WaitStateAnalysis& a)
{
    nlohmann::ordered_json j;
    j["total_wait_ns"] = a.totalNs;
    auto& patterns = j["by_pattern"] = nlohmann::ordered_json::object();
    for (size_t p = 0; p < kWaitPatternCount; ++p)
        patterns[std::string(waitPatternKey(WaitPattern(p)))] = a.byPattern[p];
    j["late_sender_wrong_order"] = {{"same_source_ns", a.wrongOrderNs[0]},
                                    {"different_source_ns", a.wrongOrderNs[1]}};
    j["direct_ns"] = a.directNs;
    j["indirect_ns"] = a.indirectNs;
    j["by_rank"] = a.byRank;
    auto& sites = j["by_callsite"] = nlohmann::ordered_json::array();
    for (const CallSiteWait& c : a.byCallSite)
        sites.push_back({{"callsite", std::string(a.callSites.name(c.callSite))},
                         {"pattern", std::string(waitPatternKey(c.pattern))},
                         {"wait_ns", c.waitNs},
                         {"occurrences", c.occurrences}});
    return j;
}

nlohmann::ordered_json rootCauseJson(const Trace& trace, const CallSiteTable& callSites,
                                     const RootCauseReport& r)
{
    nlohmann::ordered_json j;
    j["total_wait_ns"] = r.totalWaitNs;
    j["explained_ns"] = r.explainedNs;
    auto& hotspots = j["hotspots"] = nlohmann::ordered_json::array();
    for (RegionId h : r.hotspots)
        hotspots.push_back(std::string(trace.regionName(h)));
    auto& functions = j["functions"] = nlohmann::ordered_json::array();
    for (const FunctionCause& f : r.perFunction)
        functions.push_back({{"function", std::string(trace.regionName(f.function))},
                             {"cost_ns", f.costNs},
                             {"share", f.shareOfWaiting}});
    auto& sites = j["callsites"] = nlohmann::ordered_json::array();
    for (const CallSiteCause& c : r.perCallSite)
        sites.push_back({{"callsite", std::string(callSites.name(c.callSite))},
                         {"function", std::string(trace.regionName(c.function))},
                         {"cost_ns", c.costNs},
                         {"share", c.shareOfWaitingAtCallSite}});
    auto& pairs = j["function_ranks"] = nlohmann::ordered_json::array();
    for (const RootCauseCost& c : r.perFunctionRank)
        pairs.push_back({{"function", std::string(trace.regionName(c.function))},
                         {"rank", c.rank.value},
                         {"cost_ns", c.costNs}});
    return j;
}

} // namespace rankscope
