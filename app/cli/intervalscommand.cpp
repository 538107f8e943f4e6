#include "app/cli/intervalscommand.h"

#include "app/report/analysisjson.h"
#include "model/deltas/intervals.h"
#include "model/trace/trace.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* IntervalsCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "intervals",
        "Delta times (computation between consecutive MPI calls) per execution interval");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int IntervalsCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    const IntervalTable table = computeIntervals(trace);

    if (json_) {
        printJson(intervalsJson(trace.rankCount(), table));
        return kOk;
    }
    if (csv_) {
        std::cout << "interval,occurrences,total_ns,mean_ns,min_ns,max_ns\n";
        for (const ExecutionInterval& iv : table.intervals) {
            char nums[160];
            std::snprintf(nums, sizeof nums, "%llu,%lld,%.1f,%lld,%lld",
                          (unsigned long long)iv.stats.occurrences, (long long)iv.stats.total,
                          iv.stats.mean(), (long long)iv.stats.min, (long long)iv.stats.max);
            std::cout << csvField(table.name(iv)) << ',' << nums << '\n';
        }
        return kOk;
    }

    // The interval name goes last: call paths of real programs are long and vary in length.
    std::printf("%11s %10s %10s %10s %10s  %s\n", "occurrences", "total", "mean", "min", "max",
                "interval");
    for (const ExecutionInterval& iv : table.intervals) {
        std::printf("%11llu %10s %10s %10s %10s  %s\n", (unsigned long long)iv.stats.occurrences,
                    durationText(iv.stats.total).c_str(),
                    durationText(int64_t(iv.stats.mean() + 0.5)).c_str(),
                    durationText(iv.stats.min).c_str(), durationText(iv.stats.max).c_str(),
                    table.name(iv).c_str());
    }
    const RankId worst = table.maxRankDeltaSumRank();
    if (worst.valid())
        std::printf("\nmax over ranks of the delta-time sum S(r): %s (rank %u)\n",
                    durationText(table.maxRankDeltaSum()).c_str(), worst.value);
    return kOk;
}

} // namespace rankscope::cli
