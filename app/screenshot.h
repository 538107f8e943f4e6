#pragma once
// `rankscope --screenshot OUT.png`: opens traces in a main window of a given size (loading them
// the normal background way and waiting), optionally stacks the first two in a comparison,
// renders the window and saves it as PNG. Works offscreen, for the demo, CI and docs.

#include <QSize>
#include <QString>
#include <QStringList>

namespace rankscope {

struct ScreenshotRequest
{
    QString output;
    QSize size{1600, 1000};
    bool compare = false;
    QStringList traces;
    /// The pane under the timeline: "profile" (default), "waits", "causes", "matrix",
    /// "calltree", "criticalpath", "metrics" or "messages"; waits and causes select their
    /// first row, so the timeline shows that wait or cause; matrix shows mean transfer times and
    /// clicks the slowest cell, so the timeline highlights its messages; criticalpath draws the
    /// critical path.
    QString pane = QStringLiteral("profile");
    /// Corrects the clocks of each trace first (Analysis > Correct Clocks).
    bool correctClocks = false;
};

class Screenshot
{
public:
    /// Returns the process exit code: 0 saved, 1 failed (the reason is printed on stderr).
    static int run(const ScreenshotRequest& request);
};

} // namespace rankscope
