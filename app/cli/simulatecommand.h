#pragma once
// `rankscope-cli simulate TRACE --network SPEC [--set KEY=VALUE]... [--model M]
// [--collective OP=ALG]... [--cpu-factor X] [-o OUT] [--links-csv FILE]
// [--engine rankscope|simgrid] [--simgrid-dir DIR] [--json]`: replays a trace on a described
// network (ALGORITHMS.md §7) and prints the predicted run time; -o writes the simulated trace.
// With --json, --links-csv or -o it also collects what the network did
// (whatif/netsim/linkstats.h): per-link figures and each message's contention delay.
// --engine simgrid replays it with SimGrid as well and compares (simgridengine.h).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rankscope::cli {

class SimulateCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    std::string network_;
    std::vector<std::string> set_;
    std::string model_ = "loggp";
    std::vector<std::string> collectives_;
    double cpuFactor_ = 1.0;
    std::string out_;
    std::string engine_ = "rankscope";
    std::string simgridDir_;
    std::string linksCsv_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
