#pragma once
// `rankscope-cli calibrate TRACE --network SPEC [--set KEY=VALUE]... [--model M] [-o OUT.yaml]
// [--json]`: fits the spec's latencies, bandwidths and overheads to what the trace measured
// (whatif/netsim/calibration.h) and prints each parameter before and after, with the replay's
// error against the measured run before and after; -o writes the calibrated spec.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rankscope::cli {

class CalibrateCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    std::string network_;
    std::vector<std::string> set_;
    std::string model_ = "loggp";
    std::string placement_ = "auto";
    std::string out_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
