#pragma once
// The main window's box for traces that failed to load. The failures of one batch (a session,
// several files dropped or given on the command line) are gathered in one box instead of one
// box each, and a file that a partial read may still open (as `--allow-partial` does on the
// command line) is offered with Open Partially. A file whose partial read fails too is only
// reported.

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

class QWidget;

namespace rankscope {

class LoadErrorBox : public QObject
{
    Q_OBJECT
public:
    explicit LoadErrorBox(QWidget* window);

    /// Adds the failure of `path` (`text` says why) to the open box, or opens one.
    void report(const QString& path, const QString& text);
    /// `path` opened: a later failure of it is offered a partial read again.
    void loaded(const QString& path) { partialRun_.remove(path); }
    /// The open box, or null.
    QMessageBox* box() const { return box_; }

signals:
    /// Open Partially was chosen: read `path` again keeping what it still holds.
    void openPartially(const QString& path);

private:
    QWidget* window_;
    QPointer<QMessageBox> box_;
    QStringList offered_;      ///< the open box's files that a partial read may open
    QSet<QString> partialRun_; ///< files being read partially
};

} // namespace rankscope
