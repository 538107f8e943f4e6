#pragma once
// The slowest rank at the target scale (ALGORITHMS.md §4.1): max_r S(r) is the typical rank's
// S(r) plus the expected maximum of N ranks' deviations from it, an extreme value. It is not a
// smooth law of n: at 32 ranks one rank in 32 is the slowest, at 1024 one in 1024.
//
// The deviations at each input scale are d_r = S(r) / median - 1. Their upper tail is read as
// exponential with scale beta (the Gumbel domain of attraction, which holds for every light-tailed
// noise): above the median the excess is then Exp(beta), so beta is estimated robustly by the mean
// excess of the ranks above the median, and the expected maximum of N such ranks over the median
// is beta (H_N - ln 2), H_N the N-th harmonic number (the mean of the maximum of N unit
// exponentials). Real tails are lighter or heavier than exponential; the inputs' own maxima set a
// tail factor rho = observed excess / (beta (H_n - ln 2)) (their median), so that
//     E[max S(r)] = typical * (1 + rho beta(N) (H_N - ln 2)).
// beta(N) follows `ExcessGrowth`: the median of the inputs' beta (the spread's scale does not
// change with n), the last one, or a trend in ln n. The interval of the excess at `level` takes
// the Gumbel quantiles of the maximum (ln N - ln(-ln p) in place of H_N) and the inputs' lowest
// and highest beta.

#include <string>
#include <vector>

namespace rankscope::extrap {

enum class ExcessGrowth
{
    Median, ///< beta(N) = the median of the inputs' beta
    Last,   ///< beta(N) = beta at the largest input
    Trend   ///< beta(N) from a least-squares line in ln n, never below 0
};

/// "median" / "last" / "trend".
std::string excessGrowthName(ExcessGrowth growth);

struct SlowestOptions
{
    /// Chosen across every real multi-scale set by leave-one-program-out (bench/extrap).
    ExcessGrowth growth = ExcessGrowth::Last;
    double level = 0.8; ///< of the interval
};

struct ExcessPrediction
{
    double excess = 0; ///< expected max / typical - 1 at the target
    double low = 0;    ///< the interval of the same at the level
    double high = 0;
    double beta = 0; ///< the tail scale at the target
    /// beta(n) = betaIntercept + betaSlope ln n (slope 0 unless growth is `trend`; the trend is
    /// never taken below 0 at the target).
    double betaIntercept = 0;
    double betaSlope = 0;
    double tailFactor = 1;        ///< rho
    std::vector<double> betas;    ///< per input scale (0 for a 1-rank input)
    std::vector<double> observed; ///< max / median - 1 per input scale
    bool operator==(const ExcessPrediction&) const = default;
};

/// H_n - ln 2: the expected maximum of n unit exponentials over their median (0 for n <= 1).
double exponentialMaxOverMedian(double n);

/// `sums[k]`: S(r) of every rank at scale `scales[k]` (ascending). Inputs with one rank carry no
/// deviations and are skipped; with none left the excess is 0.
ExcessPrediction predictExcess(const std::vector<double>& scales,
                               const std::vector<std::vector<double>>& sums, double target,
                               const SlowestOptions& options = {});

} // namespace rankscope::extrap
