#include "app/cli/collectivecommand.h"

#include "app/cli/netsimoptions.h"
#include "whatif/netsim/simulation.h"
#include "whatif/netsim/units.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rankscope::cli {

CLI::App* CollectiveCommand::add(CLI::App& parent)
{
    CLI::App* cmd = parent.add_subcommand("collective",
                                          "Simulated time of one collective (compare algorithms)");
    cmd->add_option("--network", network_, "Network spec (YAML file, or a bundled spec's name)")
        ->required();
    cmd->add_option("--set", set_, "Override a spec value, e.g. links.wan.latency=5ms");
    cmd->add_option("--op", op_,
                    "bcast, reduce, allreduce, allgather, gather, scatter, "
                    "alltoall, reduce_scatter or barrier")
        ->required();
    cmd->add_option("--algorithm", algorithm_, "Algorithm, e.g. binomial")->required();
    cmd->add_option("--ranks", ranks_, "Ranks taking part")
        ->required()
        ->check(CLI::Range(1u, 1u << 24));
    cmd->add_option("--bytes", bytes_, "Size M, e.g. 1MiB")->required();
    cmd->add_option("--root", root_, "Root rank")->capture_default_str();
    cmd->add_option("--model", model_, "Network model: loggp, packet or flow")
        ->capture_default_str();
    addOutputFormats(cmd, json_);
    return cmd;
}

int CollectiveCommand::run() const
{
    const auto kind = netsim::collKindFromName(op_);
    if (!kind) throw UsageError("--op " + op_ + ": unknown collective");
    const auto bytes = netsim::parseBytes(bytes_);
    if (!bytes) throw UsageError("--bytes " + bytes_ + ": expected a size such as 1MiB or 4096");
    if (root_ >= ranks_) throw UsageError("--root must be below --ranks");
    const netsim::NetworkSpec spec = loadNetworkSpec(network_, set_);
    netsim::SimulationOptions options;
    options.model = model_;
    options.collectiveAlgorithms = {{op_, algorithm_}};
    const netsim::SimulationResult r = netsim::simulateProgram(
        netsim::singleCollectiveProgram(*kind, ranks_, root_, *bytes), spec, options);
    if (!json_) {
        std::printf("%s %s on %u ranks, %s: %s (%llu messages)\n", op_.c_str(), algorithm_.c_str(),
                    ranks_, bytesText(*bytes).c_str(), durationText(r.predictedRuntimeNs).c_str(),
                    (unsigned long long)r.messages);
        return kOk;
    }
    nlohmann::ordered_json j;
    j["op"] = op_;
    j["algorithm"] = algorithm_;
    j["ranks"] = ranks_;
    j["bytes"] = *bytes;
    j["time_ns"] = r.predictedRuntimeNs;
    j["messages"] = r.messages;
    j["model"] = r.model;
    printJson(j);
    return kOk;
}

} // namespace rankscope::cli
