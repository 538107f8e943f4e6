#pragma once
// The answer to a tooltip event that the views drawing their own content share: show `text` at
// the event's position, or hide the tooltip when there is nothing under the cursor.

#include <QHelpEvent>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace rankscope {

inline void showToolTipText(QWidget* widget, const QHelpEvent* help, const QString& text)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
}

} // namespace rankscope
