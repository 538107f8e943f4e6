#include "app/cli/criticalpathcommand.h"

#include "model/trace/trace.h"
#include "model/waits/criticalpath.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

namespace rankscope::cli {

namespace {

std::string regionText(const Trace& trace, RegionId region)
{
    return region.valid() ? std::string(trace.regionName(region)) : std::string("(no region)");
}

double percent(int64_t part, int64_t total)
{
    return total > 0 ? 100.0 * double(part) / double(total) : 0.0;
}

void printText(const Trace& trace, const CriticalPath& path)
{
    size_t ranksOnPath = 0;
    for (int64_t t : path.byRank)
        ranksOnPath += t > 0 ? 1 : 0;
    std::printf("critical path: %s, %zu segments on %zu of %zu ranks\n\n",
                durationText(path.lengthNs).c_str(), path.segments.size(), ranksOnPath,
                trace.rankCount());

    // The function goes last: names of real programs vary in length.
    std::printf("%10s %7s %10s %10s  %s\n", "on path", "share", "mean/rank", "imbalance",
                "function");
    for (const CriticalFunction& f : path.byFunction)
        std::printf("%10s %6.1f%% %10s %10s  %s\n", durationText(f.pathNs).c_str(),
                    percent(f.pathNs, path.lengthNs),
                    durationText(int64_t(std::llround(f.meanNs))).c_str(),
                    durationText(f.imbalanceNs).c_str(), regionText(trace, f.region).c_str());

    std::vector<uint32_t> order(path.byRank.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return path.byRank[x] > path.byRank[y]; });
    order.resize(std::min<size_t>(ranksOnPath, 10));
    std::printf("\n%6s %10s %7s\n", "rank", "on path", "share");
    for (uint32_t r : order)
        std::printf("%6u %10s %6.1f%%\n", r, durationText(path.byRank[r]).c_str(),
                    percent(path.byRank[r], path.lengthNs));
    if (ranksOnPath > order.size())
        std::printf("(%zu more ranks; --json lists all)\n", ranksOnPath - order.size());
}

} // namespace

CLI::App* CriticalPathCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "criticalpath", "Critical path: the chain of computation and communication that "
                        "determines the run time, with its profile per function");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--eager-limit", eagerLimit_,
                    "Messages above this many bytes use rendezvous (their senders wait for the "
                    "receivers)")
        ->check(nonNegativeCount())
        ->capture_default_str();
    addOutputFormats(cmd, json_);
    return cmd;
}

int CriticalPathCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    WaitStateOptions options;
    options.eagerLimit = eagerLimit_;
    const CriticalPath path = computeCriticalPath(trace, analyzeWaitStates(trace, options));

    if (!json_) {
        printText(trace, path);
        return kOk;
    }
    nlohmann::ordered_json j;
    j["length_ns"] = path.lengthNs;
    auto& segments = j["segments"] = nlohmann::ordered_json::array();
    for (const CriticalSegment& s : path.segments)
        segments.push_back({{"rank", s.rank.value},
                            {"begin_ns", s.begin},
                            {"end_ns", s.end},
                            {"region", s.region.valid() ? nlohmann::ordered_json(std::string(
                                                              trace.regionName(s.region)))
                                                        : nlohmann::ordered_json()}});
    auto& functions = j["by_function"] = nlohmann::ordered_json::array();
    for (const CriticalFunction& f : path.byFunction)
        functions.push_back({{"region", std::string(trace.regionName(f.region))},
                             {"path_ns", f.pathNs},
                             {"mean_per_rank_ns", f.meanNs},
                             {"imbalance_ns", f.imbalanceNs}});
    j["by_rank"] = path.byRank;
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
