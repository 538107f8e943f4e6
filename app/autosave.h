#pragma once
// The crash copy of one window's session: one file per running instance, never shared.
//
// Each window writes <folder>/autosave-<pid>-<n>.rsession and holds <file>.lock (QLockFile)
// from its first write until it ends. A clean exit removes both. A file whose lock no live
// instance holds belonged to an instance that crashed or was killed: the next start claims it
// (by taking its lock, so two starts never offer the same file) and offers it back; it is
// removed only once its contents are safe elsewhere (restored and autosaved again) or the
// user discards it. So a clean exit of one instance never deletes another's unsaved work.

#include "app/session.h"

#include <QString>
#include <QStringList>
#include <map>
#include <memory>

class QLockFile;

namespace rankscope {

class Autosave
{
public:
    /// `folder` empty: <AppDataLocation>/autosave.
    explicit Autosave(const QString& folder = {});
    /// Releases the locks (the files stay: only discard() is a clean exit).
    ~Autosave();
    Autosave(const Autosave&) = delete;
    Autosave& operator=(const Autosave&) = delete;

    QString folder() const { return folder_; }
    /// This instance's file (chosen at the first write; empty before).
    QString path() const { return path_; }
    /// Writes `session` as this instance's autosave; throws TraceError when it cannot.
    void write(const Session& session);
    /// A clean exit: removes this instance's file and lock; later writes do nothing.
    void discard();

    /// Claims the autosaves of instances that ended without a clean exit, newest first (an
    /// autosave of a version that kept one shared file is included).
    QStringList claimOrphans();
    /// Gives up a claimed autosave: deletes it (`remove`), or leaves it for a later start.
    void releaseOrphan(const QString& path, bool remove);

private:
    QString folder_;
    QString path_;
    std::unique_ptr<QLockFile> lock_;
    bool discarded_ = false;
    std::map<QString, std::unique_ptr<QLockFile>> claimed_; ///< orphan path -> its lock
};

} // namespace rankscope
