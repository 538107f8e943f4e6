#pragma once
// The guided tour of the demo session. It owns the tour's steps (titles and texts) and what
// "Show me" does for each; the tour panel and its dock belong to the main window. Each step
// finds what it needs by kind (the trace with the most late-sender waiting, the first scale
// scenario, the first replay, the first sweep), so the tour also works on a session a teacher
// made with other traces.

#include <QObject>

namespace rankscope {

class MainWindow;

class DemoTour : public QObject
{
    Q_OBJECT
public:
    /// Drives `window`'s tour panel, tabs and what-if panel; a child of `window`.
    explicit DemoTour(MainWindow* window);

    /// Sets the tour panel's steps (when it has none yet) and shows the tour dock.
    void start();
    /// Does step `step` (the tour panel's "Show me"); reports what is missing for it.
    void doStep(int step);

private:
    MainWindow* window_;
};

} // namespace rankscope
