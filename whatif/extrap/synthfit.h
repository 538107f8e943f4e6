#pragma once
// Trace synthesis: the fitted parts of the template (ALGORITHMS.md §5) — loop counts by the
// count model of §3.4, message and collective sizes as series across the scales, where the
// events of each gap between two calls sit, and the per-occurrence spread of delta times.
//
// A size series is fitted per role when the role occurs at 3 or more scales, else pooled over
// every role at the same call site, tag and collective op (a role seen only at the larger
// scales, such as the inner ranks of a 3-D grid, borrows the series of its call site).
// Sizes are exact in most programs, and halo sizes under strong scaling are power laws
// (n^(-1/2) faces, n^(-1/4) edges of 3-D stencils); so an exact power law (one that reproduces
// every input to the byte or to 0.1 %) is taken first, §4's PMNF search otherwise.

#include "whatif/extrap/seriesfit.h"
#include "whatif/extrap/synthplan.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace rankscope::extrap::synth {

/// The size at `target` (bytes, rounded, >= 0) of the series `points` (>= 3 distinct scales):
/// a constant, an exact power law of n, exactly a + b / d(n) for a dimension d(n) of the
/// placement's grid (when given), exactly a + b / 2^f(n) for the length f(n) of one of the role's
/// XOR runs (`xorRunFunctions`, indices into scaleFunctions()), else §4's PMNF.
uint64_t fitSize(std::span<const FitPoint> points, double target,
                 const Placement* placement = nullptr,
                 const std::vector<size_t>& xorRunFunctions = {});

/// Fills loop counts, sizes and gap placement of every role of `plan`; refusals for series
/// seen at fewer than 3 scales go to plan.refused. `members[role][scale]` are the role's ranks
/// at each input scale and `counts[role][scale]` their loop count.
void fitRoles(SynthesisPlan& plan, const std::vector<std::vector<std::vector<uint32_t>>>& members,
              const std::vector<std::vector<uint64_t>>& counts,
              const std::vector<ScaleSkeleton>& scales,
              const std::vector<MemberIndex>& memberIndex);

/// Events one rank of `role` records at the target.
uint64_t eventsPerRank(const SynthesisPlan& plan, const Role& role);

/// The within-rank coefficient of variation of each interval's delta times at `target`.
std::map<std::string, double> fitWithinRankCv(const std::vector<ScaleSkeleton>& scales,
                                              uint32_t target);

} // namespace rankscope::extrap::synth
