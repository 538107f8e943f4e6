#pragma once
// `rankscope-cli scaling TRACE... [--target N] [--json] [--allow-partial]`: which code stops
// scaling: every region's exclusive time per rank and every send call site's messages and bytes
// per rank at each scale, fitted and predicted at the target (whatif/pop/regionscaling.h);
// listed by growth, or with --target by the prediction there (those not falling first).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::cli {

class ScalingCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::vector<std::string> traces_;
    int64_t target_ = 0;
    size_t top_ = 20;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
