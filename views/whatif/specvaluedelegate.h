#pragma once
// The value editor of WhatIfPanel's spec tree (SpecItemModel's ValueColumn): a combo of the
// known values where the key has some (link classes, topologies, algorithms...), else a line
// edit. The model checks the value.

#include <QStyledItemDelegate>

namespace rankscope {

class SpecValueDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;
};

} // namespace rankscope
