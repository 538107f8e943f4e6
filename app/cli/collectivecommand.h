#pragma once
// `rankscope-cli collective --network SPEC --op OP --algorithm ALG --ranks P --bytes M [--json]`:
// the simulated time of one collective, for quick algorithm comparisons.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::cli {

class CollectiveCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string network_;
    std::vector<std::string> set_;
    std::string op_;
    std::string algorithm_;
    uint32_t ranks_ = 0;
    std::string bytes_;
    uint32_t root_ = 0;
    std::string model_ = "loggp";
    bool json_ = false;
};

} // namespace rankscope::cli
