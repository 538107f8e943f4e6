#include "app/cli/profilecommand.h"

#include "app/report/analysisjson.h"
#include "model/profile/calltree.h"
#include "model/profile/profile.h"
#include "model/trace/trace.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

nlohmann::ordered_json nodeJson(const Trace& trace, const CallTree& tree, uint32_t id)
{
    const CallTreeNode& n = tree.nodes[id];
    nlohmann::ordered_json j = {{"name", std::string(trace.regionName(n.region))},
                                {"inclusive_ns", n.inclusive},
                                {"exclusive_ns", n.exclusive},
                                {"visits", n.visits},
                                {"inclusive_per_rank_ns", rankSpreadJson(n.inclusivePerRank)},
                                {"exclusive_per_rank_ns", rankSpreadJson(n.exclusivePerRank)}};
    auto& children = j["children"] = nlohmann::ordered_json::array();
    for (uint32_t c : n.children)
        children.push_back(nodeJson(trace, tree, c));
    return j;
}

void printNode(const Trace& trace, const CallTree& tree, uint32_t id, int depth)
{
    const CallTreeNode& n = tree.nodes[id];
    const std::string name =
        std::string(size_t(2 * depth), ' ') + std::string(trace.regionName(n.region));
    const std::string spread = durationText(n.inclusivePerRank.min) + " / " +
                               durationText(int64_t(n.inclusivePerRank.mean + 0.5)) + " / " +
                               durationText(n.inclusivePerRank.max);
    std::printf("%10s %10s %10llu   %-32s %s\n", durationText(n.inclusive).c_str(),
                durationText(n.exclusive).c_str(), (unsigned long long)n.visits, spread.c_str(),
                name.c_str());
    for (uint32_t c : n.children)
        printNode(trace, tree, c, depth + 1);
}

} // namespace

CLI::App* ProfileCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "profile", "Inclusive and exclusive time per region, with the spread over ranks");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    addOutputFormats(cmd, json_, &csv_);
    cmd->add_flag("--tree", tree_,
                  "The call-path profile: inclusive and exclusive time, visits and the spread "
                  "over ranks per call path, as a tree");
    return cmd;
}

int ProfileCommand::runTree(const Trace& trace) const
{
    const CallTree tree = computeCallTree(trace);
    if (json_) {
        nlohmann::ordered_json j;
        j["ranks"] = trace.rankCount();
        auto& roots = j["tree"] = nlohmann::ordered_json::array();
        for (uint32_t r : tree.roots)
            roots.push_back(nodeJson(trace, tree, r));
        printJson(j);
        return kOk;
    }
    // The name goes last, indented by depth: call paths of real programs are deep.
    std::printf("%10s %10s %10s   %-32s %s\n", "inclusive", "exclusive", "visits",
                "inclusive per rank min/mean/max", "call path");
    for (uint32_t r : tree.roots)
        printNode(trace, tree, r, 0);
    return kOk;
}

int ProfileCommand::run() const
{
    if (tree_ && csv_) throw UsageError("--tree has no CSV form; use --json");
    const Trace trace = loadTrace(trace_, load_);
    if (tree_) return runTree(trace);
    const Profile profile = computeProfile(trace);
    const std::vector<RegionId> order = regionsByExclusiveTime(trace, profile);

    if (json_) {
        printJson(profileJson(trace, profile));
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
