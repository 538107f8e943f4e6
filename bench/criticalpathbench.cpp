// bench/criticalpath: the rate (events/s, one thread) of the critical path (the backward replay
// and the region pass, given the wait states; and with the wait-state detection it needs) and
// of the call-path profile, with their peak extra memory (RSS growth), on a >= 25M-event,
// 256-rank generated stencil2d trace.
//
// Usage: rankscope-bench-criticalpath [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/profile/calltree.h"
#include "model/waits/criticalpath.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

struct Measured
{
    double seconds = 0.0;
    size_t peakGrowth = 0;
};

/// Median time and largest RSS growth of `repeat` runs of `work`, after `reset` frees the
/// previous result.
template <class Reset, class Work> Measured measure(int repeat, Reset&& reset, Work&& work)
{
    std::vector<double> times;
    size_t peak = 0;
    for (int k = 0; k < repeat; ++k) {
        reset();
        resetPeak();
        const size_t before = peakResidentBytes();
        const auto t0 = Clock::now();
        work();
        times.push_back(seconds(t0, Clock::now()));
        peak = std::max(peak, peakResidentBytes() - before);
    }
    return {median(times), peak};
}

void print(const char* what, const Measured& m, uint64_t events, const char* target)
{
    std::printf("%s, 1 thread: %.3f s median -> %.2f M events/s%s; peak extra memory %.1f MiB "
                "(%.2f bytes per event)\n",
                what, m.seconds, double(events) / m.seconds / 1e6, target,
                double(m.peakGrowth) / 1048576.0, double(m.peakGrowth) / double(events));
}

} // namespace

int main(int argc, char** argv)
{
    BenchArgs args;
    if (!parseBenchArgs(argc, argv, args)) return 2;
    try {
        const std::string anchor = ensureStencilTrace(args.dir, args.ranks, args.minEvents);
        Otf2ReadOptions opt;
        opt.threads = cores();
        const Trace trace = readOtf2(anchor, opt);
        const uint64_t events = trace.eventCount();

        const WaitStateAnalysis waits = analyzeWaitStates(trace);
        CriticalPath path;
        const Measured replay = measure(
            args.repeat, [&] { path = CriticalPath(); },
            [&] { path = computeCriticalPath(trace, waits); });
        const Measured withWaits = measure(
            args.repeat, [&] { path = CriticalPath(); },
            [&] { path = computeCriticalPath(trace, analyzeWaitStates(trace)); });
        CallTree tree;
        const Measured callTree = measure(
            args.repeat, [&] { tree = CallTree(); }, [&] { tree = computeCallTree(trace); });

        std::printf("\ntrace: %s (%llu events, %zu ranks, %zu messages, %zu collectives)\n",
                    anchor.c_str(), (unsigned long long)events, trace.rankCount(),
                    trace.messages().size(), trace.collectives().size());
        print("critical path from wait states", replay, events, " (target >= 20)");
        print("critical path with wait-state detection", withWaits, events, " (target >= 20)");
        print("call-path profile", callTree, events, " (target >= 30)");
        std::printf("critical path: %.3f s long, %zu segments; call tree: %zu nodes\n",
                    double(path.lengthNs) / 1e9, path.segments.size(), tree.nodes.size());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/criticalpath: %s\n", e.what());
        return 1;
    }
    return 0;
}
