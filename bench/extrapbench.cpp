// Extrapolation benchmark (ALGORITHMS.md §3-§4): for generated patterns whose intervals scale
// differently (constant, 1/n, n) and whose spread widens with n, classic (sum mode) against
// Rankscope accuracy of max_r S(r) and normalised W1 of the S(r) histogram, with run times.

#include "benchsupport.h"

#include "model/trace.h"
#include "model/tracegenerator.h"
#include "whatif/extrap/extrapolation.h"

#include <cstdio>
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

} // namespace

int main()
{
    const std::vector<Case> cases = {
        {"stencil2d", {16, 36, 64, 144}, 576,
         {{"pack", 200e3, ScalingLaw::Constant}, {"interior", 3.2e8, ScalingLaw::InverseN},
          {"unpack", 2e3, ScalingLaw::LinearN}, {"boundary", 50e3, ScalingLaw::Constant}}},
        {"alltoall", {8, 16, 32, 64}, 256,
         {{"local_sort", 6e7, ScalingLaw::InverseN}, {"bucket_count", 5e3, ScalingLaw::LinearN},
          {"merge", 300e3, ScalingLaw::Constant}}},
        {"stencil3d", {8, 27, 64, 125}, 343,
         {{"pack", 100e3, ScalingLaw::Constant}, {"interior", 2e8, ScalingLaw::InverseN},
          {"unpack", 4e3, ScalingLaw::LinearN}, {"boundary", 50e3, ScalingLaw::Constant}}},
    };
    std::printf("%-10s %-16s %6s | %9s %7s %8s | %9s %7s %8s\n", "pattern", "scales", "target",
                "classic", "W1", "time s", "rankscope", "W1", "time s");
    for (const Case& c : cases) {
        std::vector<std::unique_ptr<Trace>> small;
        std::vector<const Trace*> ptrs;
        for (uint32_t n : c.scales) {
            small.push_back(std::make_unique<Trace>(generate(c, n)));
            ptrs.push_back(small.back().get());
        }
        const Trace measured = generate(c, c.target);
        std::string scales;
        for (uint32_t n : c.scales) scales += (scales.empty() ? "" : ",") + std::to_string(n);
        std::printf("%-10s %-16s %6u |", c.pattern.c_str(), scales.c_str(), c.target);
        for (Method m : {Method::Classic, Method::Rankscope}) {
            ExtrapolationOptions o;
            o.method = m;
            o.mode = m == Method::Classic ? Mode::Sum : Mode::Interval;
            o.target = c.target;
            const auto t0 = bench::Clock::now();
            const ExtrapolationResult r = extrapolate(ptrs, o, &measured);
            const double s = bench::seconds(t0, bench::Clock::now());
            std::printf(" %8.1f%% %7.3f %8.3f %s", *r.accuracyPct, *r.w1Normalized, s,
                        m == Method::Classic ? "|" : "\n");
        }
    }
    std::printf("(accuracy of max_r S(r), %%; W1 normalised by the measured mean; time: "
                "extrapolation of already generated in-memory traces)\n");
    return 0;
}
