#include "app/autosave.h"

#include "model/trace/traceerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <algorithm>
#include <vector>

namespace rankscope {

namespace {

QString lockPath(const QString& file)
{
    return file + QStringLiteral(".lock");
}

/// A lock that only a live holder keeps: never "stale" by age, so a long-running instance
/// keeps its file (QLockFile's default would give it up after 30 s).
std::unique_ptr<QLockFile> tryLock(const QString& file)
{
    auto lock = std::make_unique<QLockFile>(lockPath(file));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) return nullptr;
    return lock;
}

QString defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave");
}

} // namespace

Autosave::Autosave(const QString& folder) : folder_(folder.isEmpty() ? defaultFolder() : folder) {}

Autosave::~Autosave() = default;

void Autosave::write(const Session& session)
{
    if (discarded_) return;
    if (!lock_) {
        if (!QDir().mkpath(folder_))
            throw TraceError(QFile::encodeName(folder_).toStdString() +
                             ": cannot create the autosave folder");
        // A name no file or lock has yet: an orphan whose instance had this process id keeps
        // its file until it is offered back.
        const QString stem =
            folder_ + QStringLiteral("/autosave-%1-").arg(QCoreApplication::applicationPid());
        for (int n = 1; !lock_; ++n) {
            const QString candidate = stem + QString::number(n) + QStringLiteral(".rsession");
            if (QFileInfo::exists(candidate) || QFileInfo::exists(lockPath(candidate))) continue;
            lock_ = tryLock(candidate);
            if (lock_)
                path_ = candidate;
            else if (n > 1000)
                throw TraceError(QFile::encodeName(candidate).toStdString() +
                                 ": cannot lock the autosave file");
        }
    }
    session.save(QFile::encodeName(path_).toStdString());
}

void Autosave::discard()
{
    discarded_ = true;
    if (!lock_) return;
    QFile::remove(path_);
    lock_->unlock();
    lock_.reset();
}

QStringList Autosave::claimOrphans()
{
    std::vector<QFileInfo> found;
    const QDir dir(folder_);
    for (const QFileInfo& f :
         dir.entryInfoList({QStringLiteral("autosave-*.rsession")}, QDir::Files))
        found.push_back(f);
    if (folder_ == defaultFolder()) {
        const QFileInfo legacy(QFileInfo(folder_).absolutePath() +
                               QStringLiteral("/autosave.rsession"));
        if (legacy.isFile()) found.push_back(legacy);
    }
    std::sort(found.begin(), found.end(), [](const QFileInfo& a, const QFileInfo& b) {
        return a.lastModified() > b.lastModified();
    });
    QStringList out;
    for (const QFileInfo& f : found) {
        const QString path = f.absoluteFilePath();
        if ((!path_.isEmpty() && path == QFileInfo(path_).absoluteFilePath()) ||
            claimed_.count(path))
            continue;
        if (auto lock = tryLock(path)) { // no live instance holds it
            claimed_[path] = std::move(lock);
            out << path;
        }
    }
    return out;
}

void Autosave::releaseOrphan(const QString& path, bool remove)
{
    auto it = claimed_.find(path);
    if (it == claimed_.end()) return;
    if (remove) QFile::remove(path);
    it->second->unlock();
    claimed_.erase(it);
}

} // namespace rankscope
