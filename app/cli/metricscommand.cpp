#include "app/cli/metricscommand.h"

#include "model/metrics/metricprofile.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

/// Counter values are integers in practice; print them without a fraction when they are.
std::string number(double v)
{
    char buf[64];
    if (std::abs(v) < 9.0e15 && v == std::floor(v))
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, std::abs(v) < 1e15 ? "%.1f" : "%.6g", v);
    return buf;
}

nlohmann::ordered_json jsonNumber(double v)
{
    if (std::abs(v) < 9.0e15 && v == std::floor(v)) return int64_t(v);
    return v;
}

nlohmann::ordered_json jsonNumbers(const std::vector<double>& values)
{
    auto a = nlohmann::ordered_json::array();
    for (double v : values)
        a.push_back(jsonNumber(v));
    return a;
}

const char* modeText(MetricMode m)
{
    switch (m) {
    case MetricMode::AccumulatedStart:
        return "accumulated_start";
    case MetricMode::AccumulatedPoint:
        return "accumulated_point";
    case MetricMode::AccumulatedLast:
        return "accumulated_last";
    case MetricMode::AccumulatedNext:
        return "accumulated_next";
    case MetricMode::AbsolutePoint:
        return "absolute_point";
    case MetricMode::AbsoluteLast:
        return "absolute_last";
    case MetricMode::AbsoluteNext:
        return "absolute_next";
    case MetricMode::RelativePoint:
        return "relative_point";
    case MetricMode::RelativeLast:
        return "relative_last";
    case MetricMode::RelativeNext:
        return "relative_next";
    }
    return "unknown";
}

void printText(const Trace& trace, const MetricProfile& p)
{
    if (p.metrics.empty()) {
        std::printf("no metrics recorded\n");
        return;
    }
    std::printf("%14s %8s %6s  %s\n", "total", "samples", "locs", "metric");
    for (const MetricTotals& t : p.metrics)
        std::printf("%14s %8llu %6u  %s%s\n", t.accumulated ? number(t.total()).c_str() : "-",
                    (unsigned long long)t.samples, t.locations,
                    std::string(trace.metricName(t.metric)).c_str(),
                    t.accumulated ? "" : " (not a running total: no deltas)");
    for (const MetricTotals& t : p.metrics) {
        if (!t.accumulated) continue;
        std::printf("\n%s per region (delta per call):\n",
                    std::string(trace.metricName(t.metric)).c_str());
        std::printf("%14s %14s %8s %12s %12s %12s  %s\n", "exclusive", "inclusive", "calls",
                    "mean/call", "min/call", "max/call", "region");
        for (const MetricRegion& r : p.regions)
            if (r.metric == t.metric)
                std::printf("%14s %14s %8llu %12s %12s %12s  %s\n", number(r.exclusive).c_str(),
                            number(r.inclusive).c_str(), (unsigned long long)r.calls,
                            number(std::round(r.meanPerCall() * 10) / 10).c_str(),
                            number(r.minPerCall).c_str(), number(r.maxPerCall).c_str(),
                            std::string(trace.regionName(r.region)).c_str());
    }
}

void printCsv(const Trace& trace, const MetricProfile& p)
{
    std::cout << "metric,region,rank,calls,inclusive,exclusive,mean_per_call,min_per_call,"
                 "max_per_call\n";
    for (const MetricRegion& r : p.regions) {
        const std::string metric = csvField(trace.metricName(r.metric));
        const std::string region = csvField(trace.regionName(r.region));
        std::cout << metric << ',' << region << ",all," << r.calls << ',' << number(r.inclusive)
                  << ',' << number(r.exclusive) << ',' << number(r.meanPerCall()) << ','
                  << number(r.minPerCall) << ',' << number(r.maxPerCall) << '\n';
        for (size_t k = 0; k < r.inclusiveByRank.size(); ++k)
            std::cout << metric << ',' << region << ',' << k << ",," << number(r.inclusiveByRank[k])
                      << ',' << number(r.exclusiveByRank[k]) << ",,,\n";
    }
}

} // namespace

CLI::App* MetricsCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "metrics", "Hardware counters and other metrics: totals per rank and the counter delta "
                   "per region (per call, inclusive and exclusive)");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int MetricsCommand::run() const
{
    const Trace trace = loadTrace(trace_, load_);
    const MetricProfile p = computeMetricProfile(trace);
    if (csv_) {
        printCsv(trace, p);
        return kOk;
    }
    if (!json_) {
        printText(trace, p);
        return kOk;
    }
    nlohmann::ordered_json j;
    auto& metrics = j["metrics"] = nlohmann::ordered_json::array();
    for (const MetricTotals& t : p.metrics) {
        const Metric& m = trace.metric(t.metric);
        nlohmann::ordered_json mj;
        mj["name"] = std::string(trace.str(m.name));
        mj["unit"] = std::string(trace.str(m.unit));
        mj["description"] = std::string(trace.str(m.description));
        mj["mode"] = modeText(m.mode);
        mj["samples"] = t.samples;
        mj["locations"] = t.locations;
        mj["min_value"] = jsonNumber(t.minValue);
        mj["max_value"] = jsonNumber(t.maxValue);
        if (t.accumulated) {
            mj["total"] = jsonNumber(t.total());
            mj["by_rank"] = jsonNumbers(t.byRank);
        }
        auto& regions = mj["regions"] = nlohmann::ordered_json::array();
        for (const MetricRegion& r : p.regions) {
            if (r.metric != t.metric) continue;
            regions.push_back({{"region", std::string(trace.regionName(r.region))},
                               {"calls", r.calls},
                               {"inclusive", jsonNumber(r.inclusive)},
                               {"exclusive", jsonNumber(r.exclusive)},
                               {"mean_per_call", r.meanPerCall()},
                               {"min_per_call", jsonNumber(r.minPerCall)},
                               {"max_per_call", jsonNumber(r.maxPerCall)},
                               {"inclusive_by_rank", jsonNumbers(r.inclusiveByRank)},
                               {"exclusive_by_rank", jsonNumbers(r.exclusiveByRank)}});
        }
        metrics.push_back(std::move(mj));
    }
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
