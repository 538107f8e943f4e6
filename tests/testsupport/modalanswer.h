#pragma once
// Answers the next modal message box a GUI test provokes (a close or quit prompt), so the test
// does not block in its event loop.

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QString>
#include <QTimer>

namespace rankscope::test {

/// Clicks `button` of the next modal message box once it shows; `*seen` tells whether it had
/// the object name `objectName`.
inline void answerNextBox(const QString& objectName, QMessageBox::StandardButton button, bool* seen)
{
    auto* poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, objectName, button, seen] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        poll->stop(); // at once: deleteLater waits for the outer event loop
        *seen = box->objectName() == objectName;
        box->button(button)->click();
        poll->deleteLater();
    });
    poll->start();
}

} // namespace rankscope::test
