#pragma once
// `rankscope-cli fit --method classic|rankscope --point N:VALUE ... --target N [--json]`: fits
// one series of timings (ALGORITHMS.md §3.2 or §4.2) and predicts it at the target scale. A
// point may carry a problem size as `N,S:VALUE` (Rankscope method; then `--target N,S`).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rankscope::cli {

class FitCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string method_ = "rankscope";
    std::vector<std::string> points_;
    std::string target_;
    bool json_ = false;
    bool compare_ = false;
};

} // namespace rankscope::cli
