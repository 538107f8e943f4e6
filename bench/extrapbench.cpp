// Extrapolation benchmark (ALGORITHMS.md §3-§4): accuracy of max_r S(r), normalised W1 of the
// S(r) histogram, the uncertainty interval and whether the measured value lies in it, and the
// held-out error each method scored on its inputs, for classic (sum, interval), Rankscope and
// auto (the default: the lowest held-out error wins):
// - on generated patterns whose intervals scale differently (constant, 1/n, n) and whose spread
//   widens with n;
// - on the real multi-scale Score-P runs in the shared traces folder (NPB MG, CloverLeaf), when
//   present (`--traces DIR`, default the build's RANKSCOPE_SHARED_TRACES).

#include "benchsupport.h"
#include "importers/otf2/otf2reader.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/trace.h"
#include "whatif/extrap/extrapolation.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace rankscope;
using namespace rankscope::extrap;

namespace {

struct Case
{
    std::string pattern;
    std::vector<uint32_t> scales;
    uint32_t target;
    std::vector<ComputeRegion> regions;
};

Trace generate(const Case& c, uint32_t ranks)
{
    GeneratorOptions o;
    o.pattern = c.pattern;
    o.ranks = ranks;
    o.iterations = 10;
    o.seed = 11;
    o.regions = c.regions;
    o.noiseGrowth = 0.3;
    return generateTrace(o);
}

struct Variant
{
    const char* label;
    Method method;
    Mode mode;
};

constexpr Variant kVariants[] = {{"classic sum", Method::Classic, Mode::Sum},
                                 {"classic interval", Method::Classic, Mode::Interval},
                                 {"rankscope", Method::Rankscope, Mode::Interval},
                                 {"auto (default)", Method::Auto, Mode::Interval}};

std::string scalesText(const std::vector<uint32_t>& scales)
{
    std::string s;
    for (uint32_t n : scales)
        s += (s.empty() ? "" : ",") + std::to_string(n);
    return s;
}

/// Runs every variant on one set and prints a row each.
void runSet(const std::string& name, const std::vector<const Trace*>& inputs, uint32_t target,
            const Trace& measured)
{
    std::vector<uint32_t> scales;
    for (const Trace* t : inputs)
        scales.push_back(uint32_t(t->rankCount()));
    for (const Variant& v : kVariants) {
        ExtrapolationOptions o;
        o.method = v.method;
        o.mode = v.mode;
        o.target = target;
        const auto t0 = bench::Clock::now();
        const ExtrapolationResult r = extrapolate(inputs, o, &measured);
        const double s = bench::seconds(t0, bench::Clock::now());
        const double m = *r.measuredMaxRankDeltaSum;
        const bool in = m >= r.predictedMaxLow && m <= r.predictedMaxHigh;
        std::string chosen = r.autoChosen ? methodName(r.method) + " " + modeName(r.mode) : "";
        if (!r.sumModel.empty()) chosen += (chosen.empty() ? "" : ", ") + r.sumModel;
        char held[32] = "-";
        if (r.heldOutErrorPct) std::snprintf(held, sizeof held, "%.1f%%", *r.heldOutErrorPct);
        std::printf(
            "%-11s %-12s %6u  %-16s %7.1f%% %6.3f %9.2f [%8.2f, %8.2f] %9.2f  %-3s %8s %7.3f  %s\n",
            name.c_str(), scalesText(scales).c_str(), target, v.label, *r.accuracyPct,
            *r.w1Normalized, r.predictedMaxRankDeltaSum / 1e6, r.predictedMaxLow / 1e6,
            r.predictedMaxHigh / 1e6, m / 1e6, in ? "yes" : "no", held, s, chosen.c_str());
    }
}

void header()
{
    std::printf("%-11s %-12s %6s  %-16s %8s %6s %9s %22s %9s  %-3s %8s %7s  %s\n", "set", "scales",
                "target", "method", "accuracy", "W1", "pred. ms", "interval ms", "meas. ms", "in?",
                "held-out", "time s", "chosen");
}

} // namespace

int main(int argc, char** argv)
{
    std::string traces = RANKSCOPE_SHARED_TRACES;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--traces") == 0 && i + 1 < argc) {
            traces = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--traces DIR]\n", argv[0]);
            return 2;
        }
    }
    const std::vector<Case> cases = {
        {"stencil2d",
         {16, 36, 64, 144},
         576,
         {{"pack", 200e3, ScalingLaw::Constant},
          {"interior", 3.2e8, ScalingLaw::InverseN},
          {"unpack", 2e3, ScalingLaw::LinearN},
          {"boundary", 50e3, ScalingLaw::Constant}}},
        {"alltoall",
         {8, 16, 32, 64},
         256,
         {{"local_sort", 6e7, ScalingLaw::InverseN},
          {"bucket_count", 5e3, ScalingLaw::LinearN},
          {"merge", 300e3, ScalingLaw::Constant}}},
        {"stencil3d",
         {8, 27, 64, 125},
         343,
         {{"pack", 100e3, ScalingLaw::Constant},
          {"interior", 2e8, ScalingLaw::InverseN},
          {"unpack", 4e3, ScalingLaw::LinearN},
          {"boundary", 50e3, ScalingLaw::Constant}}},
    };
    std::printf("Generated series\n");
    header();
    for (const Case& c : cases) {
        std::vector<std::unique_ptr<Trace>> small;
        std::vector<const Trace*> ptrs;
        for (uint32_t n : c.scales) {
            small.push_back(std::make_unique<Trace>(generate(c, n)));
            ptrs.push_back(small.back().get());
        }
        runSet(c.pattern, ptrs, c.target, generate(c, c.target));
    }

    struct RealSet
    {
        const char* name;
        const char* program;
        std::vector<uint32_t> scales;
        uint32_t target;
    };
    const std::vector<RealSet> real = {
        {"NPB MG W", "scorep84-npb-mg-W-", {4, 8, 16}, 32},
        {"CloverLeaf", "scorep84-cloverleaf-", {4, 8, 16}, 32},
        {"CloverLeaf", "scorep84-cloverleaf-", {8, 16, 32}, 64},
        {"CloverLeaf", "scorep84-cloverleaf-", {4, 8, 16, 32}, 64},
    };
    namespace fs = std::filesystem;
    if (!fs::is_directory(traces)) {
        std::printf("\nReal multi-scale traces: %s not found, skipped\n", traces.c_str());
        return 0;
    }
    std::printf("\nReal multi-scale Score-P runs (%s)\n", traces.c_str());
    header();
    for (const RealSet& set : real) {
        std::vector<Trace> loaded;
        loaded.reserve(set.scales.size());
        for (uint32_t n : set.scales)
            loaded.push_back(readOtf2(
                (fs::path(traces) / (set.program + std::to_string(n)) / "traces.otf2").string()));
        const Trace measured =
            readOtf2((fs::path(traces) / (set.program + std::to_string(set.target)) / "traces.otf2")
                         .string());
        std::vector<const Trace*> ptrs;
        for (const Trace& t : loaded)
            ptrs.push_back(&t);
        runSet(set.name, ptrs, set.target, measured);
    }
    std::printf(
        "(accuracy of max_r S(r); W1 of the S(r) histograms normalised by the measured mean; "
        "interval: the method's uncertainty interval; held-out: its error predicting the "
        "largest input from the smaller ones; time: extrapolation of traces in memory)\n");
    return 0;
}
