// bench/commmatrix: the rate (trace events/s, one thread) of the communication matrix over the
// whole run and over a tenth of it, with and without the collectives' implied traffic, and its
// peak extra memory (RSS growth), on a >= 25M-event, 256-rank generated stencil2d trace; and the
// message statistics' rate for comparison.
//
// Usage: rankscope-bench-commmatrix [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/analysis/commmatrix.h"
#include "model/analysis/messagestats.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

struct Measured
{
    double seconds = 0;    ///< median
    size_t peakGrowth = 0; ///< largest RSS growth over the repeats
};

Measured measure(int repeat, const std::function<void()>& work)
{
    std::vector<double> times;
    Measured m;
    for (int k = 0; k < repeat; ++k) {
        resetPeak();
        const size_t before = peakResidentBytes();
        const auto t0 = Clock::now();
        work();
        times.push_back(seconds(t0, Clock::now()));
        m.peakGrowth = std::max(m.peakGrowth, peakResidentBytes() - before);
    }
    m.seconds = median(times);
    return m;
}

void print(const char* what, const Measured& m, uint64_t events, const char* target)
{
    std::printf("%-44s %.4f s median -> %7.1f M events/s, peak extra memory %.1f MiB%s\n", what,
                m.seconds, double(events) / m.seconds / 1e6, double(m.peakGrowth) / 1048576.0,
                target);
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
        std::printf("\ntrace: %s (%llu events, %zu ranks, %zu messages, %zu collectives)\n",
                    anchor.c_str(), (unsigned long long)events, trace.rankCount(),
                    trace.messages().size(), trace.collectives().size());

        CommMatrix matrix;
        const Measured whole = measure(args.repeat, [&] {
            matrix = CommMatrix();
            matrix = computeCommMatrix(trace);
        });
        print("communication matrix, 1 thread:", whole, events, " (target >= 50 M events/s)");
        uint64_t count = 0;
        for (const CommMatrixCell& c : matrix.cells)
            count += c.count;
        std::printf("  %zu non-empty cells, %llu messages, %llu unmatched\n", matrix.cells.size(),
                    (unsigned long long)count, (unsigned long long)matrix.unmatched);

        CommMatrixOptions window;
        window.from = trace.beginTime() + trace.duration() / 2;
        window.to = window.from + trace.duration() / 10;
        print("communication matrix, a tenth of the run:",
              measure(args.repeat, [&] { matrix = computeCommMatrix(trace, window); }), events, "");
        CommMatrixOptions coll;
        coll.includeCollectives = true;
        print("communication matrix with collectives:",
              measure(args.repeat, [&] { matrix = computeCommMatrix(trace, coll); }), events, "");

        MessageStatistics stats;
        print("message statistics, 1 thread:",
              measure(args.repeat,
                      [&] {
                          stats = MessageStatistics();
                          stats = computeMessageStatistics(trace);
                      }),
              events, "");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench/commmatrix: %s\n", e.what());
        return 1;
    }
    return 0;
}
