#include "app/cli/comparecommand.h"

#include "model/analysis/comparisondata.h"
#include "model/analysis/runcomparison.h"
#include "model/analysis/runspan.h"
#include "model/waits/waitstates.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* CompareCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "compare", "Compare two runs as the comparison view does (run, MPI, computation and "
                   "wait time per pattern)");
    cmd->add_option("a", a_, "The first run (e.g. measured): OTF2 anchor file or its folder")
        ->required();
    cmd->add_option("b", b_, "The second run (e.g. predicted)")->required();
    cmd->add_flag("--allow-partial", load_.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
    cmd->add_flag("--histogram", histogram_,
                  "Also print the delta-time histograms of both runs, as the Delta times pane "
                  "overlays them");
    cmd->add_option("--interval", interval_,
                    "With --histogram: one execution interval, named as `intervals` prints it "
                    "(\"A - B\"); default all");
    cmd->add_option("--rank", rank_, "With --histogram: one rank; default all ranks")
        ->check(CLI::Range(0, 1 << 24));
    cmd->add_option("--bins", bins_, "With --histogram: the number of bins")
        ->check(CLI::Range(1, kMaxHistogramBins));
    addOutputFormats(cmd, json_);
    return cmd;
}

namespace {

nlohmann::ordered_json histogramJson(const std::optional<Histogram>& h)
{
    if (!h) return nullptr; // the rank is beyond this run's ranks
    nlohmann::ordered_json j;
    j["count"] = h->count;
    j["mean_ns"] = h->mean;
    j["min_ns"] = h->min;
    j["max_ns"] = h->max;
    auto& bins = j["bins"] = nlohmann::ordered_json::array();
    for (const HistogramBin& b : h->bins)
        bins.push_back({{"lower_ns", b.lower},
                        {"upper_ns", b.upper},
                        {"count", b.count},
                        {"frequency", b.frequency}});
    return j;
}

void printHistogram(const char* run, const std::optional<Histogram>& h)
{
    if (!h) {
        std::printf("%s: no such rank\n", run);
        return;
    }
    std::printf("%s: %llu delta times, mean %s, min %s, max %s\n", run,
                static_cast<unsigned long long>(h->count), durationText(int64_t(h->mean)).c_str(),
                durationText(int64_t(h->min)).c_str(), durationText(int64_t(h->max)).c_str());
    for (const HistogramBin& b : h->bins)
        std::printf("  %12s - %-12s %10llu  %5.1f%%\n", durationText(int64_t(b.lower)).c_str(),
                    durationText(int64_t(b.upper)).c_str(),
                    static_cast<unsigned long long>(b.count), 100 * b.frequency);
}

} // namespace

int CompareCommand::run() const
{
    if (!histogram_ && (!interval_.empty() || rank_ >= 0))
        throw UsageError("--interval and --rank select a histogram: add --histogram");
    const Trace a = loadTrace(a_, load_);
    const Trace b = loadTrace(b_, load_);
    const WaitStateAnalysis wa = analyzeWaitStates(a);
    const WaitStateAnalysis wb = analyzeWaitStates(b);
    const RunFigures fa = runFigures(a, wa);
    const RunFigures fb = runFigures(b, wb);
    const std::vector<ComparisonRow> rows = comparisonRows(fa, fb);
    std::optional<Histogram> ha, hb;
    if (histogram_) {
        const auto data = buildComparisonData(a, wa, b, wb);
        int interval = -1;
        if (!interval_.empty()) {
            const auto it = std::find(data->intervals.begin(), data->intervals.end(), interval_);
            if (it == data->intervals.end())
                throw UsageError("no execution interval \"" + interval_ +
                                 "\" in either run (`rankscope-cli intervals` lists them)");
            interval = int(it - data->intervals.begin());
        }
        std::tie(ha, hb) = deltaHistograms(*data, interval, rank_, bins_);
    }
    if (json_) {
        nlohmann::ordered_json j;
        j["a"] = a_;
        j["b"] = b_;
        j["span_a"] = runSpan(a).name();
        j["span_b"] = runSpan(b).name();
        auto& out = j["rows"] = nlohmann::ordered_json::array();
        for (const ComparisonRow& r : rows) {
            const auto pct = r.percent();
            out.push_back({{"key", r.key},
                           {"name", r.name},
                           {"a_ns", r.a},
                           {"b_ns", r.b},
                           {"difference_ns", r.difference()},
                           {"difference_pct",
                            pct ? nlohmann::ordered_json(*pct) : nlohmann::ordered_json()}});
        }
        if (histogram_) {
            auto& h = j["histogram"];
            h["interval"] =
                interval_.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(interval_);
            h["rank"] = rank_ < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(rank_);
            h["a"] = histogramJson(ha);
            h["b"] = histogramJson(hb);
        }
        printJson(j);
        return kOk;
    }
    std::printf("A: %s\nB: %s\n\n%-36s %12s %12s %12s %9s\n", a_.c_str(), b_.c_str(), "", "A", "B",
                "B - A", "%");
    for (const ComparisonRow& r : rows) {
        const auto pct = r.percent();
        char p[32] = "-";
        if (pct) std::snprintf(p, sizeof p, "%+.1f%%", *pct);
        const double d = r.difference();
        std::printf("%-36s %12s %12s %12s %9s\n", r.name.c_str(),
                    durationText(int64_t(r.a)).c_str(), durationText(int64_t(r.b)).c_str(),
                    ((d < 0 ? "-" : "+") + durationText(int64_t(d < 0 ? -d : d))).c_str(), p);
    }
    if (histogram_) {
        std::printf("\nDelta times of %s, %s\n",
                    interval_.empty() ? "all intervals" : interval_.c_str(),
                    rank_ < 0 ? "all ranks" : ("rank " + std::to_string(rank_)).c_str());
        printHistogram("A", ha);
        printHistogram("B", hb);
    }
    return kOk;
}

} // namespace rankscope::cli
