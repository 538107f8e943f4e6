#pragma once
// `rankscope-cli scenario run FILE [--json]`: answers the scenarios of a scenario or session
// file with the what-if pipeline (whatif/scenario/whatifpipeline.h), the call the GUI's what-if
// jobs make, and prints its result: for a replay the measured run, the baseline replay
// (unedited spec), the edited replay and the effect of the edit (edited - baseline), the
// baseline's calibration error apart; for a scale scenario the run synthesised at its target,
// its error against a measured run and the calibration used; for an extrapolation max_r S(r)
// of both methods. `--json` prints app/report/whatifjson.h's keys, as `rankscope --batch` does.

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
