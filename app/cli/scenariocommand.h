#pragma once
// `rankscope-cli scenario run FILE [--json]`: runs the replay scenarios of a scenario or
// session file as the what-if explorer does, and prints for each the measured run, the
// baseline replay (unedited spec), the edited replay and the effect of the edit (edited -
// baseline), with the baseline's calibration error apart (whatif/scenario/scenariorun.h).
// Scale scenarios are skipped with a note (a file with nothing else is an error).

#include "app/cli/clicommon.h"

#include <CLI/CLI.hpp>

#include <string>

namespace rankscope::cli {

class ScenarioCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    CLI::App* run_ = nullptr;
    std::string file_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
