#pragma once
// The session of one main window: session files (save, open, restore) and the autosave that
// keeps scenarios safe. It owns the session file's path, the window's autosave (app/autosave.h)
// and its 15 s timer, whether anything changed since the last write, the session being restored
// while its traces load, and the crashed instances' autosaves still to offer. It reads and sets
// the window's tabs, what-if scenarios and tour through MainWindow's public interface.

#include "app/session.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

class QTimer;

namespace rankscope {

class Autosave;
class MainWindow;

class SessionController : public QObject
{
    Q_OBJECT
public:
    /// Saves and restores `window`'s session; a child of `window`.
    explicit SessionController(MainWindow* window);
    ~SessionController() override;

    /// The session as it is now: open traces, scenarios, result tabs, view state.
    Session session() const;
    /// Opens a session file (see MainWindow::openSession).
    bool openSession(const QString& path);
    /// Restores `session`: its traces load, the rest follows in finishRestore().
    void restoreSession(const Session& session);
    /// Writes the session to `path` (atomically); false after reporting why.
    bool saveSession(const QString& path);
    QString sessionPath() const { return sessionPath_; }

    /// Something in the session changed: an interactive window autosaves it within 15 s.
    void markDirty();
    /// This window's autosave file; empty until the first write.
    QString autosavePath() const;
    /// Writes the autosave now (when anything changed since the last one).
    void autosave();
    /// A clean exit: this window's autosave file goes.
    void discardAutosave();
    /// Claims the autosaves of instances that did not exit cleanly, newest first.
    QStringList claimCrashedSessions();
    /// Restores a claimed autosave (see MainWindow::recoverSession).
    bool recoverSession(const QString& autosaveFile);
    /// Offers each crashed instance's autosave back: restore, discard or keep for later.
    void offerCrashedSessions();

    /// The trace loader is idle: a session being restored gets its comparisons, result tabs,
    /// visible ranges and current tab, then restored() follows.
    void finishRestore();

    /// File > Save Session: to the session's file, or to one the user chooses.
    void save();
    /// File > Save Session As…: asks for a file; false when none was chosen or saving failed.
    bool chooseAndSave();
    /// File > Open Session…
    void chooseAndOpen();

signals:
    /// A session's traces have loaded and its view state is restored.
    void restored();

private:
    void offerNextCrashedSession();

    MainWindow* window_;
    QTimer* autosaveTimer_;
    std::unique_ptr<Autosave> autosave_;
    QStringList crashedToOffer_; ///< claimed autosaves not yet offered
    QString recovering_;         ///< the claimed autosave being restored
    QString sessionPath_;
    bool dirty_ = false;
    std::optional<Session> restoring_; ///< a session whose traces are loading
};

} // namespace rankscope
