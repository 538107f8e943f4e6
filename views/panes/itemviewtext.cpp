#include "views/panes/itemviewtext.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QHelpEvent>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>

namespace rankscope::ItemViewText {

namespace {

/// Shows a cell's whole text as its tooltip when the view cut it.
class CutTextTips : public QObject
{
public:
    explicit CutTextTips(QAbstractItemView* view) : QObject(view), view_(view) {}

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::ToolTip || watched != view_->viewport()) return false;
        const auto* help = static_cast<QHelpEvent*>(event);
        const QModelIndex index = view_->indexAt(help->pos());
        if (!index.isValid() || index.data(Qt::ToolTipRole).isValid()) return false;
        const QString text = index.data(Qt::DisplayRole).toString();
        if (text.isEmpty()) return false;
        // Room for the text: the cell less the margins and decoration the style adds.
        const QRect cell = view_->visualRect(index);
        const int needed = view_->fontMetrics().horizontalAdvance(text) + 12 +
                           (index.data(Qt::DecorationRole).isValid() ? cell.height() : 0);
        if (needed <= cell.width()) return false; // nothing cut: the view's own help shows
        QToolTip::showText(help->globalPos(), text.toHtmlEscaped(), view_, cell);
        return true;
    }

private:
    QAbstractItemView* view_;
};

} // namespace

void install(QAbstractItemView* view)
{
    view->setTextElideMode(Qt::ElideMiddle);
    const int minWidth = view->fontMetrics().averageCharWidth() * 6 + 12;
    if (auto* table = qobject_cast<QTableView*>(view))
        table->horizontalHeader()->setMinimumSectionSize(minWidth);
    else if (auto* tree = qobject_cast<QTreeView*>(view))
        tree->header()->setMinimumSectionSize(minWidth);
    view->viewport()->installEventFilter(new CutTextTips(view));
}

} // namespace rankscope::ItemViewText
