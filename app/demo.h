#pragma once
// The demo session (resources/demo/demo.rsession): where it is, and the headless run that
// renders each view of its guided tour to PNG (`rankscope --demo --screenshot-dir DIR`).

#include <QSize>
#include <QString>

namespace rankscope {

class MainWindow;

namespace Demo {

/// The bundled demo session file, or empty when the resources are not found.
QString sessionPath();

/// Opens the demo session in `window` (non-interactive), does every step of the guided tour,
/// waiting for each run, and saves the window after each to `dir` as NN-name.png. Prints the
/// files written; errors go to stderr. Returns the process exit code.
int renderScreenshots(const QString& dir, QSize size);

} // namespace Demo

} // namespace rankscope
