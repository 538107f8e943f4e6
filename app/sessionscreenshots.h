#pragma once
// `rankscope --session FILE --screenshot-dir DIR`: opens the session in a window of a given size
// (offscreen when there is no display), waits until its traces have loaded and its result tabs
// have been run again, and saves the window once per tab as DIR/NN-<tab>.png (a replay result
// once more with its network pane shown, DIR/NN-<tab>-network.png). A display-less
// check that a session comes back whole.

#include <QSize>
#include <QString>

namespace rankscope {
class MainWindow;
}

namespace rankscope::SessionScreenshots {

/// Makes `dir`, opens `session` in `window` (not interactive, of `size`, shown) and waits up to
/// `seconds` for its traces and results to come back. Errors the window reports are printed and
/// counted in `*errors` (which must outlive the window). False, with the reason printed
/// (`timeoutText` when the wait ran out), when the folder, the session or the wait failed.
bool openForScreenshots(MainWindow& window, const QString& session, const QString& dir, QSize size,
                        int seconds, const QString& timeoutText, int* errors);

/// Prints "rankscope: MESSAGE" on stderr.
void printError(const QString& message);

/// Returns the process exit code: 0 when every tab was written and nothing was reported, 1
/// otherwise (the reasons are printed on stderr). Prints the files written.
int render(const QString& session, const QString& dir, QSize size);

/// A file name for tab `index` titled `title`: "03-what-if-wan-20-ms.png".
QString fileName(int index, const QString& title);

} // namespace rankscope::SessionScreenshots
