#pragma once
// `rankscope-cli commmatrix TRACE [--metric count|bytes|time] [--from T --to T] [--collectives]
// [--json|--csv]`: the communication matrix (sender rank x receiver rank: message count, bytes,
// mean and max transfer time), over the whole run or a time window.

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>
#include <string>

namespace rankscope::cli {

class CommMatrixCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    std::string trace_;
    std::string metric_ = "count";
    std::string from_;
    std::string to_;
    bool collectives_ = false;
    bool json_ = false;
    bool csv_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
