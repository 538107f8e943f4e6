#include "app/cli/profilecommand.h"

#include "model/profile/profile.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

nlohmann::ordered_json spreadJson(const RankSpread& s)
{
    return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

} // namespace

CLI::App* ProfileCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "profile", "Inclusive and exclusive time per region, with the spread over ranks");
    addTraceInput(cmd, trace_, load_);
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int ProfileCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    const Profile profile = computeProfile(trace);
    const std::vector<RegionId> order = regionsByExclusiveTime(trace, profile);

    if (json_) {
        nlohmann::ordered_json j;
        j["ranks"] = trace.rankCount();
        j["mpi_time_per_rank_ns"] = spreadJson(profile.mpiTimePerRank);
        auto& perRank = j["mpi_time_ns"] = nlohmann::ordered_json::array();
        for (const RankProfile& r : profile.ranks)
            perRank.push_back(r.mpiTime);
        auto& rows = j["regions"] = nlohmann::ordered_json::array();
        for (RegionId id : order) {
            const RegionSummary& s = profile.regions[id.value];
            rows.push_back({{"region", std::string(trace.regionName(id))},
                            {"role", std::string(regionRoleName(trace.region(id).role))},
                            {"calls", s.calls},
                            {"inclusive_ns", s.inclusive},
                            {"exclusive_ns", s.exclusive},
                            {"calls_per_rank", spreadJson(s.callsPerRank)},
                            {"inclusive_per_rank_ns", spreadJson(s.inclusivePerRank)},
                            {"exclusive_per_rank_ns", spreadJson(s.exclusivePerRank)}});
        }
        printJson(j);
        return kOk;
    }
    if (csv_) {
        std::cout << "region,role,calls,inclusive_ns,exclusive_ns,exclusive_min_ns,"
                     "exclusive_mean_ns,exclusive_max_ns\n";
        for (RegionId id : order) {
            const RegionSummary& s = profile.regions[id.value];
            std::printf("%s,%s,%llu,%lld,%lld,%lld,%.1f,%lld\n",
                        csvField(trace.regionName(id)).c_str(),
                        csvField(regionRoleName(trace.region(id).role)).c_str(),
                        (unsigned long long)s.calls, (long long)s.inclusive, (long long)s.exclusive,
                        (long long)s.exclusivePerRank.min, s.exclusivePerRank.mean,
                        (long long)s.exclusivePerRank.max);
        }
        return kOk;
    }

    std::printf("%-32s %-12s %10s %10s %10s   %-32s\n", "region", "role", "calls", "inclusive",
                "exclusive", "exclusive per rank min/mean/max");
    for (RegionId id : order) {
        const RegionSummary& s = profile.regions[id.value];
        const std::string spread = durationText(s.exclusivePerRank.min) + " / " +
                                   durationText(int64_t(s.exclusivePerRank.mean + 0.5)) + " / " +
                                   durationText(s.exclusivePerRank.max);
        std::printf(
            "%-32s %-12s %10llu %10s %10s   %s\n", std::string(trace.regionName(id)).c_str(),
            std::string(regionRoleName(trace.region(id).role)).c_str(), (unsigned long long)s.calls,
            durationText(s.inclusive).c_str(), durationText(s.exclusive).c_str(), spread.c_str());
    }
    const RankSpread& m = profile.mpiTimePerRank;
    std::printf("\nMPI time per rank: min %s, mean %s, max %s\n", durationText(m.min).c_str(),
                durationText(int64_t(m.mean + 0.5)).c_str(), durationText(m.max).c_str());
    return kOk;
}

} // namespace rankscope::cli
