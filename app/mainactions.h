#pragma once
// The main window's commands: every QAction with its text, shortcuts, tooltip and icon, the
// menus of the menu bar (File > Open Recent filled from RecentFiles each time it opens) and the
// toolbar. It owns the actions and menus; MainWindow connects what each action does and tells
// it which are enabled (setTabState). Analysis > What If… and Help > Guided Tour are the toggle
// actions of the what-if and tour docks.
//
// Every shortcut is an application shortcut: it works wherever the focus is in the window, even
// before a window manager made the window active (keys typed into a field still go to the field,
// which claims them first).

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace rankscope {

class MainActions : public QObject
{
    Q_OBJECT
public:
    /// Creates the actions and fills `window`'s menu bar and toolbar; a child of `window`.
    MainActions(QMainWindow* window, QDockWidget* whatIfDock, QDockWidget* tourDock);

    // File
    QAction* open() const { return open_; }
    QAction* openFolder() const { return openFolder_; }
    QAction* loadRanks() const { return loadRanks_; }
    QAction* exportView() const { return export_; }
    /// Writes the current trace (as shown: corrected clocks included) as OTF2.
    QAction* exportTrace() const { return exportTrace_; }
    QAction* openSession() const { return openSession_; }
    QAction* saveSession() const { return saveSession_; }
    QAction* saveSessionAs() const { return saveSessionAs_; }
    QAction* closeTab() const { return closeTab_; }
    QAction* quit() const { return quit_; }
    // View: navigation of the current timeline
    QAction* zoomIn() const { return zoomIn_; }
    QAction* zoomOut() const { return zoomOut_; }
    QAction* fit() const { return fit_; }
    QAction* panLeft() const { return panLeft_; }
    QAction* panRight() const { return panRight_; }
    QAction* nextCall() const { return nextCall_; }
    QAction* previousCall() const { return previousCall_; }
    QAction* back() const { return back_; }
    QAction* forward() const { return forward_; }
    QAction* find() const { return find_; }
    QAction* findNext() const { return findNext_; }
    QAction* findPrevious() const { return findPrevious_; }
    QAction* goToTime() const { return goToTime_; }
    // View: options of every timeline (checkable), rank filter, comparison
    QAction* showMessages() const { return messages_; }
    QAction* showWaitStates() const { return waits_; }
    QAction* showCriticalPath() const { return criticalPath_; }
    QAction* orderByMpiTime() const { return rankOrder_; }
    QAction* filterRanks() const { return filter_; }
    QAction* compare() const { return compare_; }
    // Bookmarks (BookmarkController connects them and fills the menu each time it opens)
    /// Bookmarks the current trace tab's visible time range.
    QAction* addBookmark() const { return addBookmark_; }
    /// Checkable: the Bookmarks dock is shown.
    QAction* bookmarksPanel() const { return bookmarksPanel_; }
    QMenu* bookmarksMenu() const { return bookmarksMenu_; }
    // Analysis, Help
    QAction* extrapolate() const { return extrapolate_; }
    QAction* whatIf() const { return whatIf_; }
    /// Checkable: the current trace tab shows its trace with corrected clocks.
    QAction* correctClocks() const { return correctClocks_; }
    QAction* tour() const { return tour_; }
    QAction* shortcutSheet() const { return shortcuts_; }
    QAction* about() const { return about_; }
    /// Every action with a shortcut, in menu order (the shortcut sheet lists them).
    QList<QAction*> allActions() const;

    /// Enables the actions that need an open tab (`anyTab`), a trace in the current tab
    /// (Compare With) or `traces` >= 3 trace tabs (Extrapolate).
    void setTabState(bool anyTab, bool currentIsTrace, int traces);

signals:
    /// A trace of File > Open Recent was chosen.
    void recentChosen(const QString& path);

private:
    void createActions(QMainWindow* window, QDockWidget* whatIfDock, QDockWidget* tourDock);
    void createMenusAndToolbar(QMainWindow* window);
    void fillRecentMenu();

    QAction* open_ = nullptr;
    QAction* loadRanks_ = nullptr;
    QAction* openFolder_ = nullptr;
    QAction* export_ = nullptr;
    QAction* exportTrace_ = nullptr;
    QAction* correctClocks_ = nullptr;
    QAction* openSession_ = nullptr;
    QAction* saveSession_ = nullptr;
    QAction* saveSessionAs_ = nullptr;
    QAction* closeTab_ = nullptr;
    QAction* quit_ = nullptr;
    QAction* zoomIn_ = nullptr;
    QAction* zoomOut_ = nullptr;
    QAction* fit_ = nullptr;
    QAction* panLeft_ = nullptr;
    QAction* panRight_ = nullptr;
    QAction* nextCall_ = nullptr;
    QAction* previousCall_ = nullptr;
    QAction* back_ = nullptr;
    QAction* forward_ = nullptr;
    QAction* find_ = nullptr;
    QAction* findNext_ = nullptr;
    QAction* findPrevious_ = nullptr;
    QAction* goToTime_ = nullptr;
    QAction* shortcuts_ = nullptr;
    QAction* about_ = nullptr;
    QAction* messages_ = nullptr;
    QAction* waits_ = nullptr;
    QAction* criticalPath_ = nullptr;
    QAction* rankOrder_ = nullptr;
    QAction* filter_ = nullptr;
    QAction* compare_ = nullptr;
    QAction* addBookmark_ = nullptr;
    QAction* bookmarksPanel_ = nullptr;
    QMenu* bookmarksMenu_ = nullptr;
    QAction* extrapolate_ = nullptr;
    QAction* whatIf_ = nullptr;
    QAction* tour_ = nullptr;
    QMenu* recentMenu_ = nullptr;
};

} // namespace rankscope
