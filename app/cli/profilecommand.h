#pragma once
// `rankscope-cli profile TRACE [--json]`: regions by exclusive time, with calls, inclusive and
// exclusive time, and their min / mean / max over ranks; MPI time per rank.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class ProfileCommand
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
