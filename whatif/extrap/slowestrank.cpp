#include "whatif/extrap/slowestrank.h"

#include "whatif/extrap/leastsquares.h"

#include <algorithm>
#include <cmath>

namespace rankscope::extrap {

namespace {

constexpr double kEulerGamma = 0.57721566490153286;

double harmonic(double n)
{
    if (n < 1) return 0;
    if (n > 1000) return std::log(n) + kEulerGamma + 1 / (2 * n) - 1 / (12 * n * n);
    double h = 0;
    for (int i = 1; i <= int(n); ++i)
        h += 1.0 / i;
    return h;
}

double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t mid = v.size() / 2;
    return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/// The maximum of N unit exponentials over their median, at the Gumbel quantile p.
double gumbelQuantileOverMedian(double n, double p)
{
    return std::max(0.0, std::log(n) - std::log(-std::log(p)) - std::log(2.0));
}

} // namespace

std::string excessGrowthName(ExcessGrowth growth)
{
    switch (growth) {
    case ExcessGrowth::Median:
        return "median";
    case ExcessGrowth::Last:
        return "last";
    case ExcessGrowth::Trend:
        return "trend";
    }
    return "";
}

double exponentialMaxOverMedian(double n)
{
    return n <= 1 ? 0.0 : harmonic(n) - std::log(2.0);
}

ExcessPrediction predictExcess(const std::vector<double>& scales,
                               const std::vector<std::vector<double>>& sums, double target,
                               const SlowestOptions& options)
{
    ExcessPrediction out;
    std::vector<double> ns, betas, ratios;
    for (size_t k = 0; k < sums.size() && k < scales.size(); ++k) {
        const std::vector<double>& s = sums[k];
        const double m = median(s);
        double beta = 0, observed = 0;
        if (s.size() >= 2 && m > 0) {
            double above = 0;
            size_t count = 0;
            for (double v : s)
                if (v > m) {
                    above += v / m - 1;
                    ++count;
                }
            beta = count ? above / double(count) : 0.0;
            observed = *std::max_element(s.begin(), s.end()) / m - 1;
            ns.push_back(scales[k]);
            betas.push_back(beta);
            const double expected = beta * exponentialMaxOverMedian(double(s.size()));
            if (expected > 0) ratios.push_back(observed / expected);
        }
        out.betas.push_back(beta);
        out.observed.push_back(observed);
    }
    if (betas.empty()) return out;
    switch (options.growth) {
    case ExcessGrowth::Median:
        out.beta = out.betaIntercept = median(betas);
        break;
    case ExcessGrowth::Last:
        out.beta = out.betaIntercept = betas.back();
        break;
    case ExcessGrowth::Trend: {
        if (betas.size() < 2) {
            out.beta = out.betaIntercept = betas.back();
            break;
        }
        Eigen::VectorXd x(Eigen::Index(ns.size())), y(Eigen::Index(ns.size()));
        for (size_t i = 0; i < ns.size(); ++i) {
            x(Eigen::Index(i)) = std::log(ns[i]);
            y(Eigen::Index(i)) = betas[i];
        }
        const std::optional<LineFit> line = fitLine(x, y);
        const double slope = line ? line->slope : 0.0;
        const double intercept = line ? line->intercept : betas.back();
        out.beta = std::max(0.0, intercept + slope * std::log(target));
        out.betaIntercept = out.beta > 0 ? intercept : 0.0;
        out.betaSlope = out.beta > 0 ? slope : 0.0;
        break;
    }
    }
    out.tailFactor = ratios.empty() ? 1.0 : median(ratios);
    const double rho = out.tailFactor;
    out.excess = rho * out.beta * exponentialMaxOverMedian(target);
    const double tail = (1 - options.level) / 2;
    const double lowBeta = std::min(out.beta, *std::min_element(betas.begin(), betas.end()));
    const double highBeta = std::max(out.beta, *std::max_element(betas.begin(), betas.end()));
    out.low = std::min(out.excess, rho * lowBeta * gumbelQuantileOverMedian(target, tail));
    out.high = std::max(out.excess, rho * highBeta * gumbelQuantileOverMedian(target, 1 - tail));
    return out;
}

} // namespace rankscope::extrap
