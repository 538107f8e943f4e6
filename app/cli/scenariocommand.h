#pragma once
// `rankscope-cli scenario run FILE [--json]`: runs the scenarios of a scenario or session file
// as the what-if explorer does. For a replay: the measured run, the baseline replay (unedited
// spec), the edited replay and the effect of the edit (edited - baseline), with the baseline's
// calibration error apart (whatif/scenario/scenariorun.h). For a scale scenario: the run
// synthesised at its target and its predicted run time (whatif/scenario/scenarioexec.h). A
// replay with `engine: simgrid` is also replayed by both engines, as the what-if panel does
// (importers/simgrid/simgridengine.h): both predicted run times, the difference, wall-clocks.

#include "app/cli/clicommon.h"
#include "whatif/scenario/scenario.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace rankscope::cli {

class ScenarioCommand
{
public:
    CLI::App* add(CLI::App& parent);
    int run() const;

private:
    /// Runs a scale scenario: prints it, or adds its JSON object to `all`.
    void runScale(const whatif::Scenario& s, nlohmann::ordered_json& all) const;

    CLI::App* run_ = nullptr;
    std::string file_;
    bool json_ = false;
    LoadOptions load_;
};

} // namespace rankscope::cli
