#pragma once
// `rankscope-cli sweep TRACE --network SPEC --param KEY --values V1,V2,... [--json|--csv]`: the
// predicted run time for each value of one spec key (values run in parallel; rows in order).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rankscope::cli {

class SweepCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    std::string network_;
    std::vector<std::string> set_;
    std::string param_;
    std::vector<std::string> values_;
    std::string model_ = "loggp";
    bool json_ = false;
    bool csv_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
