// bench/waitstates: the rate (events/s, one thread) of wait-state detection plus root-cause
// analysis, each and together, and their peak extra memory (RSS growth) on a >= 25M-event,
// 256-rank generated stencil2d trace.
//
// Usage: rankscope-bench-waitstates [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

int main(int argc, char** argv)
{
    BenchArgs args;
    if (!parseBenchArgs(argc, argv, args)) return 2;
    const std::string& dir = args.dir;
    const uint32_t ranks = args.ranks;
    const uint64_t minEvents = args.minEvents;
    const int repeat = args.repeat;

    try {
        const std::string anchor = ensureStencilTrace(dir, ranks, minEvents);
        Otf2ReadOptions opt;
        opt.threads = cores();
        const Trace trace = readOtf2(anchor, opt);
        const uint64_t events = trace.eventCount();

        std::vector<double> times, causeTimes, bothTimes;
        size_t peakGrowth = 0;
        WaitStateAnalysis a;
        RootCauseReport causes;
        for (int k = 0; k < repeat; ++k) {
            a = WaitStateAnalysis(); // free the previous results before measuring
            causes = RootCauseReport();
            resetPeak();
            const size_t before = peakResidentBytes();
            const auto t0 = Clock::now();
            a = analyzeWaitStates(trace);
            const auto t1 = Clock::now();
            causes = analyzeRootCauses(trace, a);
            const auto t2 = Clock::now();
            times.push_back(seconds(t0, t1));
            causeTimes.push_back(seconds(t1, t2));
            bothTimes.push_back(seconds(t0, t2));
            peakGrowth = std::max(peakGrowth, peakResidentBytes() - before);
        }
        const double t = median(times);
        const double tc = median(causeTimes);
        const double tb = median(bothTimes);
        std::printf("\ntrace: %s (%llu events, %zu ranks, %zu messages, %zu collectives)\n",
                    anchor.c_str(), (unsigned long long)events, trace.rankCount(),
                    trace.messages().size(), trace.collectives().size());
        std::printf("wait-state detection, 1 thread: %.3f s median of %d -> %.2f M events/s "
                    "(target >= 20)\n",
                    t, repeat, double(events) / t / 1e6);
        std::printf("root-cause analysis, 1 thread: %.3f s median -> %.2f M events/s\n", tc,
                    double(events) / tc / 1e6);
        std::printf("detection + root causes, 1 thread: %.3f s median -> %.2f M events/s "
                    "(target >= 20)\n",
                    tb, double(events) / tb / 1e6);
        std::printf("hotspots: %zu, waiting explained: %.1f%%\n", causes.hotspots.size(),
                    causes.totalWaitNs > 0
                        ? 100.0 * double(causes.explainedNs) / double(causes.totalWaitNs)
                        : 0.0);
        std::printf("waits found: %zu, total %.3f s (direct %.3f s, indirect %.3f s)\n",
                    a.waits.size(), double(a.totalNs) / 1e9, double(a.directNs) / 1e9,
                    double(a.indirectNs) / 1e9);
        std::printf("peak extra memory (RSS growth during both analyses): %.1f MiB "
                    "(%.2f bytes per event; the result holds %zu waits of %zu bytes)\n",
                    double(peakGrowth) / 1048576.0, double(peakGrowth) / double(events),
                    a.waits.size(), sizeof(WaitState));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/waitstates: %s\n", e.what());
        return 1;
    }
    return 0;
}
