#pragma once
// `rankscope-cli compare A B [--json]`: what the comparison view shows for two runs (for
// example measured and predicted): run time over the span (end of MPI_Init to end of
// MPI_Finalize), MPI, computation and wait time per pattern, and the differences B - A.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>

namespace rankscope::cli {

class CompareCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string a_, b_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
