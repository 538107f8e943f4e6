#pragma once
// `rankscope-cli profile TRACE [--tree] [--json|--csv]`: regions by exclusive time, with calls,
// inclusive and exclusive time, and their min / mean / max over ranks; MPI time per rank. With
// --tree, the call-path profile (Cube's call tree, model/profile/calltree.h) instead.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class ProfileCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    int runTree(const Trace& trace) const;

    std::string trace_;
    bool json_ = false;
    bool csv_ = false;
    bool tree_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
