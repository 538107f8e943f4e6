#pragma once
// `rankscope-cli waitstates TRACE [--eager-limit BYTES] [--json]`: wait states (ALGORITHMS.md
// §6.1-6.3, Scalasca's pattern names): totals per pattern, direct and indirect, per rank and per
// call site.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace rankscope::cli {

class WaitStatesCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    uint64_t eagerLimit_ = 64 * 1024;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
