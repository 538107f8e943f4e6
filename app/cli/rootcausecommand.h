#pragma once
// `rankscope-cli rootcause TRACE [--hotspot-threshold PCT] [--eager-limit BYTES] [--json]`: the
// hotspot functions that made late ranks late (ALGORITHMS.md §6.4, H-CWP-DM): per function the
// waiting it explains ("balancing X would remove up to Y% of the waiting"), per call site, and
// per function and rank.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace rankscope::cli {

class RootCauseCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    double hotspotThreshold_ = 1.0;
    uint64_t eagerLimit_ = 64 * 1024;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
