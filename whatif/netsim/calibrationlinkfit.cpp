#include "whatif/netsim/calibrationlinkfit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rankscope::netsim {

namespace {
constexpr size_t kMinSamples = 3;
} // namespace

ClassFit fitClass(const std::map<std::pair<double, double>, LinkFitGroup>& groups,
                  const LinkClass& spec)
{
    ClassFit fit;
    fit.latencyNs = spec.latencyNs;
    fit.nsPerByte = spec.bytesPerNs > 0 ? 1.0 / spec.bytesPerNs : 0;
    // One row per observation: ordinary least squares, so the fitted terms reproduce the mean
    // measured cost (what the run time adds up), waiting and noise included.
    std::vector<double> h, v, z;
    for (const auto& [key, g] : groups)
        for (double y : g.z) {
            h.push_back(g.hops);
            v.push_back(g.v);
            z.push_back(y);
        }
    fit.samples = z.size();
    if (fit.samples < kMinSamples) {
        fit.latencyNote = fit.bandwidthNote =
            "too few messages on this link class (" + std::to_string(fit.samples) + ")";
        return fit;
    }
    const size_t n = z.size();
    const double vMin = *std::min_element(v.begin(), v.end());
    const double vMax = *std::max_element(v.begin(), v.end());
    size_t sizes = 0;
    {
        std::vector<double> distinct = v;
        std::sort(distinct.begin(), distinct.end());
        sizes = size_t(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    }
    // Solves for the latency and/or the ns per byte, the other held at its current value;
    // the relative standard errors come from the residuals (sigma^2 (A^T A)^-1).
    struct Solution
    {
        double latency = 0, perByte = 0;
        std::optional<double> latencyRse, perByteRse;
    };
    auto solve = [&](bool fitLatency, bool fitPerByte) {
        const Eigen::Index p = (fitLatency ? 1 : 0) + (fitPerByte ? 1 : 0);
        Eigen::MatrixXd a(static_cast<Eigen::Index>(n), p);
        Eigen::VectorXd b(static_cast<Eigen::Index>(n));
        for (size_t i = 0; i < n; ++i) {
            const Eigen::Index row = static_cast<Eigen::Index>(i);
            Eigen::Index col = 0;
            double y = z[i];
            if (fitLatency)
                a(row, col++) = h[i];
            else
                y -= h[i] * fit.latencyNs;
            if (fitPerByte)
                a(row, col++) = v[i];
            else
                y -= v[i] * fit.nsPerByte;
            b(row) = y;
        }
        const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
        const double rss = (a * x - b).squaredNorm();
        const double dof = double(n) - double(p);
        std::vector<std::optional<double>> rse(static_cast<size_t>(p));
        if (dof > 0) {
            const Eigen::MatrixXd cov = (a.transpose() * a).inverse() * (rss / dof);
            for (Eigen::Index j = 0; j < p; ++j)
                if (x(j) != 0)
                    rse[size_t(j)] = std::sqrt(std::max(0.0, cov(j, j))) / std::abs(x(j));
        }
        Solution s{fit.latencyNs, fit.nsPerByte, {}, {}};
        Eigen::Index col = 0;
        if (fitLatency) {
            s.latencyRse = rse[size_t(col)];
            s.latency = x(col++);
        }
        if (fitPerByte) {
            s.perByteRse = rse[size_t(col)];
            s.perByte = x(col++);
        }
        return s;
    };
    // A value is determined when it has the right sign and its standard error is below it.
    auto determined = [](double value, const std::optional<double>& rse) {
        return value > 0 && (!rse || *rse < 1.0);
    };
    auto why = [](double value, const std::optional<double>& rse) {
        if (value <= 0) return std::string("the fit gave a value <= 0");
        char buf[96];
        std::snprintf(buf, sizeof buf, "the data cannot tell it from 0 (rel. std. error %.0f%%)",
                      100 * rse.value_or(0));
        return std::string(buf);
    };
    const bool sizesVary = sizes >= 2 && vMax > 0 && vMax >= 2 * vMin;
    if (sizesVary) {
        const Solution both = solve(true, true);
        const bool latOk = determined(both.latency, both.latencyRse);
        const bool bwOk = determined(both.perByte, both.perByteRse);
        if (latOk && bwOk) {
            fit.latencyNs = both.latency;
            fit.nsPerByte = both.perByte;
            fit.latencyRse = both.latencyRse;
            fit.bandwidthRse = both.perByteRse;
            fit.latencyDetermined = fit.bandwidthDetermined = true;
            fit.latencyNote = fit.bandwidthNote =
                "least squares of latency and bandwidth over " + std::to_string(sizes) + " sizes";
            return fit;
        }
        if (bwOk) { // the latency is not determined: the bandwidth alone, latency as in the spec
            fit.latencyNote = why(both.latency, both.latencyRse) + "; kept as in the spec";
            const Solution one = solve(false, true);
            if (determined(one.perByte, one.perByteRse)) {
                fit.nsPerByte = one.perByte;
                fit.bandwidthRse = one.perByteRse;
                fit.bandwidthDetermined = true;
                fit.bandwidthNote = "least squares over " + std::to_string(sizes) +
                                    " sizes, latency as in the spec";
            } else {
                fit.bandwidthNote = why(one.perByte, one.perByteRse);
            }
            return fit;
        }
        fit.bandwidthNote = why(both.perByte, both.perByteRse) + "; kept as in the spec";
    } else {
        fit.bandwidthNote = "one message size (or sizes too close) on this link class";
    }
    const Solution one = solve(true, false);
    if (determined(one.latency, one.latencyRse)) {
        fit.latencyNs = one.latency;
        fit.latencyRse = one.latencyRse;
        fit.latencyDetermined = true;
        fit.latencyNote = "least squares, bandwidth as in the spec";
    } else {
        fit.latencyNote = why(one.latency, one.latencyRse) + "; kept as in the spec";
    }
    return fit;
}

} // namespace rankscope::netsim
