#pragma once
// `rankscope --batch SCENARIO.yaml [--json]`: runs the scenarios of a scenario or session file
// through the GUI's own what-if controller and job (offscreen, no window shown), as a user's
// Run would, and prints the what-if pipeline's answer with the keys `rankscope-cli scenario run
// --json` prints (app/report/whatifjson.h), so the two can be compared number for number.
// Without --json it prints one line per scenario. Exit 0 when every scenario ran, 1 when one
// failed (its message on stderr), 2 when the file cannot be read.

#include <QString>

namespace rankscope {

int runBatch(const QString& scenarioFile, bool json);

} // namespace rankscope
