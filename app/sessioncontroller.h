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

    /// Work in the window that no saved session holds: result tabs (what-if runs, sweeps,
    /// extrapolations), scenarios and trace tabs' bookmarks not in the session file last saved
    /// or opened, as lines for a message ("What if: WAN 20 ms"); empty when nothing would be
    /// lost.
    QStringList unsavedWork() const;
    /// Quit: asks to save when unsavedWork() is not empty (Save, Discard, Cancel); true when the
    /// window may close. Never asks when not interactive.
    bool confirmQuit();
    /// Close Tab: asks when tab `index` is a result, or a trace with bookmarks, that no saved
    /// session holds; true to close.
    bool confirmCloseTab(int index);

signals:
    /// A session's traces have loaded, its view state is restored and its result tabs have
    /// been run again (each either opened or reported).
    void restored();

private:
    void offerNextCrashedSession();
    /// What reading the session skipped (Session::warnings), in one message.
    void reportWarnings(const Session& s);
    /// Runs the restored session's result tabs again, one after another; then restored().
    void restoreResults();
    /// Starts the next extrapolation of rerunning_, or ends the restore when all are back.
    void nextResult();
    /// The saved session's results, extrapolations, scenarios and bookmarks (what unsavedWork()
    /// compares).
    void rememberSaved(const Session& s);

    MainWindow* window_;
    QTimer* autosaveTimer_;
    std::unique_ptr<Autosave> autosave_;
    QStringList crashedToOffer_; ///< claimed autosaves not yet offered
    QString recovering_;         ///< the claimed autosave being restored
    QString sessionPath_;
    bool dirty_ = false;
    std::optional<Session> restoring_; ///< a session whose traces are loading
    /// A restored session whose result tabs are being run again, and how many are still due.
    std::optional<Session> rerunning_;
    int runsDue_ = 0;              ///< what-if results not yet ended
    size_t nextExtrapolation_ = 0; ///< of rerunning_->extrapolations
    bool extrapolating_ = false;   ///< one of them is running
    Session saved_;                ///< what the file last saved or opened holds
};

} // namespace rankscope
