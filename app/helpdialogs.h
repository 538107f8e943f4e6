#pragma once
// Help > Keyboard Shortcuts and Help > About: the shortcut sheet is built from the actions
// themselves (so it never disagrees with the menus) plus the timeline's own keys and mouse
// gestures; About gives the version, the Qt it runs on and the licences of the bundled traces.

#include <QString>

class QWidget;

namespace rankscope {

class MainActions;

namespace HelpDialogs {

/// The sheet as HTML: one table row per action with a shortcut, then the timeline's keys.
QString shortcutsHtml(const MainActions* actions);
/// About as HTML: version, Qt, and each bundled trace licence (resources/demo/traces/LICENSE-*).
QString aboutHtml();
/// The centre of a main window without tabs: how to open a trace.
QString emptyWindowHint();

/// Shows the sheet in a non-modal window (one per `parent`, raised when already open).
void showShortcuts(QWidget* parent, const MainActions* actions);
void showAbout(QWidget* parent);

} // namespace HelpDialogs

} // namespace rankscope
