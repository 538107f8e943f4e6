// The performance gate's non-GUI cases (perfgate.h): import against the decoding floor, the
// three replay models, the wait-state and root-cause analyses and one real extrapolation
// against the reference loop.

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/tracefile.h"
#include "model/generator/tracegenerator.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"
#include "otf2floorreader.h"
#include "perfgate.h"
#include "whatif/extrap/extrapolation.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <queue>
#include <stdexcept>
#include <vector>

namespace rankscope::bench {

namespace {

// Where the reference loop leaves its sum, so that the compiler keeps the loop.
volatile uint64_t referenceSink = 0;

bool wanted(const GateOptions& o, const char* name)
{
    return o.only.empty() || std::find(o.only.begin(), o.only.end(), name) != o.only.end();
}

/// `repeat` samples of reference time / work time, the two run in turn.
std::vector<double> sampleAgainst(int repeat, const std::function<double()>& reference,
                                  const std::function<void()>& work)
{
    std::vector<double> samples;
    for (int k = 0; k < repeat; ++k) {
        const double ref = reference();
        const auto t0 = Clock::now();
        work();
        const double t = seconds(t0, Clock::now());
        samples.push_back(t > 0 ? ref / t : 0);
    }
    return samples;
}

void progress(const char* what)
{
    std::printf("perf-gate: %s ...\n", what);
    std::fflush(stdout);
}

} // namespace

double referenceLoopSeconds()
{
    constexpr size_t kTable = size_t(1) << 22; // 4 Mi words: 32 MiB
    static const std::vector<uint64_t> table = [] {
        std::vector<uint64_t> t(kTable);
        for (size_t i = 0; i < kTable; ++i)
            t[i] = i * 0x9E3779B97F4A7C15ull;
        return t;
    }();
    const auto t0 = Clock::now();
    uint64_t x = 88172645463325252ull, acc = 0;
    const auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> heap;
    for (int i = 0; i < (1 << 15); ++i)
        heap.push(next() >> 20);
    for (int i = 0; i < (1 << 20); ++i) {
        const uint64_t top = heap.top();
        heap.pop();
        heap.push(top + (next() >> 44));
        acc += table[next() & (kTable - 1)];
    }
    for (int pass = 0; pass < 4; ++pass)
        for (size_t i = 0; i < kTable; ++i)
            acc += table[i] >> pass;
    referenceSink = acc + heap.top();
    return seconds(t0, Clock::now());
}

std::vector<GateRatio> measureCoreRatios(const GateOptions& o)
{
    std::vector<GateRatio> out;
    const int repeat = std::max(1, o.repeat);

    std::unique_ptr<Trace> trace;
    const std::string anchor = ensureStencilTrace(o.data + "/gate-stencil2d-64", 64, 4'000'000);
    if (wanted(o, "import") || wanted(o, "waits")) {
        Otf2ReadOptions all;
        all.threads = cores();
        trace = std::make_unique<Trace>(readOtf2(anchor, all));
    }

    if (wanted(o, "import")) {
        progress("import against the decoding floor");
        const auto floor = [&] {
            const auto t0 = Clock::now();
            readOtf2Floor(anchor);
            return seconds(t0, Clock::now());
        };
        for (const unsigned threads : {1u, 2u}) {
            Otf2ReadOptions opt;
            opt.threads = threads;
            char name[64], what[160];
            std::snprintf(name, sizeof name, "import_%ut_over_floor", threads);
            std::snprintf(what, sizeof what,
                          "OTF2 import on %u thread%s / the decoding floor (time ratio, %llu "
                          "events)",
                          threads, threads == 1 ? "" : "s",
                          (unsigned long long)trace->eventCount());
            out.push_back({name, what, sampleAgainst(repeat, floor, [&] {
                               const Trace t = readOtf2(anchor, opt);
                               if (t.eventCount() != trace->eventCount())
                                   throw std::runtime_error("the import lost events");
                           })});
        }
    }

    if (wanted(o, "replay")) {
        progress("replay models against the reference loop");
        GeneratorOptions g;
        g.pattern = "stencil2d";
        g.ranks = 256;
        g.iterations = 120;
        const netsim::ActionProgram program = netsim::buildActions(generateTrace(g), 1.0);
        const netsim::NetworkSpec spec =
            netsim::NetworkSpec::fromString(kIbSwitchBenchSpec, "perf-gate")
                .withOverrides({{"nodes", "256"}});
        for (const char* model : {"loggp", "flow", "packet"}) {
            netsim::SimulationOptions so;
            so.model = model;
            char name[64], what[160];
            std::snprintf(name, sizeof name, "replay_%s_over_reference", model);
            std::snprintf(what, sizeof what,
                          "%s replay of %zu actions (256-rank stencil2d) / the reference loop",
                          model, program.actions.size());
            out.push_back({name, what, sampleAgainst(repeat, referenceLoopSeconds, [&] {
                               netsim::simulateProgram(program, spec, so);
                           })});
        }
    }

    if (wanted(o, "waits")) {
        progress("wait states and root causes against the reference loop");
        char what[160];
        std::snprintf(what, sizeof what,
                      "wait states + root causes on %llu events, 1 thread / the reference loop",
                      (unsigned long long)trace->eventCount());
        out.push_back(
            {"waits_over_reference", what, sampleAgainst(repeat, referenceLoopSeconds, [&] {
                 const WaitStateAnalysis a = analyzeWaitStates(*trace);
                 analyzeRootCauses(*trace, a);
             })});
    }

    if (wanted(o, "extrap")) {
        namespace fs = std::filesystem;
        const auto path = [&](uint32_t n) {
            return o.sharedTraces + "/scorep84-npb-mg-W-" + std::to_string(n) + "/traces.otf2";
        };
        if (o.sharedTraces.empty() || !fs::exists(path(4))) {
            std::printf("perf-gate: extrapolation skipped: no NPB MG traces in '%s'\n",
                        o.sharedTraces.c_str());
        } else {
            progress("extrapolation of NPB MG 4/8/16 -> 32 against the reference loop");
            std::vector<std::unique_ptr<Trace>> loaded;
            for (const uint32_t n : {4u, 8u, 16u, 32u})
                loaded.push_back(std::make_unique<Trace>(readTraceFile(path(n))));
            const std::vector<const Trace*> inputs{loaded[0].get(), loaded[1].get(),
                                                   loaded[2].get()};
            extrap::ExtrapolationOptions eo;
            eo.target = 32;
            out.push_back({"extrap_mg_over_reference",
                           "extrapolation (auto) of real NPB MG 4/8/16 -> 32, traces in memory / "
                           "the reference loop",
                           sampleAgainst(repeat, referenceLoopSeconds, [&] {
                               extrap::extrapolate(inputs, eo, loaded[3].get());
                           })});
        }
    }
    return out;
}

GateVerdict judge(const std::vector<double>& samples, const double* threshold)
{
    GateVerdict v;
    v.median = median(samples);
    if (!samples.empty() && v.median > 0) {
        const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
        v.noise = 0.5 * (*hi - *lo) / v.median;
    }
    if (threshold) {
        v.hasThreshold = true;
        v.threshold = *threshold;
        v.fails = v.median < v.threshold * (1.0 - v.noise);
    }
    return v;
}

} // namespace rankscope::bench
