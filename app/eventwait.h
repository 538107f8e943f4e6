#pragma once
// Waiting in headless runs (demo and session screenshots): run the event loop until a signal
// fires or time runs out, and let pending paints and layouts settle before a grab.

#include <QApplication>
#include <QEventLoop>
#include <QTimer>

namespace rankscope {

/// Runs the event loop until `signal` of `sender` fires or `seconds` pass; false on timeout.
template <class Sender, class Signal> bool waitForSignal(Sender* sender, Signal signal, int seconds)
{
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    bool fired = false;
    QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    timeout.start(seconds * 1000);
    loop.exec();
    return fired;
}

/// Lets queued events (layouts, paints) run before a window is grabbed.
inline void settleEvents()
{
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
}

} // namespace rankscope
