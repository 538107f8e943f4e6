#include "app/cli/scalingcommand.h"

#include "whatif/pop/regionscaling.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

namespace {

using nlohmann::ordered_json;
using pop::ScalingSeries;

ordered_json finite(double v)
{
    return std::isfinite(v) ? ordered_json(v) : ordered_json();
}

ordered_json fitJson(const std::optional<extrap::SeriesFit>& f)
{
    if (!f) return ordered_json();
    const std::string formula = f->chosen >= 0 ? f->models[size_t(f->chosen)].formula : "";
    return {{"model", f->chosenName()},
            {"formula", formula},
            {"prediction", finite(f->prediction)},
            {"low", finite(f->low)},
            {"high", finite(f->high)}};
}

ordered_json regionJson(const ScalingSeries& s)
{
    ordered_json j;
    j["name"] = s.name;
    auto& points = j["points"] = ordered_json::array();
    for (const pop::ScalingPoint& p : s.points)
        points.push_back({{"ranks", p.ranks}, {"mean_ns", p.mean}, {"max_ns", p.max}});
    j["growth"] = finite(s.growth);
    j["mean_fit"] = fitJson(s.meanFit);
    j["max_fit"] = fitJson(s.maxFit);
    if (!s.fitError.empty()) j["fit_error"] = s.fitError;
    return j;
}

ordered_json siteJson(const pop::CallSiteScaling& c)
{
    ordered_json j;
    j["name"] = c.bytes.name;
    auto& points = j["points"] = ordered_json::array();
    for (size_t k = 0; k < c.bytes.points.size(); ++k)
        points.push_back({{"ranks", c.bytes.points[k].ranks},
                          {"messages", c.messages.points[k].mean},
                          {"bytes", c.bytes.points[k].mean}});
    j["messages_growth"] = finite(c.messages.growth);
    j["bytes_growth"] = finite(c.bytes.growth);
    j["messages_fit"] = fitJson(c.messages.meanFit);
    j["bytes_fit"] = fitJson(c.bytes.meanFit);
    if (!c.bytes.fitError.empty()) j["fit_error"] = c.bytes.fitError;
    return j;
}

void printTable(const pop::ScalingReport& r, const std::vector<ScalingSeries>& rows,
                const char* what, size_t top)
{
    std::printf("%s by %s (exclusive time per rank, mean over ranks; predicted at %g ranks)\n",
                what, r.byPrediction ? "predicted time at the target" : "growth", r.target);
    std::printf("%8s", "growth");
    for (uint32_t p : r.scales)
        std::printf(" %10u", p);
    std::printf(" %12s  %-28s %s\n", "predicted", "model", what);
    for (size_t k = 0; k < rows.size() && k < top; ++k) {
        const ScalingSeries& s = rows[k];
        std::printf("%8.3f", s.growth);
        for (uint32_t p : r.scales) {
            std::string cell = "-";
            for (const pop::ScalingPoint& q : s.points)
                if (q.ranks == p) cell = durationText(q.mean);
            std::printf(" %10s", cell.c_str());
        }
        std::printf(" %12s  %-28s %s\n",
                    s.meanFit ? durationText(s.meanFit->prediction).c_str() : "-",
                    s.meanFit ? s.meanFit->chosenName().c_str() : "(no fit)", s.name.c_str());
    }
    if (rows.size() > top)
        std::printf("(%zu more; --top or --json lists them)\n", rows.size() - top);
}

void printText(const pop::ScalingReport& r, size_t top)
{
    printTable(r, r.regions, "regions", top);
    std::printf("\n");
    printTable(r, r.callPaths, "call paths", top);
    if (r.callSites.empty()) return;
    std::printf("\nsend call sites by bytes %s (per rank, mean over ranks)\n",
                r.byPrediction ? "predicted at the target" : "growth");
    std::printf("%8s %8s %14s %14s  %s\n", "growth", "msg gr.", "bytes pred.", "msgs pred.",
                "call site");
    for (size_t k = 0; k < r.callSites.size() && k < top; ++k) {
        const pop::CallSiteScaling& c = r.callSites[k];
        const auto predicted = [](const ScalingSeries& x) {
            char buf[32] = "-";
            if (x.meanFit) std::snprintf(buf, sizeof buf, "%.6g", x.meanFit->prediction);
            return std::string(buf);
        };
        std::printf("%8.3f %8.3f %14s %14s  %s\n", c.bytes.growth, c.messages.growth,
                    predicted(c.bytes).c_str(), predicted(c.messages).c_str(),
                    c.bytes.name.c_str());
    }
}

} // namespace

CLI::App* ScalingCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand(
        "scaling", "Which code stops scaling: each region's exclusive time per rank and each send "
                   "call site's messages and bytes per rank across runs of one program at "
                   "several scales, fitted and predicted at a target");
    cmd->add_option("traces", traces_, "Traces of one program at 2 or more scales")->required();
    cmd->add_option("--target", target_,
                    "The rank count to predict; rows are then listed by the prediction there "
                    "(default: twice the largest scale, rows by growth)");
    cmd->add_option("--top", top_, "Rows the text shows (--json lists all)")->capture_default_str();
    cmd->add_flag("--allow-partial", load_.allowPartial,
                  "Keep what can be read from a damaged trace and say what is missing");
    addOutputFormats(cmd, json_);
    return cmd;
}

int ScalingCommand::run() const
{
    if (target_ < 0 || target_ > (int64_t(1) << 24))
        throw UsageError("--target must be a rank count in 1..16777216, got " +
                         std::to_string(target_));
    std::vector<std::unique_ptr<Trace>> owned;
    std::vector<const Trace*> traces;
    for (const std::string& path : traces_) {
        owned.push_back(std::make_unique<Trace>(loadTrace(path, load_)));
        traces.push_back(owned.back().get());
    }
    const pop::ScalingReport r = pop::scalingReport(traces, traces_, uint32_t(target_));
    if (!json_) {
        printText(r, top_);
        return kOk;
    }
    ordered_json j;
    j["scales"] = r.scales;
    j["target"] = r.target;
    j["order"] = r.byPrediction ? "prediction" : "growth";
    auto& regions = j["regions"] = ordered_json::array();
    for (const ScalingSeries& s : r.regions)
        regions.push_back(regionJson(s));
    auto& paths = j["call_paths"] = ordered_json::array();
    for (const ScalingSeries& s : r.callPaths)
        paths.push_back(regionJson(s));
    auto& sites = j["call_sites"] = ordered_json::array();
    for (const pop::CallSiteScaling& c : r.callSites)
        sites.push_back(siteJson(c));
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
