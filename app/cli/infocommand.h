#pragma once
// `rankscope-cli info TRACE [--json]`: ranks, events, duration, regions, MPI call counts,
// messages, collectives, unmatched messages.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class InfoCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
