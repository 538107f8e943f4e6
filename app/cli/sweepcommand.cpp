#include "app/cli/sweepcommand.h"

#include "app/cli/netsimoptions.h"
#include "whatif/netsim/simulation.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
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
    cmd->add_option("--values", values_, "Comma-separated values")->required()->delimiter(',');
    cmd->add_option("--model", model_, "Network model: loggp, packet or flow")
        ->capture_default_str();
    addOutputFormats(cmd, json_, &csv_);
    return cmd;
}

int SweepCommand::run() const
{
    for (const std::string& v : values_)
        if (v.find_first_not_of(" \t") == std::string::npos)
            throw UsageError("--values: an empty value in '" + [&] {
                std::string all;
                for (const std::string& x : values_)
                    all += (all.empty() ? "" : ",") + x;
                return all;
            }() + "' (give one value per comma, e.g. --values 1us,2us)");
    const netsim::NetworkSpec base = loadNetworkSpec(network_, set_);
    // Check every value before the long part: a typo fails at once, naming the key.
    std::vector<netsim::NetworkSpec> specs;
    for (const std::string& v : values_)
        specs.push_back(base.withOverrides({{param_, v}}));
    const Trace trace = loadTrace(trace_, load_);
    netsim::SimulationOptions options;
    options.model = model_;

    std::vector<int64_t> runtime(specs.size(), 0);
    std::vector<std::exception_ptr> errors(specs.size());
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < specs.size();) {
            try {
                runtime[i] = netsim::simulate(trace, specs[i], options).predictedRuntimeNs;
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const unsigned threads = std::max(
        1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(specs.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);

    if (json_) {
        nlohmann::ordered_json j;
        j["param"] = param_;
        auto& rows = j["rows"] = nlohmann::ordered_json::array();
        for (size_t i = 0; i < values_.size(); ++i)
            rows.push_back({{"value", values_[i]}, {"predicted_runtime_ns", runtime[i]}});
        printJson(j);
    } else if (csv_) {
        std::printf("value,predicted_runtime_ns\n");
        for (size_t i = 0; i < values_.size(); ++i)
            std::printf("%s,%lld\n", csvField(values_[i]).c_str(), (long long)runtime[i]);
    } else {
        std::printf("%-16s %s\n", param_.c_str(), "predicted run time");
        for (size_t i = 0; i < values_.size(); ++i)
            std::printf("%-16s %s\n", values_[i].c_str(), durationText(runtime[i]).c_str());
    }
    return kOk;
}

} // namespace rankscope::cli
