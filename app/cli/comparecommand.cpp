#include "app/cli/comparecommand.h"

#include "model/analysis/runcomparison.h"
#include "model/analysis/runspan.h"

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
    addOutputFormats(cmd, json_);
    return cmd;
}

int CompareCommand::run() const
{
    const Trace a = loadTrace(a_, load_);
    const Trace b = loadTrace(b_, load_);
    const RunFigures fa = runFigures(a, analyzeWaitStates(a));
    const RunFigures fb = runFigures(b, analyzeWaitStates(b));
    const std::vector<ComparisonRow> rows = comparisonRows(fa, fb);
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
    return kOk;
}

} // namespace rankscope::cli
