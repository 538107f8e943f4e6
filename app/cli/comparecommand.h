#pragma once
// `rankscope-cli compare A B [--json]`: what the comparison view shows for two runs (for
// example measured and predicted): run time over the span (end of MPI_Init to end of
// MPI_Finalize), MPI, computation and wait time per pattern, and the differences B - A.
// With --histogram it also prints the delta-time histograms the view overlays for one
// execution interval (--interval, default all) and one rank (--rank, default all), A first:
// the same model/analysis/comparisondata selection and binning as the Delta times pane.

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
    bool histogram_ = false;
    std::string interval_;
    int rank_ = -1;
    int bins_ = 20;
    LoadOptions load_;
};

} // namespace rankscope::cli
