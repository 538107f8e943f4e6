#pragma once
// The Bookmarks dock's contents: the current trace tab's bookmarks as a list (name, and the
// range as its length and start), and buttons to add, rename, delete, undo and redo. A double-click
// or Enter jumps to a bookmark; F2 (or a click on a selected name) renames it in place; Delete
// deletes it. Nothing is confirmed: every change is one step of the controller's undo stack
// (Ctrl+Z / Ctrl+Shift+Z inside the panel). The panel only shows and asks; BookmarkController
// (app/bookmarkcontroller.h) changes the bookmarks.

#include "app/bookmark.h"

#include <QWidget>
#include <vector>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QToolButton;
class QUndoStack;

namespace rankscope {

class BookmarkPanel : public QWidget
{
    Q_OBJECT
public:
    /// Undo and redo act on `undo`.
    explicit BookmarkPanel(QUndoStack* undo, QWidget* parent = nullptr);

    /// Shows `bookmarks`; `traceTab` false: the current tab is no trace (the list is empty and
    /// says so).
    void setBookmarks(const std::vector<Bookmark>& bookmarks, bool traceTab);
    /// One row per bookmark: its name (editable) and its range.
    QTreeWidget* list() const { return list_; }
    /// The selected bookmark's index, -1 when none.
    int currentIndex() const;
    void setCurrentIndex(int index);

signals:
    void addRequested();
    void jumpRequested(int index);
    void renameRequested(int index, const QString& name);
    void deleteRequested(int index);

private:
    void onItemChanged(QTreeWidgetItem* item, int column);
    void updateButtons();

    QTreeWidget* list_;
    QLabel* hint_;
    QToolButton* add_;
    QToolButton* rename_;
    QToolButton* delete_;
    bool filling_ = false; ///< itemChanged while the list is being filled is no rename
};

} // namespace rankscope
