#include "app/bookmarkcontroller.h"

#include "app/bookmarkpanel.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "views/panes/durationformat.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoCommand>
#include <QUndoStack>

namespace rankscope {

namespace {

/// One change of one document's bookmarks: the lists before and after. A command whose
/// document was closed does nothing (the stack is cleared when that happens anyway).
class SetBookmarks : public QUndoCommand
{
public:
    SetBookmarks(TraceDocument* doc, std::vector<Bookmark> before, std::vector<Bookmark> after,
                 const QString& text, BookmarkController* owner)
        : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)),
          owner_(owner)
    {
    }
    void redo() override { apply(after_); }
    void undo() override { apply(before_); }

private:
    void apply(const std::vector<Bookmark>& list)
    {
        if (!doc_) return;
        doc_->setBookmarks(list);
        emit owner_->changed();
    }
    QPointer<TraceDocument> doc_;
    std::vector<Bookmark> before_, after_;
    BookmarkController* owner_;
};

QString rangeText(const Bookmark& b)
{
    return QObject::tr("%1 at %2")
        .arg(formatDuration(b.end - b.begin), formatTimestamp(int64_t(b.begin)));
}

} // namespace

BookmarkController::BookmarkController(MainWindow* window)
    : QObject(window), window_(window), undo_(new QUndoStack(this)),
      dock_(new QDockWidget(tr("Bookmarks"), window)), panel_(new BookmarkPanel(undo_, dock_))
{
    dock_->setObjectName(QStringLiteral("bookmarksDock"));
    dock_->setWidget(panel_);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();

    const MainActions* a = window->actions();
    connect(a->addBookmark(), &QAction::triggered, this,
            [this] { addVisibleRange(currentDocument()); });
    connect(a->bookmarksPanel(), &QAction::toggled, dock_, &QDockWidget::setVisible);
    // The action itself, not the window: the dock also hides while the window is destroyed.
    QAction* panelAction = a->bookmarksPanel();
    connect(dock_, &QDockWidget::visibilityChanged, panelAction,
            [this, panelAction] { panelAction->setChecked(!dock_->isHidden()); });
    connect(a->bookmarksMenu(), &QMenu::aboutToShow, this, &BookmarkController::fillMenu);

    connect(panel_, &BookmarkPanel::addRequested, this,
            [this] { addVisibleRange(currentDocument()); });
    connect(panel_, &BookmarkPanel::jumpRequested, this,
            [this](int i) { jump(currentDocument(), i, true); });
    connect(panel_, &BookmarkPanel::deleteRequested, this,
            [this](int i) { remove(currentDocument(), i); });
    connect(panel_, &BookmarkPanel::renameRequested, this, [this](int i, const QString& name) {
        if (!rename(currentDocument(), i, name)) refresh(); // the old name back in the list
    });

    connect(window->tabs(), &QTabWidget::currentChanged, this, &BookmarkController::refresh);
    connect(window, &MainWindow::tracesChanged, this, &BookmarkController::tracesChanged);
    connect(this, &BookmarkController::changed, window->sessions(), &SessionController::markDirty);
    refresh();
}

TraceDocument* BookmarkController::currentDocument() const
{
    return window_->document(window_->tabs()->currentIndex());
}

int BookmarkController::addVisibleRange(TraceDocument* doc)
{
    if (!doc || !doc->timeline()->trace()) return -1;
    const TimeMapping& m = doc->timeline()->mapping();
    if (!(m.end() > m.begin())) return -1;
    std::vector<Bookmark> list = doc->bookmarks();
    int highest = 0;
    const QRegularExpression numbered(QStringLiteral("^Bookmark (\\d+)$"));
    for (const Bookmark& b : list) {
        const QRegularExpressionMatch match = numbered.match(QString::fromStdString(b.name));
        if (match.hasMatch()) highest = std::max(highest, match.captured(1).toInt());
    }
    Bookmark b{tr("Bookmark %1").arg(highest + 1).toStdString(), m.begin(), m.end()};
    list.push_back(b);
    change(doc, std::move(list), tr("add %1").arg(QString::fromStdString(b.name)));
    window_->statusBar()->showMessage(tr("Bookmarked %1 as \"%2\"; Ctrl+Shift+B lists the "
                                         "bookmarks")
                                          .arg(rangeText(b), QString::fromStdString(b.name)),
                                      8000);
    const int index = int(doc->bookmarks().size()) - 1;
    if (doc == currentDocument()) panel_->setCurrentIndex(index);
    return index;
}

bool BookmarkController::rename(TraceDocument* doc, int index, const QString& name)
{
    if (!doc || index < 0 || size_t(index) >= doc->bookmarks().size()) return false;
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty()) {
        window_->statusBar()->showMessage(tr("A bookmark needs a name; the old one stays"), 5000);
        return false;
    }
    std::vector<Bookmark> list = doc->bookmarks();
    if (list[size_t(index)].name == trimmed.toStdString()) return false;
    const QString old = QString::fromStdString(list[size_t(index)].name);
    list[size_t(index)].name = trimmed.toStdString();
    change(doc, std::move(list), tr("rename %1 to %2").arg(old, trimmed));
    return true;
}

bool BookmarkController::remove(TraceDocument* doc, int index)
{
    if (!doc || index < 0 || size_t(index) >= doc->bookmarks().size()) return false;
    std::vector<Bookmark> list = doc->bookmarks();
    const QString name = QString::fromStdString(list[size_t(index)].name);
    list.erase(list.begin() + index);
    change(doc, std::move(list), tr("delete %1").arg(name));
    window_->statusBar()->showMessage(
        tr("Deleted bookmark \"%1\" (Undo in the Bookmarks panel brings it back)").arg(name), 8000);
    return true;
}

bool BookmarkController::jump(TraceDocument* doc, int index, bool keepFocus)
{
    if (!doc || index < 0 || size_t(index) >= doc->bookmarks().size()) return false;
    const Bookmark& b = doc->bookmarks()[size_t(index)];
    doc->timeline()->jumpTo(b.begin, b.end);
    if (!keepFocus) doc->timeline()->setFocus();
    window_->statusBar()->showMessage(
        tr("%1: %2 (Alt+Left goes back)").arg(QString::fromStdString(b.name), rangeText(b)), 5000);
    return true;
}

void BookmarkController::jumpInSender(int index)
{
    jump(qobject_cast<TraceDocument*>(sender()), index);
}

void BookmarkController::change(TraceDocument* doc, std::vector<Bookmark> after,
                                const QString& text)
{
    if (!watched_.contains(doc)) watched_ << doc;
    undo_->push(new SetBookmarks(doc, doc->bookmarks(), std::move(after), text, this));
}

void BookmarkController::refresh()
{
    TraceDocument* doc = currentDocument();
    panel_->setBookmarks(doc ? doc->bookmarks() : std::vector<Bookmark>{}, doc != nullptr);
}

void BookmarkController::tracesChanged()
{
    // Undo steps of a closed trace could not be undone: the history goes with it. (A closed
    // tab's document is deleted later; it is gone from the tabs already.)
    const auto closed = [this](const QPointer<TraceDocument>& doc) {
        return !doc || window_->tabs()->indexOf(doc.data()) < 0;
    };
    if (watched_.removeIf(closed) > 0) undo_->clear();
    for (int i = 0; i < window_->tabs()->count(); ++i)
        if (TraceDocument* doc = window_->document(i)) {
            connect(doc, &TraceDocument::bookmarksChanged, this, &BookmarkController::refresh,
                    Qt::UniqueConnection);
            connect(doc, &TraceDocument::bookmarkActivated, this, &BookmarkController::jumpInSender,
                    Qt::UniqueConnection);
        }
    refresh();
}

void BookmarkController::fillMenu()
{
    QMenu* menu = window_->actions()->bookmarksMenu();
    menu->clear();
    menu->addAction(window_->actions()->addBookmark());
    menu->addAction(window_->actions()->bookmarksPanel());
    QAction* undo = undo_->createUndoAction(menu, tr("&Undo"));
    QAction* redo = undo_->createRedoAction(menu, tr("&Redo"));
    menu->addAction(undo);
    menu->addAction(redo);
    menu->addSeparator();
    TraceDocument* doc = currentDocument();
    if (!doc || doc->bookmarks().empty()) {
        menu->addAction(doc ? tr("No bookmarks in this trace") : tr("No trace in this tab"))
            ->setEnabled(false);
        return;
    }
    for (size_t i = 0; i < doc->bookmarks().size(); ++i) {
        const Bookmark& b = doc->bookmarks()[i];
        QAction* go = menu->addAction(QStringLiteral("%1\t%2").arg(
            QString::fromStdString(b.name).replace(QLatin1Char('&'), QStringLiteral("&&")),
            rangeText(b)));
        QPointer<TraceDocument> target(doc);
        connect(go, &QAction::triggered, this, [this, target, i] { jump(target, int(i)); });
    }
}

} // namespace rankscope
