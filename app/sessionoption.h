#pragma once
// `--session FILE` on the command line. QGuiApplication takes `-session`/`--session` (X11
// session management) out of argv before any parser sees it, so `rankscope --session FILE` would
// open an empty window: main() takes the option out first, with this.

#include <QString>
#include <optional>

namespace rankscope {

/// Removes `--session FILE`, `--session=FILE`, `-session FILE` and `-session=FILE` from
/// argv (shifting the rest down and lowering argc) and returns FILE; nullopt when absent. Stops
/// at "--". A `--session` without a value is left in place, for the parser to report.
std::optional<QString> takeSessionOption(int& argc, char** argv);

} // namespace rankscope
