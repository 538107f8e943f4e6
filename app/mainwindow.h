#pragma once
// The application window: a tab per open trace (or comparison), menus and toolbar with
// shortcuts for everything frequent, a status bar with the current trace's headline numbers
// and, while traces load in the background, a progress bar and a Cancel button.
//
// It owns the window, its tabs, docks and status bar, and wires the parts together: the
// actions, menus and toolbar are MainActions (app/mainactions.h), session files and the
// autosave SessionController (app/sessioncontroller.h), the guided tour's steps DemoTour
// (app/demotour.h), the what-if dock WhatIfController.
//
// Errors never throw out of here: they are reported through errorReported() and, when
// interactive, a non-modal message box naming the file.

#include "app/loadedtrace.h"
#include "app/session.h"
#include "app/sessioncontroller.h"

#include <QMainWindow>
#include <QStringList>
#include <map>

class QLabel;
class QProgressBar;
class QTabWidget;
class QUrl;
class QToolButton;
class QDockWidget;

namespace rankscope {

class LoadErrorBox;

class BookmarkController;
class ClockSwitch;
class ComparisonView;
class ExtrapolateDialog;
class ExtrapolationJob;
class ExtrapolationView;
class DemoTour;
class MainActions;
class TimelineView;
class TraceDocument;
class TraceLoader;
class TourPanel;
class WhatIfController;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Starts loading `path` (an OTF2 anchor file or its folder). Returns false, after
    /// reporting why, when it clearly is not a trace (missing, or a file not named *.otf2).
    bool openTrace(const QString& path);
    void openTraces(const QStringList& paths);
    /// Opens dropped URLs: local files and folders as traces; anything else is reported.
    void openUrls(const QList<QUrl>& urls);
    /// Adds a tab comparing the traces of document tabs `first` (top) and `second`.
    bool compareTabs(int first, int second);
    /// Saves the current tab's view as PNG or SVG (by suffix).
    bool exportCurrentView(const QString& path, QString* error = nullptr);

    /// Non-interactive (screenshots, scripts): no message boxes, no recent-files updates, no
    /// autosave.
    void setInteractive(bool interactive);
    bool isInteractive() const { return interactive_; }
    bool isLoading() const;
    TraceLoader* loader() const { return loader_; }
    QTabWidget* tabs() const { return tabs_; }
    /// The actions of the menus and toolbar.
    MainActions* actions() const { return actions_; }
    /// Analysis > Correct Clocks and File > Export Trace as OTF2 (app/clockswitch.h).
    ClockSwitch* clockSwitch() const { return clockSwitch_; }
    TraceDocument* document(int tab) const;
    ComparisonView* comparison(int tab) const;
    ExtrapolationView* extrapolation(int tab) const;
    ExtrapolationJob* extrapolationJob() const { return extrapolationJob_; }
    /// Opens the non-modal "Extrapolate…" dialog over the open traces and returns it.
    ExtrapolateDialog* showExtrapolateDialog();
    /// The headline shown in the status bar for the current tab.
    QString statusText() const;

    /// The what-if dock, its job, scenarios and result tabs.
    WhatIfController* whatIf() const { return whatIf_; }
    TourPanel* tour() const { return tour_; }
    QDockWidget* tourDock() const { return tourDock_; }
    /// Reports an error: errorReported(), and a non-modal message box when interactive.
    void reportError(const QString& title, const QString& message);
    /// Applies the View menu's options (messages, wait states, rank order) to `view`.
    void applyViewOptions(TimelineView* view) const;

    /// Bookmarks of time ranges: their dock, menu and undo stack (app/bookmarkcontroller.h).
    BookmarkController* bookmarks() const { return bookmarks_; }
    /// The timeline that view actions act on (the focused one in a comparison).
    TimelineView* currentTimeline() const;

    /// Session files and the autosave (app/sessioncontroller.h); the calls below forward to it.
    SessionController* sessions() const { return session_; }
    /// The session as it is now: open traces, scenarios, result tabs, view state.
    Session session() const { return session_->session(); }
    /// Opens a session file: its traces load in the background; comparisons, result tabs,
    /// visible ranges and the current tab are restored once they have. Returns false (after
    /// reporting why) when the file cannot be read.
    bool openSession(const QString& path) { return session_->openSession(path); }
    /// Restores `session` (see openSession); sessionRestored() follows.
    void restoreSession(const Session& session) { session_->restoreSession(session); }
    /// Writes the session to `path` (atomically); false after reporting why.
    bool saveSession(const QString& path) { return session_->saveSession(path); }
    QString sessionPath() const { return session_->sessionPath(); }
    /// This window's own autosave (app/autosave.h): the session written every 15 s and on
    /// each scenario change, so a crash loses nothing; removed on a clean exit. Empty until
    /// the first write.
    QString autosavePath() const { return session_->autosavePath(); }
    /// Writes the autosave now (when anything changed since the last one).
    void autosave() { session_->autosave(); }
    /// Claims the autosaves of instances that did not exit cleanly, newest first.
    QStringList claimCrashedSessions() { return session_->claimCrashedSessions(); }
    /// Restores a claimed autosave; it is deleted once this window has autosaved what it
    /// restored. False (the file kept) after reporting why it cannot be read.
    bool recoverSession(const QString& autosaveFile)
    {
        return session_->recoverSession(autosaveFile);
    }
    /// Offers each crashed instance's autosave back: restore, discard or keep for later.
    void offerCrashedSessions() { session_->offerCrashedSessions(); }
    /// Sets the tour's steps for the demo session and shows it (DemoTour::start).
    void startDemoTour();
    /// Does step `step` of the demo tour (tourpanel "Show me"; DemoTour::doStep).
    void doTourStep(int step);

signals:
    void errorReported(const QString& title, const QString& message);
    void traceOpened(const QString& path);
    /// A trace tab was opened or closed.
    void tracesChanged();
    /// A session's traces have loaded and its view state is restored.
    void sessionRestored();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// Connects the actions of MainActions to what they do here.
    void connectActions();
    void createStatusBar();
    void onLoaded(const LoadedTrace& trace);
    void onProgress(double fraction);
    void onCurrentTabChanged();
    void closeTab(int index);
    void chooseAndOpen();
    void chooseAndExport();
    void chooseComparison();
    std::vector<TimelineView*> allTimelines() const;
    void updateActions();

    TraceLoader* loader_;
    QTabWidget* tabs_;
    QLabel* traceLabel_ = nullptr;
    QLabel* emptyHint_ = nullptr; ///< the centre of a window without tabs
    QLabel* loadLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;
    bool interactive_ = true;
    LoadErrorBox* loadErrors_ = nullptr;
    std::map<QString, quint64> openOrder_; ///< pending loads: absolute path -> order asked for
    quint64 nextOpenOrder_ = 0;

    MainActions* actions_ = nullptr;
    ClockSwitch* clockSwitch_ = nullptr;
    ExtrapolationJob* extrapolationJob_;
    WhatIfController* whatIf_ = nullptr;
    TourPanel* tour_ = nullptr;
    QDockWidget* tourDock_ = nullptr;
    DemoTour* demoTour_ = nullptr;
    SessionController* session_ = nullptr;
    BookmarkController* bookmarks_ = nullptr;
};

} // namespace rankscope
