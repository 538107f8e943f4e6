#pragma once
// `rankscope-cli summarize TRACE -o RESULT.rsum`: writes the result summary of a trace (profile,
// intervals, wait states, root causes, timeline pyramids; importers/rsum), the file
// `rankscope-mpi analyse -o` writes on a cluster. `summarize RESULT.rsum --json` prints what a
// summary holds with the keys of `rankscope-mpi analyse --json`.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class SummarizeCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    std::string output_;
    bool json_ = false;
    uint64_t eagerLimit_ = 64 * 1024;
    double hotspotThreshold_ = 1.0;
    LoadOptions load_;
};

} // namespace rankscope::cli
