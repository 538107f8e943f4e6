// bench/predict: the scale what-if (ALGORITHMS.md §5). From generated traces at four small
// scales, synthesise the trace at the target and replay it with LogGP on an ib-switch-like
// crossbar; target: synthesis plus replay of 1024 ranks within 1 s. The input traces are
// generated in memory beforehand and not timed (in use they are read once and kept).
// Phases: plan (skeletons of the inputs, roles, rules, fitted series, timing extrapolation),
// draft (the ranks at the target with sampled delta times), replay (LogGP, building the
// predicted trace with simulated timestamps).
// Then the real Score-P sets of RANKSCOPE_SHARED_TRACES (read once, not timed): produced sets
// print the same phases, refused ones the first reason.
// Usage: rankscope-bench-predict [--repeat K] [--iterations I]

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/generator/tracegenerator.h"
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
    const char* name; ///< generator pattern, or the real program's folder prefix
    bool real;        ///< real traces (RANKSCOPE_SHARED_TRACES/<name>-<n>)
    std::vector<uint32_t> scales;
    uint32_t target;
};

struct Times
{
    std::vector<double> plan, draft, replay, total;
};

std::vector<std::unique_ptr<Trace>> inputsOf(const Case& c, uint32_t iterations)
{
    std::vector<std::unique_ptr<Trace>> owned;
    for (uint32_t n : c.scales) {
        if (c.real) {
            const std::string path =
                std::string(RANKSCOPE_SHARED_TRACES_DIR) + "/" + c.name + "-" + std::to_string(n);
            owned.push_back(std::make_unique<Trace>(readOtf2(path)));
            continue;
        }
        GeneratorOptions o;
        o.pattern = c.name;
        o.ranks = n;
        o.iterations = iterations;
        o.seed = 11 + n;
        owned.push_back(std::make_unique<Trace>(generateTrace(o)));
    }
    return owned;
}

void runCase(const Case& c, uint32_t iterations, int repeat, const netsim::NetworkSpec& spec)
{
    std::vector<std::unique_ptr<Trace>> owned;
    try {
        owned = inputsOf(c, iterations);
    } catch (const std::exception& e) {
        std::printf("%-24s not run: %s\n", c.name, e.what());
        return;
    }
    std::vector<const Trace*> traces;
    for (const auto& t : owned)
        traces.push_back(t.get());
    extrap::SynthesisOptions options;
    options.target = c.target;
    Times t;
    uint64_t events = 0;
    int64_t runtime = 0;
    size_t peak = 0;
    std::string scales;
    for (uint32_t n : c.scales)
        scales += (scales.empty() ? "" : ",") + std::to_string(n);
    for (int i = 0; i < repeat; ++i) {
        resetPeak();
        extrap::SynthesisResult r;
        try {
            r = extrap::synthesise(traces, spec, options);
        } catch (const std::exception& e) {
            std::printf("%-24s %-14s %6u refused: %s\n", c.name, scales.c_str(), c.target,
                        e.what());
            return;
        }
        if (!r.refused.empty()) {
            std::printf("%-24s %-14s %6u refused (plan %.3f s): %s: %.200s\n", c.name,
                        scales.c_str(), c.target, r.planSeconds, r.refused.front().callSite.c_str(),
                        r.refused.front().reason.c_str());
            return;
        }
        peak = std::max(peak, peakResidentBytes());
        events = r.events;
        runtime = r.predictedRuntimeNs;
        t.plan.push_back(r.planSeconds);
        t.draft.push_back(r.draftSeconds);
        t.replay.push_back(r.replaySeconds);
        t.total.push_back(r.planSeconds + r.draftSeconds + r.replaySeconds);
    }
    // The 1 s target is for the generated 1024-rank cases; real sets are reported as they are.
    const char* verdict = c.real ? "    " : median(t.total) <= 1.0 ? "ok  " : "SLOW";
    std::printf("%-24s %-14s %6u %10llu | %7.3f %7.3f %7.3f | %7.3f %s | %8.1f | %10.3f\n", c.name,
                scales.c_str(), c.target, (unsigned long long)events, median(t.plan),
                median(t.draft), median(t.replay), median(t.total), verdict,
                double(peak) / (1 << 20), double(runtime) / 1e6);
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
    std::printf("%-24s %-14s %6s %10s | %7s %7s %7s | %7s %4s | %8s | %10s\n", "inputs", "scales",
                "target", "events", "plan s", "draft s", "replay", "total s", "", "peak MiB",
                "runtime ms");
    const std::vector<Case> cases = {
        {"stencil2d", false, {16, 36, 64, 144}, 1024},
        {"stencil3d", false, {8, 27, 64, 125}, 1000},
        {"alltoall", false, {8, 16, 32, 64}, 1024},
        // Real Score-P traces (the timing column is the whole predict minus reading the inputs).
        {"scorep84-cloverleaf", true, {4, 8, 16}, 32},
        {"scorep84-cloverleaf", true, {8, 16, 32}, 64},
        {"scorep84-npb-lu-S", true, {4, 8, 16}, 32},
        {"scorep84-npb-mg-W", true, {4, 8, 16}, 32},
        {"scorep84-npb-mg-W", true, {8, 16, 32}, 64},
        {"scorep84-npb-cg-S", true, {4, 8, 16}, 32},
    };
    for (const Case& c : cases)
        runCase(c, iterations, repeat, spec);
    return 0;
}
