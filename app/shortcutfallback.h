#pragma once
// The main window's shortcuts when Qt's shortcut map cannot serve them. Qt matches shortcuts
// only in an active window; under an X server without a window manager (Xvfb, xdotool scripts,
// some kiosk setups) a window is not active until it is clicked, and key presses then reach the
// focused widget without ever triggering Ctrl+Q, Ctrl+Shift+S or Ctrl+Shift+X. This filter
// sees those key presses (on any widget of the window) and triggers the action whose shortcut
// they are, then asks for activation so later keys take the normal path. It stays out of the
// way when a window is active, and leaves plain typing in text fields alone.
//
// It also keeps single-key shortcuts (M, W, C, R, F, N, P, +, -) out of the widgets where a key
// types or searches: a text field, a spin box, a combo box, a list, tree or table and the editor
// of one of its items. There Qt would fire the shortcut (only text fields claim printable keys
// for themselves), so typing a bookmark's name into its list hid the messages ("m") and reordered
// the ranks ("r"); the filter claims the key for the widget (ShortcutOverride) instead. The
// shortcuts act on the timeline and fire wherever else the focus is.

#include <QList>
#include <QObject>

class QAction;
class QKeyEvent;
class QWidget;

namespace rankscope {

class ShortcutFallback : public QObject
{
    Q_OBJECT
public:
    /// Serves `actions` for key presses in `window`; installs itself on the application.
    ShortcutFallback(QWidget* window, QList<QAction*> actions);
    ~ShortcutFallback() override;

    /// The enabled action of `actions` with the shortcut `event` presses, if any.
    static QAction* match(const QList<QAction*>& actions, const QKeyEvent& event);
    /// Whether `event` is a plain printable key that `widget` types or searches with.
    static bool typesInto(const QWidget* widget, const QKeyEvent& event);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
    QList<QAction*> actions_;
};

} // namespace rankscope
