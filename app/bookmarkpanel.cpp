#include "app/bookmarkpanel.h"

#include "views/panes/durationformat.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QShortcut>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace rankscope {

namespace {

QToolButton* button(QWidget* parent, const QString& text, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

BookmarkPanel::BookmarkPanel(QUndoStack* undo, QWidget* parent)
    : QWidget(parent), list_(new QTreeWidget(this)), hint_(new QLabel(this)),
      add_(button(this, tr("Add"), tr("Bookmark the visible time range (Ctrl+B)"))),
      rename_(button(this, tr("Rename"), tr("Rename the selected bookmark (F2)"))),
      delete_(button(this, tr("Delete"),
                     tr("Delete the selected bookmark (Del; Undo brings "
                        "it back)")))
{
    setObjectName(QStringLiteral("bookmarkPanel"));
    list_->setObjectName(QStringLiteral("bookmarkList"));
    list_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    list_->setColumnCount(2);
    list_->setHeaderLabels({tr("Name"), tr("Range")});
    list_->setRootIsDecorated(false);
    list_->setTextElideMode(Qt::ElideMiddle);
    list_->setUniformRowHeights(true);
    list_->header()->setStretchLastSection(true);
    list_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    hint_->setWordWrap(true);
    hint_->setObjectName(QStringLiteral("bookmarkHint"));

    // Fixed texts, the step in the tooltip: QUndoStack's own actions are named after the step
    // ("Undo rename two iterations to smoother"), which widened the dock with every edit.
    auto undoRedo = [this](const QString& text, auto canChanged, auto textChanged, bool can,
                           const QString& step, auto run, QUndoStack* stack) {
        auto* action = new QAction(text, this);
        auto update = [action, text](const QString& what) {
            action->setToolTip(what.isEmpty() ? text : tr("%1 %2").arg(text, what));
        };
        action->setEnabled(can);
        update(step);
        connect(stack, canChanged, action, &QAction::setEnabled);
        connect(stack, textChanged, action, update);
        connect(action, &QAction::triggered, stack, run);
        auto* b = new QToolButton(this);
        b->setDefaultAction(action);
        return b;
    };
    QToolButton* undoButton =
        undoRedo(tr("Undo"), &QUndoStack::canUndoChanged, &QUndoStack::undoTextChanged,
                 undo->canUndo(), undo->undoText(), &QUndoStack::undo, undo);
    QToolButton* redoButton =
        undoRedo(tr("Redo"), &QUndoStack::canRedoChanged, &QUndoStack::redoTextChanged,
                 undo->canRedo(), undo->redoText(), &QUndoStack::redo, undo);
    undoButton->setObjectName(QStringLiteral("bookmarkUndo"));
    redoButton->setObjectName(QStringLiteral("bookmarkRedo"));
    for (QToolButton* b : {undoButton, redoButton})
        b->setAutoRaise(true);
    // Inside the panel only: the what-if spec editor has its own Ctrl+Z.
    connect(
        new QShortcut(QKeySequence::Undo, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut),
        &QShortcut::activated, undo, &QUndoStack::undo);
    connect(
        new QShortcut(QKeySequence::Redo, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut),
        &QShortcut::activated, undo, &QUndoStack::redo);
    connect(new QShortcut(QKeySequence::Delete, list_, nullptr, nullptr, Qt::WidgetShortcut),
            &QShortcut::activated, this, [this] {
                if (currentIndex() >= 0) emit deleteRequested(currentIndex());
            });

    auto* buttons = new QHBoxLayout;
    for (QToolButton* b : {add_, rename_, delete_, undoButton, redoButton})
        buttons->addWidget(b);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(hint_);
    layout->addWidget(list_, 1);

    connect(add_, &QToolButton::clicked, this, &BookmarkPanel::addRequested);
    connect(rename_, &QToolButton::clicked, this, [this] {
        if (QTreeWidgetItem* item = list_->currentItem()) list_->editItem(item, 0);
    });
    connect(delete_, &QToolButton::clicked, this, [this] {
        if (currentIndex() >= 0) emit deleteRequested(currentIndex());
    });
    connect(list_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit jumpRequested(list_->indexOfTopLevelItem(item));
    });
    connect(list_, &QTreeWidget::itemChanged, this, &BookmarkPanel::onItemChanged);
    connect(list_, &QTreeWidget::currentItemChanged, this, &BookmarkPanel::updateButtons);
    setBookmarks({}, false);
}

void BookmarkPanel::setBookmarks(const std::vector<Bookmark>& bookmarks, bool traceTab)
{
    const int keep = currentIndex();
    filling_ = true;
    list_->clear();
    for (const Bookmark& b : bookmarks) {
        auto* item = new QTreeWidgetItem(list_);
        item->setText(0, QString::fromStdString(b.name));
        // Short here (4 significant digits); exact to the ns in the tooltip.
        item->setText(1,
                      tr("%1 at %2").arg(formatDuration(b.end - b.begin), formatDuration(b.begin)));
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        const QString range =
            tr("%1 from %2 to %3")
                .arg(formatDuration(b.end - b.begin), formatTimestamp(int64_t(b.begin)),
                     formatTimestamp(int64_t(b.end)));
        for (int c = 0; c < 2; ++c)
            item->setToolTip(c, QStringLiteral("%1\n%2").arg(item->text(0), range));
    }
    filling_ = false;
    list_->resizeColumnToContents(0);
    if (!bookmarks.empty()) setCurrentIndex(std::clamp(keep, 0, int(bookmarks.size()) - 1));
    hint_->setText(!traceTab ? tr("Bookmarks belong to a trace: select the tab of a trace.")
                   : bookmarks.empty() ? tr("No bookmarks yet: zoom to a range and press Ctrl+B.")
                                       : tr("Double-click to jump there (Alt+Left returns)."));
    add_->setEnabled(traceTab);
    updateButtons();
}

int BookmarkPanel::currentIndex() const
{
    return list_->currentItem() ? list_->indexOfTopLevelItem(list_->currentItem()) : -1;
}

void BookmarkPanel::setCurrentIndex(int index)
{
    list_->setCurrentItem(list_->topLevelItem(index));
}

void BookmarkPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (filling_ || column != 0) return;
    // Later: the rename refills the list, which must not happen inside its own signal.
    const int row = list_->indexOfTopLevelItem(item);
    const QString name = item->text(0).trimmed();
    QMetaObject::invokeMethod(
        this, [this, row, name] { emit renameRequested(row, name); }, Qt::QueuedConnection);
}

void BookmarkPanel::updateButtons()
{
    const bool any = currentIndex() >= 0;
    rename_->setEnabled(any);
    delete_->setEnabled(any);
}

} // namespace rankscope
