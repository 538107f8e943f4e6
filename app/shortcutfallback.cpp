#include "app/shortcutfallback.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QWidget>

namespace rankscope {

ShortcutFallback::ShortcutFallback(QWidget* window, QList<QAction*> actions)
    : QObject(window), window_(window), actions_(std::move(actions))
{
    qApp->installEventFilter(this);
}

ShortcutFallback::~ShortcutFallback()
{
    qApp->removeEventFilter(this);
}

QAction* ShortcutFallback::match(const QList<QAction*>& actions, const QKeyEvent& event)
{
    if (event.key() == 0 || event.key() == Qt::Key_unknown) return nullptr;
    // Keypad and group-switch bits are not part of any shortcut written in the menus.
    const Qt::KeyboardModifiers mods =
        event.modifiers() &
        (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
    const QKeySequence pressed(QKeyCombination(mods, Qt::Key(event.key())));
    for (QAction* a : actions)
        if (a->isEnabled())
            for (const QKeySequence& k : a->shortcuts())
                if (k.matches(pressed) == QKeySequence::ExactMatch) return a;
    return nullptr;
}

bool ShortcutFallback::typesInto(const QWidget* widget, const QKeyEvent& event)
{
    if (event.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    const QString text = event.text();
    if (text.isEmpty() || !text.front().isPrint()) return false;
    if (widget->testAttribute(Qt::WA_InputMethodEnabled) ||
        qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QComboBox*>(widget))
        return true;
    // A view, its viewport, or an item editor inside it.
    for (const QWidget* w = widget; w && !w->isWindow(); w = w->parentWidget())
        if (qobject_cast<const QAbstractItemView*>(w)) return true;
    return false;
}

bool ShortcutFallback::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (!widget || widget->window() != window_ ||
            !typesInto(widget, *static_cast<QKeyEvent*>(event)))
            return false;
        event->accept(); // the key goes to the widget as a key press, not to a shortcut
        return true;
    }
    if (event->type() != QEvent::KeyPress || QApplication::activeWindow()) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != window_ || QApplication::activeModalWidget()) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    // Text fields keep what is typed into them; only chords with Ctrl or Alt, and function
    // keys, are taken from them.
    const bool chord = key->modifiers() & (Qt::ControlModifier | Qt::AltModifier) ||
                       (key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35);
    if (!chord && (widget->testAttribute(Qt::WA_InputMethodEnabled) || typesInto(widget, *key)))
        return false;
    QAction* action = match(actions_, *key);
    if (!action) return false;
    window_->activateWindow();
    action->trigger();
    return true;
}

} // namespace rankscope
