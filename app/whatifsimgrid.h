#pragma once
// The SimGrid engine in the what-if flow (a replay scenario whose engine is "simgrid"): after
// Rankscope's run of the scenario, the worker replays the same edited spec with both engines
// (importers/simgrid/simgridengine.h: Rankscope's replay and SimGrid's `smpirun -replay`) and
// analyses SimGrid's predicted trace like a loaded one. The controller then opens that trace as
// a tab next to Rankscope's result and shows both run times, their difference and both
// wall-clocks in the result's Summary.

#include "app/whatifjob.h"
#include "model/support/progressreporter.h"
#include "views/whatif/whatifcomparison.h"

#include <QString>

namespace rankscope {

class MainWindow;

/// Runs both engines on request's scenario (off the GUI thread): fills out.simgrid and
/// out.simgridResult, or out.simgridError (smpirun missing or failing: the message says why,
/// with the tail of smpirun's output), or out.cancelled when `keepGoing` returns false (smpirun
/// is then killed and its temporary folder removed).
void runSimGridSide(const WhatIfRequest& request, WhatIfOutcome& out,
                    const ProgressCallback& keepGoing);

/// The figures the Summary shows for `out` (empty without a SimGrid run).
std::optional<WhatIfComparison::Engines> enginesOf(const WhatIfOutcome& out);

/// Opens out.simgridResult as a tab right after tab `after` ("SimGrid: <scenario>"), with
/// `scenarioProperty` set to the scenario's name so a re-run replaces it; returns its index, or
/// -1 when there is nothing to open.
int openSimGridTab(MainWindow* window, const WhatIfOutcome& out, int after,
                   const char* scenarioProperty);

} // namespace rankscope
