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

} // namespace rankscope
