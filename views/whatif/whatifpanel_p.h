#pragma once
// Item-data roles, limits and small helpers shared by WhatIfPanel (whatifpanel.cpp) and its
// section pages (whatif*page.cpp).

#include <QComboBox>
#include <QFormLayout>
#include <QObject>
#include <QString>
#include <Qt>
#include <string>

namespace rankscope::whatifpanel {

inline constexpr int kMaxTarget = 16'777'216;
inline constexpr int kPathRole = Qt::UserRole;
inline constexpr int kRanksRole = Qt::UserRole + 1;
inline constexpr int kBrowseRole = Qt::UserRole + 2;

inline constexpr const char* kErrorStyle = "color: #c62828;";

inline QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

inline QComboBox* narrowCombo(QWidget* parent)
{
    // Long entries (paths, "(spec default: extended_van_de_geijn)") must not widen the dock.
    auto* combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    return combo;
}

inline QFormLayout* compactForm()
{
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return form;
}

/// For destructors: closing a top-level panel moves focus out of its line edits, whose
/// editingFinished would otherwise reach the half-destroyed `receiver`.
inline void disconnectChildren(QObject* receiver)
{
    for (QObject* child : receiver->findChildren<QObject*>())
        child->disconnect(receiver);
}

} // namespace rankscope::whatifpanel
