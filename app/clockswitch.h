#pragma once
// Analysis > Correct Clocks and File > Export Trace as OTF2 for the main window's trace tabs.
//
// Correcting the clocks runs as a TraceLoader job (off the GUI thread, in the status bar's
// progress with its Cancel): a copy of the open trace gets the controlled logical clock
// (model/matching/clockcorrection.h, default options as `--correct-clocks`) and the whole
// analysis again; the tab's document is then replaced by one over the corrected trace, so every
// view (timeline, profile, waits, critical path, matrix, messages, metrics) shows it. The
// document keeps the trace as loaded, so unchecking switches back at once. The check mark
// follows the current tab.
//
// Exporting writes the current tab's trace, corrected or not, with writeOtf2 in the background
// (a progress dialog with Cancel when interactive).

#include <QObject>
#include <QString>

namespace rankscope {

class BackgroundJob;

class MainWindow;
struct LoadedTrace;

class ClockSwitch : public QObject
{
    Q_OBJECT
public:
    /// Connects the actions of `window` (a child of it).
    explicit ClockSwitch(MainWindow* window);

    /// Starts correcting the clocks of the trace in tab `tab` (on), or shows it as loaded
    /// again (off). False when the tab holds no trace or it already is in that state.
    bool setCorrected(int tab, bool on);
    /// A correction job finished: replaces the document of its trace (if still open).
    void corrected(const LoadedTrace& trace);
    /// Writes the trace of tab `tab` as an OTF2 archive in `dir`, in the background;
    /// exported() follows. False (nothing started) when the tab holds no trace.
    bool exportTrace(int tab, const QString& dir);

signals:
    /// An export finished: `error` is empty on success.
    void exported(const QString& dir, const QString& error);

private:
    void replace(int tab, const LoadedTrace& data);
    void syncAction();
    void chooseAndExport();

    MainWindow* window_;
    BackgroundJob* exports_ = nullptr; ///< the OTF2 export (one at a time)
    QString exportDir_;                ///< where the running export writes
};

} // namespace rankscope
