// bench/pop: the POP efficiency metrics of one run (whatif/pop/popmetrics.h) on the >= 25M-event,
// 256-rank generated stencil2d trace, against what the issue compares them with: one import
// plus one LogGP replay on the InfiniBand-like crossbar (kIbSwitchBenchSpec). `pop` on a trace
// is one import plus runMetrics (useful time, the ideal-network replay, the counter profile),
// so the figure is (import + runMetrics) / (import + LogGP replay); target <= 1.
//
// Usage: rankscope-bench-pop [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
// The trace is generated (stencil2d) into DIR on first use and reused afterwards.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "whatif/netsim/simulation.h"
#include "whatif/pop/popmetrics.h"

#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

double timed(int repeat, const std::function<void()>& work)
{
    std::vector<double> times;
    for (int k = 0; k < repeat; ++k) {
        const auto t0 = Clock::now();
        work();
        times.push_back(seconds(t0, Clock::now()));
    }
    return median(times);
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
        std::optional<Trace> trace;
        const double import = timed(args.repeat, [&] {
            trace.reset();
            trace.emplace(readOtf2(anchor, opt));
        });
        std::printf("\ntrace: %s (%llu events, %zu ranks), %u threads\n", anchor.c_str(),
                    (unsigned long long)trace->eventCount(), trace->rankCount(), opt.threads);
        const netsim::NetworkSpec spec =
            netsim::NetworkSpec::fromString(kIbSwitchBenchSpec, "bench");
        const double replay = timed(args.repeat, [&] {
            netsim::SimulationResult r = netsim::simulate(*trace, spec, {});
            (void)r;
        });
        pop::RunMetrics m;
        const double metrics = timed(args.repeat, [&] { m = pop::runMetrics(*trace, anchor); });
        std::printf("import:                      %.3f s median\n", import);
        std::printf("LogGP replay (ib crossbar):  %.3f s median\n", replay);
        std::printf("POP metrics (runMetrics):    %.3f s median (LB %.4f, CommE %.4f, SerE %.4f, "
                    "TE %.4f)\n",
                    metrics, m.loadBalance, m.communicationEfficiency,
                    m.serialisationEfficiency.value_or(-1), m.transferEfficiency.value_or(-1));
        std::printf("pop = import + metrics:      %.3f s vs import + replay %.3f s: ratio %.3f "
                    "(target <= 1)\n",
                    import + metrics, import + replay, (import + metrics) / (import + replay));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rankscope-bench-pop: %s\n", e.what());
        return 1;
    }
    return 0;
}
