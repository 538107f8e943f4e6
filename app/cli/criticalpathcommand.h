#pragma once
// `rankscope-cli criticalpath TRACE [--eager-limit BYTES] [--json]`: the critical path (Scalasca's
// and CASITA's, model/waits/criticalpath.h): its length, its segments (rank, time span, region)
// and the critical-path profile per function with the critical-path imbalance.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace rankscope::cli {

class CriticalPathCommand
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
