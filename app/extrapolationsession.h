#pragma once
// Extrapolation result tabs in session files: the tab remembers the parameters that made it
// (its input traces' paths and the dialog's choices), the session stores them
// (SessionExtrapolation), and reopening the session runs the extrapolation again from them.

#include "app/extrapolationjob.h"
#include "app/session.h"

#include <QString>
#include <optional>

class QWidget;

namespace rankscope {

class MainWindow;

namespace ExtrapolationSession {

/// Marks `tab` as the result of `request`.
void tag(QWidget* tab, const ExtrapolationRequest& request);
/// The parameters `tab` was made from; nullopt when it is not an extrapolation result.
std::optional<SessionExtrapolation> of(const QWidget* tab);
/// The paths `e` needs open (its inputs and the measured run).
QStringList pathsOf(const SessionExtrapolation& e);
/// The request that runs `e` again over `window`'s open traces; false with `error` set when one
/// of its traces is not open.
bool request(const SessionExtrapolation& e, const MainWindow& window, ExtrapolationRequest& out,
             QString& error);

} // namespace ExtrapolationSession

} // namespace rankscope
