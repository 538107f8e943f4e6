#pragma once
// Bookmarks of time ranges, per trace tab: Bookmarks > Add Bookmark (Ctrl+B) keeps the current
// trace tab's visible range under a name ("Bookmark 3", renamed in place); the Bookmarks dock
// (Ctrl+Shift+B) and menu list the current trace's bookmarks, and choosing one shows its range
// as a step of the timeline's zoom history (Back returns). Adding, renaming and deleting are
// never confirmed: each is one step of an undo stack instead. Session files keep the bookmarks
// (app/session.h); the trace tabs hold them (TraceDocument::bookmarks).
//
// It owns the dock, its panel (app/bookmarkpanel.h) and the undo stack, and connects the
// Bookmarks actions of MainActions.

#include "app/bookmark.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QDockWidget;
class QUndoStack;

namespace rankscope {

class BookmarkPanel;
class MainWindow;
class TraceDocument;

class BookmarkController : public QObject
{
    Q_OBJECT
public:
    /// Adds the Bookmarks dock to `window` (hidden) and serves its Bookmarks actions; a child of
    /// `window`. Needs the window's actions and session controller.
    explicit BookmarkController(MainWindow* window);

    QDockWidget* dock() const { return dock_; }
    BookmarkPanel* panel() const { return panel_; }
    QUndoStack* undoStack() const { return undo_; }
    /// The document of the current tab when it is a trace tab.
    TraceDocument* currentDocument() const;

    /// Bookmarks `doc`'s visible time range as "Bookmark N" (N one more than the highest such
    /// number so far); its index, or -1 when `doc` is null or shows nothing yet.
    int addVisibleRange(TraceDocument* doc);
    /// Renames bookmark `index` of `doc`; false (nothing changes) for an empty name or index.
    bool rename(TraceDocument* doc, int index, const QString& name);
    bool remove(TraceDocument* doc, int index);
    /// Shows bookmark `index` of `doc` on its timeline, one step of its zoom history. The
    /// timeline takes the focus unless `keepFocus` (a jump from the Bookmarks panel, whose list
    /// keeps it: F2 then renames the bookmark, and the keys typed go to its name).
    bool jump(TraceDocument* doc, int index, bool keepFocus = false);

signals:
    /// A bookmark was added, renamed or deleted (or such a change undone / redone).
    void changed();

private:
    /// Replaces `doc`'s bookmarks with `after` as one undo step named `text`.
    void change(TraceDocument* doc, std::vector<Bookmark> after, const QString& text);
    void refresh();
    void fillMenu();
    void tracesChanged();
    /// jump() for the document that sent TraceDocument::bookmarkActivated.
    void jumpInSender(int index);

    MainWindow* window_;
    QUndoStack* undo_;
    QDockWidget* dock_;
    BookmarkPanel* panel_;
    QList<QPointer<TraceDocument>> watched_; ///< documents the undo stack has steps of
};

} // namespace rankscope
