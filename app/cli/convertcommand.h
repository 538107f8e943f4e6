#pragma once
// `rankscope-cli convert IN -o OUT`: reads a trace and writes it as an OTF2 archive.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

namespace rankscope::cli {

class ConvertCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string input_;
    std::string output_;
    LoadOptions load_;
};

} // namespace rankscope::cli
