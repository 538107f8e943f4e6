#include "app/cli/rootcausecommand.h"

#include "app/report/analysisjson.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

// Text output shows the top rows of each table; --json lists all.
constexpr size_t kTopRows = 10;

void printMore(size_t shown, size_t all)
{
    if (all > shown) std::printf("(%zu more; --json lists all)\n", all - shown);
}

void printText(const Trace& trace, const WaitStateAnalysis& waits, const RootCauseReport& r)
{
    const double explained =
        r.totalWaitNs > 0 ? 100.0 * double(r.explainedNs) / double(r.totalWaitNs) : 0.0;
    std::printf("total waiting time: %s, explained by hotspots: %s (%.1f%%)\n",
                durationText(r.totalWaitNs).c_str(), durationText(r.explainedNs).c_str(),
                explained);
    std::printf("hotspots:");
    for (RegionId h : r.hotspots)
        std::printf(" %s", std::string(trace.regionName(h)).c_str());
    std::printf("%s\n", r.hotspots.empty() ? " none" : "");
    if (r.perFunction.empty()) {
        std::printf("\nno waiting is explained by a hotspot\n");
        return;
    }

    std::printf("\n");
    const size_t functions = std::min(kTopRows, r.perFunction.size());
    for (size_t i = 0; i < functions; ++i) {
        const FunctionCause& f = r.perFunction[i];
        std::printf("balancing %s would remove up to %.1f%% of the waiting (%s)\n",
                    std::string(trace.regionName(f.function)).c_str(), 100.0 * f.shareOfWaiting,
                    durationText(f.costNs).c_str());
    }
    printMore(functions, r.perFunction.size());

    // The call site goes last: call paths of real programs are long and vary in length.
    std::printf("\n%10s %7s  %-24s %s\n", "cost", "share", "function", "call site");
    const size_t sites = std::min(kTopRows, r.perCallSite.size());
    for (size_t i = 0; i < sites; ++i) {
        const CallSiteCause& c = r.perCallSite[i];
        std::printf("%10s %6.1f%%  %-24s %s\n", durationText(c.costNs).c_str(),
                    100.0 * c.shareOfWaitingAtCallSite,
                    std::string(trace.regionName(c.function)).c_str(),
                    std::string(waits.callSites.name(c.callSite)).c_str());
    }
    printMore(sites, r.perCallSite.size());

    std::printf("\n%10s %6s  %s\n", "cost", "rank", "function");
    const size_t pairs = std::min(kTopRows, r.perFunctionRank.size());
    for (size_t i = 0; i < pairs; ++i) {
        const RootCauseCost& c = r.perFunctionRank[i];
        std::printf("%10s %6u  %s\n", durationText(c.costNs).c_str(), c.rank.value,
                    std::string(trace.regionName(c.function)).c_str());
    }
    printMore(pairs, r.perFunctionRank.size());
}

} // namespace

CLI::App* RootCauseCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "rootcause", "Hotspot functions that made late ranks late, and the waiting they explain");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--hotspot-threshold", hotspotThreshold_,
                    "A function is a hotspot when its exclusive time is at least PCT % of the "
                    "total (0 < PCT <= 100)")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                // CLI::Range is closed; 0 % would make every function a hotspot.
                char* end = nullptr;
                const double v = std::strtod(s.c_str(), &end);
                const bool number = !s.empty() && end == s.c_str() + s.size();
                return number && v > 0.0 && v <= 100.0 ? std::string()
                                                       : "must be in (0, 100], got " + s;
            },
            "(0, 100]"));
    cmd->add_option("--eager-limit", eagerLimit_,
                    "Messages above BYTES use rendezvous: their send waits for the receiver")
        ->check(nonNegativeCount());
    addOutputFormats(cmd, json_);
    return cmd;
}

int RootCauseCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    WaitStateOptions waitOptions;
    waitOptions.eagerLimit = eagerLimit_;
    const WaitStateAnalysis waits = analyzeWaitStates(trace, waitOptions);
    RootCauseOptions options;
    options.hotspotThresholdPercent = hotspotThreshold_;
    const RootCauseReport report = analyzeRootCauses(trace, waits, options);
    if (json_)
        printJson(rootCauseJson(trace, waits.callSites, report));
    else
        printText(trace, waits, report);
    return kOk;
}

} // namespace rankscope::cli
