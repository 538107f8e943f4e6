#pragma once
// `rankscope-cli extrapolate [--method auto|classic|rankscope] [--mode sum|interval] --target N
// [--measured TRACE] [--json] TRACE...`: predicts max_r S(r) and every interval's delta times at
// N ranks from traces at small scales (ALGORITHMS.md §3-§4), and compares with a measured run.
// `auto` (the default) scores classic (sum, interval) and Rankscope by held-out error.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::cli {

class ExtrapolateCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::vector<std::string> traces_;
    std::string method_ = "auto";
    std::string mode_; // empty: sum for classic, interval for rankscope
    int64_t target_ = 0;
    int bins_ = 20;
    std::string measured_;
    bool json_ = false;
    bool compare_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
