#pragma once
// Trace synthesis: the delta times of the synthesised ranks (ALGORITHMS.md §5), drawn from the
// timing extrapolation's per-interval distributions with a fixed seed.
//
// - Rankscope method: the prediction of an interval is the distribution of its per-rank total
//   (count x delta) at the target, and the predicted max_r S(r) assumes a rank keeps its place
//   in every interval's distribution (sumcomposition.h). So each rank gets one level u in
//   [0, 1] (the levels 0, 1/(N-1), ..., 1 in a seeded random order, which reproduces the
//   distributions exactly) and its total of interval i is Q_i(u); an interval that only some
//   ranks run takes the upper part of its distribution (the rest is the ranks without it).
//   The total is split over the rank's occurrences with the within-rank spread measured in the
//   inputs (coefficient of variation, fitted across scales) and rounded so the parts add up.
// - Classic method: each occurrence is drawn independently from the interval's predicted
//   histogram of delta times, as the classic method's own sum composition assumes.
// - An interval seen at fewer than 3 scales (plan.unruled) has no extrapolation: its quantiles
//   are the per-rank mean deltas at the nearest scale; a rank's total is Q(u) x its count.
// - Rank sums: when the extrapolation reports max_r S(r) from the direct fit (its held-out error
//   beat the composition's), the composed totals of a rank are scaled by one factor so that the
//   ranks' sums S(r) follow the direct prediction of S(r) over the target's ranks
//   (result.predictedSums), the ranks keeping the order their composed sums give them (a rank
//   whose role runs less computation stays below one that runs more). Each quantile level of an
//   interval is extrapolated on its own; on real traces with noisy inputs their sum can far
//   exceed what the ranks' sums themselves say (CloverLeaf 4/8/16 -> 32: composed 482.8 ms,
//   direct 26.4 ms, measured 35.8 ms), and the synthesised trace must agree with the figure
//   the user is shown.
// Gaps outside the delta-time span (before MPI_Init, after MPI_Finalize) take the role's mean.

#include "model/deltas/quantilefunction.h"
#include "model/generator/generatorrandom.h"
#include "whatif/extrap/synthplan.h"

#include <cstdint>
#include <vector>

namespace rankscope::extrap::synth {

/// Per rank, the factor that turns its sum `have[r]` into the quantile of `quantiles` (equally
/// spaced levels, ascending) at its place among the ranks: the k-th smallest sum (ties by rank)
/// takes level k / (n - 1). 1 for a rank whose sum is 0. Shared by the sampler and the tiled
/// fallback (synthtile.h), so both follow the extrapolation's S(r) the same way.
std::vector<double> rankSumFactors(const std::vector<double>& have,
                                   const std::vector<double>& quantiles);

class DeltaSampler
{
public:
    /// `grid` is the plan's grid at the target (nullptr for placements without one).
    DeltaSampler(const SynthesisPlan& plan, uint64_t seed, const ProcessGrid* grid);

    /// The factor applied to rank r's interval totals (1 when no rank-sum calibration applies).
    double rankFactor(uint32_t r) const { return factor_.empty() ? 1.0 : factor_[r]; }

    /// The gap before each step of rank r (of role `role`), in ns.
    void gaps(uint32_t r, size_t role, std::vector<int64_t>& out) const;

private:
    struct RoleTiming
    {
        std::vector<int32_t> intervalOfStep; ///< per step of a rank; -1 outside the span
        std::vector<std::pair<int32_t, uint64_t>> occurrences; ///< (interval, count)
        std::vector<int32_t> slotOf; ///< interval -> index into occurrences, -1 where absent
    };
    struct IntervalTiming
    {
        QuantileFunction quantiles; ///< Rankscope: per-rank totals; classic: deltas
        double presence = 1;        ///< share of the target's ranks running the interval
        double cv = 0;              ///< within-rank spread of its deltas
        /// An unruled interval: quantiles are of the per-rank mean delta, not of totals.
        bool perOccurrence = false;
    };

    /// `total` split into `count` parts with relative spread `cv`, rounded so they add up.
    /// Rank r's total of the interval at `slot` of its role (before the rank factor).
    double total(uint32_t r, const std::pair<int32_t, uint64_t>& occurrence) const;
    /// Fills factor_ from the composed sums of every rank (Rankscope, direct sum model).
    void calibrateRankSums(const ProcessGrid* grid);

    static void split(double total, uint64_t count, double cv, GeneratorRandom& random,
                      std::vector<int64_t>& out);

    const SynthesisPlan& plan_;
    uint64_t seed_;
    std::vector<RoleTiming> roles_;
    std::vector<IntervalTiming> intervals_; ///< parallel to plan.timing.intervals
    std::vector<double> level_;             ///< per rank (Rankscope)
    std::vector<double> factor_;            ///< per rank; empty: all 1
};

} // namespace rankscope::extrap::synth
