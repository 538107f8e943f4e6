#include "model/metrics/metricprofile.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>

namespace rankscope {

namespace {

bool isCallEvent(EventKind k)
{
    return k == EventKind::Enter || k == EventKind::Leave;
}

/// Walks one location's events and one of its metric columns in step: the sample of each
/// Enter/Leave event in O(1) amortised.
class SampleCursor
{
public:
    explicit SampleCursor(const MetricColumn& c) : times_(c.times) {}

    /// The sample of a call event at time t, or SIZE_MAX.
    size_t at(int64_t t)
    {
        if (t != lastTime_) {
            lastTime_ = t;
            tie_ = 0;
            while (lo_ < times_.size() && times_[lo_] < t)
                ++lo_;
            hi_ = std::max(hi_, lo_);
            while (hi_ < times_.size() && times_[hi_] <= t)
                ++hi_;
        }
        const size_t k = tie_++;
        if (lo_ + k < hi_) return lo_ + k;
        return hi_ > 0 ? hi_ - 1 : SIZE_MAX;
    }

private:
    const std::vector<int64_t>& times_;
    size_t lo_ = 0;
    size_t hi_ = 0;
    size_t tie_ = 0;
    int64_t lastTime_ = INT64_MIN;
};

struct Frame
{
    RegionId region;
    bool valid;
    double enter;
    double children;
};

struct Sums
{
    uint64_t calls = 0;
    double inclusive = 0;
    double exclusive = 0;
    double minPerCall = 0;
    double maxPerCall = 0;
    std::vector<double> inclusiveByRank;
    std::vector<double> exclusiveByRank;
};

void walkLocation(const Trace& trace, const MetricColumn& column, std::map<uint32_t, Sums>& sums)
{
    const EventStream& es = trace.events(column.location);
    const MetricValueType type = trace.metric(column.metric).type;
    const uint32_t rank = trace.rankOf(column.location).value;
    const size_t ranks = trace.rankCount();
    SampleCursor cursor(column);
    std::vector<Frame> stack;
    for (size_t i = 0; i < es.size(); ++i) {
        const EventKind kind = es.kind(i);
        if (!isCallEvent(kind)) continue;
        const size_t s = cursor.at(es.time(i));
        const bool valid = s != SIZE_MAX;
        const double v = valid ? metricValue(column.raw[s], type) : 0.0;
        if (kind == EventKind::Enter) {
            stack.push_back({es.region(i), valid, v, 0.0});
            continue;
        }
        // A Leave closes its region and whatever was left open inside it; a Leave without an
        // Enter is ignored, as the other analyses do.
        const RegionId region = es.region(i);
        auto open = std::find_if(stack.rbegin(), stack.rend(),
                                 [&](const Frame& f) { return f.region == region; });
        if (open == stack.rend()) continue;
        stack.resize(size_t(stack.rend() - open));
        const Frame f = stack.back();
        stack.pop_back();
        if (!f.valid || !valid) continue;
        const double inclusive = v - f.enter;
        const double exclusive = inclusive - f.children;
        if (!stack.empty()) stack.back().children += inclusive;
        Sums& r = sums[region.value];
        if (r.inclusiveByRank.empty()) {
            r.inclusiveByRank.assign(ranks, 0.0);
            r.exclusiveByRank.assign(ranks, 0.0);
        }
        r.minPerCall = r.calls == 0 ? inclusive : std::min(r.minPerCall, inclusive);
        r.maxPerCall = r.calls == 0 ? inclusive : std::max(r.maxPerCall, inclusive);
        ++r.calls;
        r.inclusive += inclusive;
        r.exclusive += exclusive;
        r.inclusiveByRank[rank] += inclusive;
        r.exclusiveByRank[rank] += exclusive;
    }
}

} // namespace

double MetricTotals::total() const
{
    return std::accumulate(byRank.begin(), byRank.end(), 0.0);
}

size_t metricSampleAt(const MetricColumn& column, const EventStream& events, size_t i)
{
    const int64_t t = events.time(i);
    size_t k = 0;
    for (size_t j = i; j > 0 && events.time(j - 1) == t; --j)
        k += isCallEvent(events.kind(j - 1)) ? 1 : 0;
    const auto lo = size_t(std::lower_bound(column.times.begin(), column.times.end(), t) -
                           column.times.begin());
    const auto hi = size_t(std::upper_bound(column.times.begin(), column.times.end(), t) -
                           column.times.begin());
    if (isCallEvent(events.kind(i)) && lo + k < hi) return lo + k;
    return hi > 0 ? hi - 1 : SIZE_MAX;
}

MetricProfile computeMetricProfile(const Trace& trace)
{
    MetricProfile p;
    const size_t ranks = trace.rankCount();
    for (uint32_t m = 0; m < trace.metrics().size(); ++m) {
        MetricTotals t;
        t.metric = MetricId(m);
        t.accumulated = isAccumulated(trace.metric(t.metric).mode);
        t.byRank.assign(ranks, 0.0);
        p.metrics.push_back(std::move(t));
    }
    std::vector<std::map<uint32_t, Sums>> sums(trace.metrics().size());
    for (const MetricColumn& c : trace.metricColumns()) {
        if (c.times.empty()) continue;
        MetricTotals& t = p.metrics[c.metric.value];
        const MetricValueType type = trace.metric(c.metric).type;
        const bool first = t.samples == 0;
        t.samples += c.size();
        ++t.locations;
        for (size_t s = 0; s < c.size(); ++s) {
            const double v = metricValue(c.raw[s], type);
            t.minValue = first && s == 0 ? v : std::min(t.minValue, v);
            t.maxValue = first && s == 0 ? v : std::max(t.maxValue, v);
        }
        if (!t.accumulated) continue;
        t.byRank[trace.rankOf(c.location).value] +=
            metricValue(c.raw.back(), type) - metricValue(c.raw.front(), type);
        walkLocation(trace, c, sums[c.metric.value]);
    }
    for (uint32_t m = 0; m < sums.size(); ++m) {
        const size_t first = p.regions.size();
        for (auto& [region, s] : sums[m])
            p.regions.push_back({MetricId(m), RegionId(region), s.calls, s.inclusive, s.exclusive,
                                 s.minPerCall, s.maxPerCall, std::move(s.inclusiveByRank),
                                 std::move(s.exclusiveByRank)});
        std::stable_sort(
            p.regions.begin() + std::ptrdiff_t(first), p.regions.end(),
            [](const MetricRegion& a, const MetricRegion& b) { return a.exclusive > b.exclusive; });
    }
    return p;
}

} // namespace rankscope
