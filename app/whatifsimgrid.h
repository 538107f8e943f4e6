#pragma once
// The SimGrid engine in the what-if flow (a replay scenario whose engine is "simgrid"): the
// what-if pipeline replays the edited spec with both engines (whatif/netsim/peerengine.h,
// importers/simgrid/simgridpeer.h) and the job analyses SimGrid's predicted trace like a loaded
// one. The controller then opens that trace as a tab next to Rankscope's result and shows both
// run times, their difference and both wall-clocks in the result's Summary.

#include "app/whatifjob.h"
#include "views/whatif/whatifcomparison.h"

#include <QString>

namespace rankscope {

class MainWindow;

/// The figures the Summary shows for `out` (empty without a SimGrid run).
std::optional<WhatIfComparison::Engines> enginesOf(const WhatIfOutcome& out);

/// Opens out.simgridResult as a tab right after tab `after` ("SimGrid: <scenario>"), with
/// `scenarioProperty` set to the scenario's name so a re-run replaces it; returns its index, or
/// -1 when there is nothing to open.
int openSimGridTab(MainWindow* window, const WhatIfOutcome& out, int after,
                   const char* scenarioProperty);

} // namespace rankscope
