#include "whatif/netsim/calibrationsharing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rankscope::netsim {

namespace {

constexpr size_t kMinSamples = 8;
/// The concurrency must vary by at least this factor within a class for the exponent to show.
constexpr double kMinSpread = 1.5;

/// The number of transfers on one resource over time, as a step function with its integral,
/// so the mean concurrency over any interval is two lookups.
class Occupancy
{
public:
    void add(double begin, double end)
    {
        edges_.push_back({begin, +1});
        edges_.push_back({end, -1});
    }
    void finish()
    {
        std::sort(edges_.begin(), edges_.end());
        times_.clear();
        counts_.clear();
        areas_.clear();
        double area = 0, count = 0;
        for (size_t i = 0; i < edges_.size(); ++i) {
            if (!times_.empty()) area += count * (edges_[i].first - times_.back());
            count += edges_[i].second;
            if (!times_.empty() && times_.back() == edges_[i].first) {
                counts_.back() = count;
                continue;
            }
            times_.push_back(edges_[i].first);
            counts_.push_back(count);
            areas_.push_back(area);
        }
    }
    /// The integral of the count from the first edge to `t`.
    double integral(double t) const
    {
        const auto it = std::upper_bound(times_.begin(), times_.end(), t);
        if (it == times_.begin()) return 0;
        const size_t i = size_t(it - times_.begin()) - 1;
        return areas_[i] + counts_[i] * (t - times_[i]);
    }

private:
    std::vector<std::pair<double, int>> edges_;
    std::vector<double> times_, counts_, areas_;
};

struct Sample
{
    std::string linkClass;
    uint64_t resource = 0;
    double begin = 0, end = 0;
    double v = 0; ///< bytes / protocol bandwidth factor
    double z = 0; ///< transfer time
    double k = 1; ///< mean concurrency
};

} // namespace

SharingFit fitSharing(const std::vector<BlockingSendSample>& sends, const Machine& machine,
                      double sendOverheadNs, uint64_t eagerLimit)
{
    SharingFit fit;
    const NetworkSpec& spec = machine.spec();
    const uint64_t nodes = std::max<uint64_t>(1, spec.nodes);
    std::map<uint64_t, Occupancy> occupancy;
    std::vector<Sample> samples;
    for (const BlockingSendSample& s : sends) {
        const int net = machine.channel(s.src, s.dst, s.bytes);
        const uint32_t node = machine.nodeOf(s.src);
        // Resource: the node's memory (net -1) or its interface to network `net`.
        const uint64_t resource = uint64_t(net + 1) * nodes + node;
        const double begin = s.enterNs + std::max(0.0, s.recvPostedAfterNs);
        const double end = s.enterNs + s.durationNs;
        if (end <= begin) continue;
        occupancy[resource].add(begin, end);
        if (s.recvPostedAfterNs > 0 || s.bytes <= eagerLimit) continue;
        Sample x;
        double routeLatency = 0;
        if (net < 0) {
            if (!machine.intraNode()) continue;
            x.linkClass = machine.intraNode()->name;
            routeLatency = machine.intraNode()->latencyNs;
        } else {
            const PathInfo path = machine.topology(size_t(net)).path(node, machine.nodeOf(s.dst));
            const LinkClass* c = spec.link(spec.networks[size_t(net)].link);
            if (!c || path.hops == 0 || path.bytesPerNs != c->bytesPerNs) continue;
            x.linkClass = c->name;
            routeLatency = path.latencyNs;
        }
        const ProtocolEntry& p = machine.protocol(s.bytes);
        x.z = s.durationNs - sendOverheadNs - p.latencyNs - routeLatency;
        x.v = double(s.bytes) / p.bandwidthFactor;
        if (x.z <= 0) continue;
        x.resource = resource;
        x.begin = begin;
        x.end = end;
        samples.push_back(x);
    }
    for (auto& [resource, o] : occupancy)
        o.finish();
    std::map<std::string, std::vector<const Sample*>> byClass;
    for (Sample& x : samples) {
        const Occupancy& o = occupancy.at(x.resource);
        x.k = std::max(1.0, (o.integral(x.end) - o.integral(x.begin)) / (x.end - x.begin));
        byClass[x.linkClass].push_back(&x);
    }
    fit.samples = samples.size();
    if (samples.size() < kMinSamples) {
        fit.note = "too few rendezvous sends whose receive was ready (" +
                   std::to_string(samples.size()) + ")";
        return fit;
    }
    // Least squares with one intercept per class: the exponent from the within-class
    // deviations of log k and log(z / v).
    double sxx = 0, sxy = 0, widest = 1;
    std::vector<std::pair<double, double>> centred;
    for (const auto& [name, xs] : byClass) {
        double mx = 0, my = 0, kMin = xs.front()->k, kMax = kMin;
        for (const Sample* x : xs) {
            mx += std::log(x->k);
            my += std::log(x->z / x->v);
            kMin = std::min(kMin, x->k);
            kMax = std::max(kMax, x->k);
        }
        mx /= double(xs.size());
        my /= double(xs.size());
        widest = std::max(widest, kMax / kMin);
        for (const Sample* x : xs) {
            const double dx = std::log(x->k) - mx, dy = std::log(x->z / x->v) - my;
            sxx += dx * dx;
            sxy += dx * dy;
            centred.emplace_back(dx, dy);
        }
    }
    if (widest < kMinSpread || sxx <= 0) {
        fit.note = "the transfers' concurrency hardly varies on any link class";
        return fit;
    }
    const double s = sxy / sxx;
    double rss = 0;
    for (const auto& [dx, dy] : centred)
        rss += (dy - s * dx) * (dy - s * dx);
    const double dof = double(samples.size()) - double(byClass.size()) - 1;
    if (dof > 0 && s != 0) fit.relStdError = std::sqrt(rss / dof / sxx) / std::abs(s);
    char buf[160];
    if (s < 0 || s > 1) {
        std::snprintf(buf, sizeof buf,
                      "the fit gave %.3g, outside 0 (no contention) to 1 (a fairly shared link)",
                      s);
        fit.note = buf;
        return fit;
    }
    if (!fit.relStdError || *fit.relStdError >= 1) {
        std::snprintf(buf, sizeof buf, "the data cannot tell it from 0 (rel. std. error %.0f%%)",
                      100 * fit.relStdError.value_or(1));
        fit.note = buf;
        return fit;
    }
    fit.determined = true;
    fit.exponent = s;
    std::snprintf(buf, sizeof buf,
                  "least squares of log cost per byte on log concurrency (up to %.1f-fold "
                  "within a link class), one exponent for all classes",
                  widest);
    fit.note = buf;
    for (const auto& [name, xs] : byClass) {
        double zw = 0, ww = 0;
        for (const Sample* x : xs) {
            const double w = x->v * std::pow(x->k, s);
            zw += x->z * w;
            ww += w * w;
        }
        if (zw > 0 && ww > 0) fit.bytesPerNs[name] = ww / zw;
        fit.classSamples[name] = xs.size();
    }
    return fit;
}

} // namespace rankscope::netsim
