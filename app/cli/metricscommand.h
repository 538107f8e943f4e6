#pragma once
// `rankscope-cli metrics TRACE [--json|--csv]`: the trace's metrics (hardware counters such as
// PAPI's), each with its samples and total per rank, and the counter delta per region: calls,
// inclusive and exclusive totals, mean, least and most per call, and the totals per rank
// (model/metrics/metricprofile.h).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>

namespace rankscope::cli {

class MetricsCommand
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
