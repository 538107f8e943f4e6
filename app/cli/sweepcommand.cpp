#include "app/cli/sweepcommand.h"

#include "app/cli/netsimoptions.h"
#include "model/trace/traceerror.h"
#include "whatif/scenario/whatifpipeline.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

namespace rankscope::cli {

CLI::App* SweepCommand::add(CLI::App& parent)
{
    CLI::App* cmd =
        parent.add_subcommand("sweep", "Predicted run time for each value of one network spec key");
    addTraceInput(cmd, trace_, load_);
    addClockCorrection(cmd, load_);
    cmd->add_option("--network", network_, "Network spec (YAML file, or a bundled spec's name)")
        ->required();
    cmd->add_option("--set", set_, "Override a spec value first, e.g. links.wan.latency=5ms");
    cmd->add_option("--param", param_, "The key to sweep, e.g. links.wan.latency")->required();
    // Split here, not by the parser, which drops an empty value ("1us,,2us").
    cmd->add_option("--values", values_, "Comma-separated values")->required();
    cmd->add_option("--model", model_, "Network model: loggp, packet or flow")
        ->capture_default_str();
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int SweepCommand::run() const
{
    std::vector<std::string> values;
    for (const std::string& given : values_)
        for (size_t at = 0;;) {
            const size_t comma = given.find(',', at);
            values.push_back(given.substr(at, comma == std::string::npos ? comma : comma - at));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
    for (const std::string& v : values)
        if (v.find_first_not_of(" \t") == std::string::npos)
            throw UsageError("--values: an empty value in '" + [&] {
                std::string all;
                for (const std::string& x : values)
                    all += (all.empty() ? "" : ",") + x;
                return all;
            }() + "' (give one value per comma, e.g. --values 1us,2us)");
    // The sweep as a replay scenario, answered by the what-if pipeline the GUI's sweeps use:
    // every point against one baseline replay, with its wait time.
    whatif::Scenario sc;
    sc.name = "sweep";
    sc.baselines = {trace_};
    sc.network = network_;
    sc.model = model_;
    sc.sweepParam = param_;
    sc.sweepValues = values;
    whatif::WhatIfInputs in;
    in.fileSpec = loadNetworkSpec(network_, set_);
    // Every value checked before the long part: a typo fails at once, naming the key.
    for (size_t i = 0; i < values.size(); ++i)
        (void)in.fileSpec.withOverrides(whatif::sweepPoint(sc, i).overrides);
    in.baselines = {std::make_shared<const Trace>(loadTrace(trace_, load_))};
    in.names = {trace_};
    whatif::WhatIfOptions options;
    options.threads = std::max(1u, std::thread::hardware_concurrency());
    const whatif::WhatIfResult result = whatif::runWhatIf(sc, in, options);
    for (const std::string& w : result.warnings)
        std::fprintf(stderr, "rankscope-cli: warning: %s\n", w.c_str());
    for (const whatif::WhatIfPoint& p : result.runs)
        if (!p.error.empty()) throw TraceError(param_ + "=" + p.value + ": " + p.error);
    std::vector<int64_t> runtime;
    for (const whatif::WhatIfPoint& p : result.runs)
        runtime.push_back(p.predicted.runNs);
    if (json_) {
        nlohmann::ordered_json j;
        j["param"] = param_;
        auto& rows = j["rows"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < values.size(); ++i) {
            const whatif::WhatIfPoint& p = result.runs[i];
            nlohmann::ordered_json row = {{"value", values[i]},
                                          {"predicted_runtime_ns", runtime[i]},
                                          {"mpi_ns", p.predicted.mpiNs}};
            row["wait_ns"] =
                p.waitNs ? nlohmann::ordered_json(*p.waitNs) : nlohmann::ordered_json();
            row["effect_ns"] =
                p.effectNs ? nlohmann::ordered_json(*p.effectNs) : nlohmann::ordered_json();
            row["effect_pct"] =
                p.effectPct ? nlohmann::ordered_json(*p.effectPct) : nlohmann::ordered_json();
            rows.push_back(row);
        }
        if (result.baseline)
            j["baseline"] = {{"runtime_ns", result.baseline->runNs},
                             {"mpi_ns", result.baseline->mpiNs}};
        printJson(j);
    } else if (csv_) {
        std::printf("value,predicted_runtime_ns,wait_ns\n");
        for (size_t i = 0; i < values.size(); ++i)
            std::printf("%s,%lld,%lld\n", csvField(values[i]).c_str(), (long long)runtime[i],
                        (long long)result.runs[i].waitNs.value_or(0));
    } else {
        std::printf("%-16s %-18s %s\n", param_.c_str(), "predicted run time", "wait time");
        for (size_t i = 0; i < values.size(); ++i)
            std::printf("%-16s %-18s %s\n", values[i].c_str(), durationText(runtime[i]).c_str(),
                        durationText(result.runs[i].waitNs.value_or(0)).c_str());
    }
    return kOk;
}

} // namespace rankscope::cli
