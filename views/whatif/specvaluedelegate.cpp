#include "views/whatif/specvaluedelegate.h"

#include "views/whatif/specitemmodel.h"

#include <QComboBox>

namespace rankscope {

QWidget* SpecValueDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                         const QModelIndex& index) const
{
    const QStringList known = index.data(SpecItemModel::SuggestionsRole).toStringList();
    if (known.isEmpty()) return QStyledItemDelegate::createEditor(parent, option, index);
    auto* combo = new QComboBox(parent);
    combo->setEditable(true);
    combo->addItems(known);
    combo->setToolTip(index.data(Qt::ToolTipRole).toString());
    // Choosing from the list is the whole edit: commit at once.
    connect(combo, &QComboBox::activated, this, [this, combo] {
        auto* self = const_cast<SpecValueDelegate*>(this);
        emit self->commitData(combo);
        emit self->closeEditor(combo);
    });
    return combo;
}

void SpecValueDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        combo->setCurrentText(index.data(Qt::EditRole).toString());
    else
        QStyledItemDelegate::setEditorData(editor, index);
}

void SpecValueDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                     const QModelIndex& index) const
{
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        model->setData(index, combo->currentText());
    else
        QStyledItemDelegate::setModelData(editor, model, index);
}

} // namespace rankscope
