#include "app/cli/waitstatescommand.h"

#include "app/report/analysisjson.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

namespace rankscope::cli {

namespace {

/// "12.3 %" of `total` (0 when there is nothing to share).
double percent(int64_t part, int64_t total)
{
    return total > 0 ? 100.0 * double(part) / double(total) : 0.0;
}

void printText(const WaitStateAnalysis& a)
{
    std::printf("total waiting time: %s (direct %s, indirect %s)\n\n",
                durationText(a.totalNs).c_str(), durationText(a.directNs).c_str(),
                durationText(a.indirectNs).c_str());

    std::printf("%-16s %10s %7s\n", "pattern", "wait", "share");
    for (size_t p = 0; p < kWaitPatternCount; ++p) {
        const std::string name(waitPatternName(WaitPattern(p)));
        std::printf("%-16s %10s %6.1f%%\n", name.c_str(), durationText(a.byPattern[p]).c_str(),
                    percent(a.byPattern[p], a.totalNs));
        if (WaitPattern(p) != WaitPattern::LateSender) continue;
        // The wrong-order sub-patterns are parts of the Late Sender line above.
        const char* kinds[] = {"same source", "different source"};
        for (size_t k = 0; k < 2; ++k)
            if (a.wrongOrderNs[k] > 0)
                std::printf("  wrong order, %-16s %10s %6.1f%%\n", kinds[k],
                            durationText(a.wrongOrderNs[k]).c_str(),
                            percent(a.wrongOrderNs[k], a.totalNs));
    }

    if (!a.byCallSite.empty()) {
        // The call site goes last: call paths of real programs are long and vary in length.
        std::printf("\n%10s %11s  %-16s %s\n", "wait", "occurrences", "pattern", "call site");
        for (const CallSiteWait& c : a.byCallSite) {
            const std::string pattern(waitPatternName(c.pattern));
            const std::string site(a.callSites.name(c.callSite));
            std::printf("%10s %11llu  %-16s %s\n", durationText(c.waitNs).c_str(),
                        (unsigned long long)c.occurrences, pattern.c_str(), site.c_str());
        }
    }

    // Ranks by descending wait; the ten that wait most are enough to read.
    std::vector<uint32_t> order(a.byRank.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return a.byRank[x] > a.byRank[y]; });
    if (order.size() > 10) order.resize(10);
    std::printf("\n%6s %10s\n", "rank", "wait");
    for (uint32_t r : order)
        std::printf("%6u %10s\n", r, durationText(a.byRank[r]).c_str());
    if (a.byRank.size() > order.size())
        std::printf("(%zu more ranks; --json lists all)\n", a.byRank.size() - order.size());
}

} // namespace

CLI::App* WaitStatesCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "waitstates", "Wait states (Late Sender, Late Receiver, Wait at Barrier / N x N, Late "
                      "Broadcast, Early Reduce) per pattern, rank and call site");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--eager-limit", eagerLimit_,
                    "Messages above this many bytes use rendezvous (their senders can be late "
                    "receivers)")
        ->check(nonNegativeCount())
        ->capture_default_str();
    addOutputFormats(cmd, json_);
    return cmd;
}

int WaitStatesCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    WaitStateOptions options;
    options.eagerLimit = eagerLimit_;
    // Totals only: the waits themselves are not printed, and on a trace with a wait every few
    // events they would cost more memory than the trace.
    const WaitStateAnalysis a = analyzeWaitTotals(trace, options);

    if (!json_) {
        printText(a);
        return kOk;
    }
    printJson(waitStatesJson(a));
    return kOk;
}

} // namespace rankscope::cli
