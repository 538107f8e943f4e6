#include "whatif/pop/regionscaling.h"

#include "model/analysis/messagestats.h"
#include "model/deltas/intervals.h"
#include "model/profile/calltree.h"
#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "whatif/extrap/extrapolation.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace rankscope::pop {

namespace {

void fit(ScalingSeries& s, double target)
{
    if (s.points.size() < 2) {
        s.fitError =
            "present at " + std::to_string(s.points.size()) + " scale(s): a fit needs at least 2";
        return;
    }
    const auto series = [&](bool max) {
        std::vector<extrap::FitPoint> p;
        for (const ScalingPoint& q : s.points)
            p.push_back({double(q.ranks), 0, max ? q.max : q.mean, 0});
        return extrap::fitSeries(p, extrap::Method::Rankscope, target);
    };
    try {
        s.meanFit = series(false);
        s.maxFit = series(true);
    } catch (const std::exception& e) {
        s.meanFit.reset();
        s.maxFit.reset();
        s.fitError = e.what();
    }
}

void finish(ScalingSeries& s, uint32_t smallest, uint32_t largest, double target)
{
    if (!s.points.empty() && s.points.front().ranks == smallest &&
        s.points.back().ranks == largest && s.points.front().mean > 0)
        s.growth = s.points.back().mean / s.points.front().mean;
    fit(s, target);
}

/// Growth first (largest first); by prediction: those not falling first, then by prediction.
bool before(const ScalingSeries& a, const ScalingSeries& b, bool byPrediction)
{
    if (!byPrediction) {
        if (a.growth != b.growth) return a.growth > b.growth;
        return a.name < b.name;
    }
    const bool fa = a.growth >= 1, fb = b.growth >= 1;
    if (fa != fb) return fa;
    const double pa = a.meanFit ? a.meanFit->prediction : -1;
    const double pb = b.meanFit ? b.meanFit->prediction : -1;
    if (pa != pb) return pa > pb;
    return a.name < b.name;
}

} // namespace

ScalingReport scalingReport(const std::vector<const Trace*>& traces,
                            const std::vector<std::string>& labels, uint32_t target)
{
    std::vector<size_t> order(traces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return traces[a]->rankCount() < traces[b]->rankCount();
    });
    const auto label = [&](size_t i) {
        return i < labels.size() ? labels[i] : "trace " + std::to_string(i + 1);
    };
    ScalingReport report;
    std::vector<IntervalTable> tables;
    std::vector<std::string> names;
    for (size_t k = 0; k < order.size(); ++k) {
        const Trace& t = *traces[order[k]];
        if (t.rankCount() == 0) throw TraceError(label(order[k]) + " has no ranks");
        if (k > 0 && t.rankCount() == report.scales.back())
            throw TraceError(label(order[k - 1]) + " and " + label(order[k]) +
                             " have the same scale: each scale may be given once");
        report.scales.push_back(uint32_t(t.rankCount()));
        tables.push_back(computeIntervals(t));
        names.push_back(label(order[k]));
    }
    if (report.scales.size() < 2)
        throw TraceError("the scaling of a program needs runs at least at 2 scales (got " +
                         std::to_string(report.scales.size()) + ")");
    std::vector<const IntervalTable*> pointers;
    for (const IntervalTable& t : tables)
        pointers.push_back(&t);
    extrap::checkSameProgram(report.scales, pointers, names);
    report.byPrediction = target != 0;
    report.target = target != 0 ? double(target) : 2.0 * report.scales.back();

    std::map<std::string, ScalingSeries> regions, paths;
    std::map<std::string, CallSiteScaling> sites;
    for (size_t k = 0; k < order.size(); ++k) {
        const Trace& t = *traces[order[k]];
        const uint32_t p = report.scales[k];
        const Profile profile = computeProfile(t);
        for (const RegionSummary& r : profile.regions) {
            if (r.calls == 0) continue;
            ScalingSeries& s = regions[std::string(t.regionName(r.region))];
            s.points.push_back({p, r.exclusivePerRank.mean, double(r.exclusivePerRank.max)});
        }
        const CallTree tree = computeCallTree(t);
        for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
            const CallTreeNode& node = tree.nodes[n];
            if (node.visits == 0) continue;
            paths[tree.path(t, n)].points.push_back(
                {p, node.exclusivePerRank.mean, double(node.exclusivePerRank.max)});
        }
        const MessageStatistics m = computeMessageStatistics(t);
        for (const MessageGroup& g : m.byCallSite) {
            CallSiteScaling& c = sites[g.name];
            const double n = double(g.count) / p, b = double(g.bytes) / p;
            c.messages.points.push_back({p, n, n});
            c.bytes.points.push_back({p, b, b});
        }
    }
    const uint32_t lo = report.scales.front(), hi = report.scales.back();
    for (auto& [name, s] : regions) {
        s.name = name;
        finish(s, lo, hi, report.target);
        report.regions.push_back(std::move(s));
    }
    for (auto& [name, s] : paths) {
        s.name = name;
        finish(s, lo, hi, report.target);
        report.callPaths.push_back(std::move(s));
    }
    for (auto& [name, c] : sites) {
        c.messages.name = c.bytes.name = name;
        finish(c.messages, lo, hi, report.target);
        finish(c.bytes, lo, hi, report.target);
        report.callSites.push_back(std::move(c));
    }
    const bool byPrediction = report.byPrediction;
    std::stable_sort(
        report.regions.begin(), report.regions.end(),
        [&](const ScalingSeries& a, const ScalingSeries& b) { return before(a, b, byPrediction); });
    std::stable_sort(
        report.callPaths.begin(), report.callPaths.end(),
        [&](const ScalingSeries& a, const ScalingSeries& b) { return before(a, b, byPrediction); });
    std::stable_sort(report.callSites.begin(), report.callSites.end(),
                     [&](const CallSiteScaling& a, const CallSiteScaling& b) {
                         return before(a.bytes, b.bytes, byPrediction);
                     });
    return report;
}

} // namespace rankscope::pop
