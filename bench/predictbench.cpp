// bench/predict: the scale what-if (ALGORITHMS.md §5). From generated traces at four small
// scales, synthesise the trace at the target and replay it with LogGP on an ib-switch-like
// crossbar; target: synthesis plus replay of 1024 ranks within 1 s. The input traces are
// generated in memory beforehand and not timed (in use they are read once and kept).
// Phases: plan (skeletons of the inputs, roles, rules, fitted series, timing extrapolation),
// draft (the ranks at the target with sampled delta times), replay (LogGP, building the
// predicted trace with simulated timestamps).
// Usage: rankscope-bench-predict [--repeat K] [--iterations I]

#include "benchsupport.h"
#include "model/tracegenerator.h"
#include "whatif/extrap/synthbuilder.h"
#include "whatif/extrap/synthesis.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::bench;

namespace {


struct Case
{
    const char* pattern;
    std::vector<uint32_t> scales;
    uint32_t target;
};

struct Times
{
    std::vector<double> plan, draft, replay, total;
};

void runCase(const Case& c, uint32_t iterations, int repeat, const netsim::NetworkSpec& spec)
{
    std::vector<std::unique_ptr<Trace>> owned;
    std::vector<const Trace*> traces;
    for (uint32_t n : c.scales) {
        GeneratorOptions o;
        o.pattern = c.pattern;
        o.ranks = n;
        o.iterations = iterations;
        o.seed = 11 + n;
        owned.push_back(std::make_unique<Trace>(generateTrace(o)));
        traces.push_back(owned.back().get());
    }
    extrap::SynthesisOptions options;
    options.target = c.target;
    Times t;
    uint64_t events = 0;
    int64_t runtime = 0;
    size_t peak = 0;
    for (int i = 0; i < repeat; ++i) {
        resetPeak();
        const auto t0 = Clock::now();
        const extrap::synth::SynthesisPlan plan = extrap::planSynthesis(traces, options);
        if (!plan.refused.empty()) {
            std::printf("%-10s refused: %s: %s\n", c.pattern, plan.refused.front().callSite.c_str(),
                        plan.refused.front().reason.c_str());
            return;
        }
        const auto t1 = Clock::now();
        const Trace draft = extrap::buildDraftTrace(plan, options.seed);
        const auto t2 = Clock::now();
        netsim::SimulationOptions sim;
        sim.buildTrace = true;
        const netsim::SimulationResult r = netsim::simulate(draft, spec, sim);
        const auto t3 = Clock::now();
        peak = std::max(peak, peakResidentBytes());
        events = r.trace->eventCount();
        runtime = r.predictedRuntimeNs;
        t.plan.push_back(seconds(t0, t1));
        t.draft.push_back(seconds(t1, t2));
        t.replay.push_back(seconds(t2, t3));
        t.total.push_back(seconds(t0, t3));
    }
    std::string scales;
    for (uint32_t n : c.scales)
        scales += (scales.empty() ? "" : ",") + std::to_string(n);
    std::printf("%-10s %-14s %6u %10llu | %7.3f %7.3f %7.3f | %7.3f %s | %8.1f | %10.3f\n",
                c.pattern, scales.c_str(), c.target, (unsigned long long)events, median(t.plan),
                median(t.draft), median(t.replay), median(t.total),
                median(t.total) <= 1.0 ? "ok  " : "SLOW", double(peak) / (1 << 20),
                double(runtime) / 1e6);
}

} // namespace

int main(int argc, char** argv)
{
    int repeat = 3;
    uint32_t iterations = 10;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) {
            iterations = uint32_t(std::max(1, std::atoi(argv[++i])));
        } else {
            std::fprintf(stderr, "usage: rankscope-bench-predict [--repeat K] [--iterations I]\n");
            return 2;
        }
    }
    // The bundled spec itself, with nodes enough for the targets (one rank per node).
    const netsim::NetworkSpec spec =
        netsim::NetworkSpec::fromFile(RANKSCOPE_SOURCE_DIR "/resources/networks/ib-switch.yaml")
            .withOverrides({{"nodes", "1024"}});
    std::printf("synthesis + LogGP replay, %u iterations, median of %d (target total <= 1 s)\n",
                iterations, repeat);
    std::printf("%-10s %-14s %6s %10s | %7s %7s %7s | %7s %4s | %8s | %10s\n", "pattern", "scales",
                "target", "events", "plan s", "draft s", "replay", "total s", "", "peak MiB",
                "runtime ms");
    const std::vector<Case> cases = {
        {"stencil2d", {16, 36, 64, 144}, 1024},
        {"stencil3d", {8, 27, 64, 125}, 1000},
        {"alltoall", {8, 16, 32, 64}, 1024},
    };
    for (const Case& c : cases)
        runCase(c, iterations, repeat, spec);
    return 0;
}
