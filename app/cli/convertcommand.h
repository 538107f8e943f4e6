#pragma once
// `rankscope-cli convert IN -o OUT [--to otf2|chrome]`: reads a trace and writes it as an OTF2
// archive (a folder, the default) or as Chrome trace-event JSON (for the Perfetto UI and
// chrome://tracing; chosen by --to chrome or an OUT ending in .json).

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
    std::string to_;
    LoadOptions load_;
};

} // namespace rankscope::cli
