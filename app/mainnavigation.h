#pragma once
// The main window's navigation commands beyond zoom and pan: Back / Forward through the current
// timeline's zoom history, Find (the current trace tab's find bar), Go to Time and Filter Ranks,
// and the Help menu's keyboard-shortcut sheet and About box.

#include <QString>
#include <optional>

namespace rankscope {

class MainWindow;

namespace MainNavigation {

/// Connects the navigation and help actions of `window`'s MainActions to what they do.
void connect(MainWindow* window);

/// A time typed into Go to Time, in ns: "13.04975 s", "250ms", "1.5e9 ns", or a bare number of
/// seconds ("13.05"); nullopt when it is not one.
std::optional<double> parseTime(const QString& text);

} // namespace MainNavigation

} // namespace rankscope
