#pragma once
// `rankscope-cli intervals TRACE [--json|--csv]`: per execution interval the occurrences and the
// total, mean, min and max delta time (ALGORITHMS.md §1), and the per-rank delta sums S(r).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class IntervalsCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    bool json_ = false;
    bool csv_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
