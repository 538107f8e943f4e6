#pragma once
// `rankscope-cli pop TRACE... [--json|--csv] [--weak] [--allow-partial]`: the POP efficiency
// metrics of each run and, over the set, the scalability metrics against the run of fewest
// ranks (whatif/pop/popmetrics.h). Every number printed is a fraction (1.0 = 100 %) from
// pop::popMetrics; a metric that cannot be computed is absent and named in `missing`.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rankscope::cli {

class PopCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::vector<std::string> traces_;
    bool weak_ = false;
    bool json_ = false;
    bool csv_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
