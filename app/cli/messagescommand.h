#pragma once
// `rankscope-cli messages TRACE [--json|--csv]`: message statistics, histograms of message size,
// transfer time and bandwidth over all messages and per call site and communicator.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>

namespace rankscope::cli {

class MessagesCommand
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
