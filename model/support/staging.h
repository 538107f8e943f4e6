#pragma once
// Outputs that are never half-written under their final names, and temporaries that do not
// outlive their writer.
//
// Every temporary a Rankscope writer makes (a file by writeStreamAtomically, a folder by
// StagingFolder) is named ".<name>.<12 random letters or digits>.saving" beside its target and is
// held under an exclusive flock(2) by the open file of its writer for as long as it lives. A
// temporary whose lock can be taken has lost its writer (killed, crashed, power cut): the next
// writer into that folder removes it. Creating a temporary and sweeping dead ones both happen
// under a short lock of the folder itself, so a sweep never sees a temporary whose writer has not
// locked it yet. flock works on local file systems and, since Linux 2.6.12, on NFS (as a byte
// range lock); a temporary that cannot be locked is left alone.

#include <filesystem>
#include <string>

namespace rankscope {

/// An exclusive flock(2) on a folder, for the microseconds of making a temporary or moving
/// finished files into place. Waits up to 30 s for another holder, then throws TraceError
/// "<folder>: cannot lock the folder ..." (never waits without bound).
class FolderLock
{
public:
    explicit FolderLock(const std::filesystem::path& folder);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;

private:
    int fd_ = -1;
};

/// True when `name` has the form of a Rankscope temporary (".<name>.<12 of [0-9a-z]>.saving").
bool isTemporaryName(const std::string& name);

/// A fresh temporary name for `target` (".<target's name>.<random>.saving" in its folder).
std::filesystem::path temporaryNameFor(const std::filesystem::path& target);

/// Removes the temporaries in `folder` whose writer is gone (their lock is free). Call with a
/// FolderLock on `folder` held. Returns how many it removed; errors are ignored (a temporary
/// left is harmless, only wasted space).
size_t removeAbandonedTemporaries(const std::filesystem::path& folder);

/// Takes the exclusive lock of an open temporary (file or folder descriptor) without waiting;
/// false when another process holds it.
bool lockTemporary(int fd);

/// A hidden folder beside `target` ("<target's folder>/.<target's name>.<random>.saving") that a
/// multi-file output is written into and then moved into place from. Creating it sweeps the
/// folder's abandoned temporaries first. It is locked while this object lives and removed
/// (with whatever is left in it: the new files on failure, the replaced old ones after a commit)
/// when it is destroyed.
class StagingFolder
{
public:
    /// Throws TraceError "<target>: cannot write <what>: ..." when the folder cannot be made.
    StagingFolder(const std::filesystem::path& target, const std::string& what);
    ~StagingFolder();
    StagingFolder(const StagingFolder&) = delete;
    StagingFolder& operator=(const StagingFolder&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /// The folder the output goes into (the target's parent).
    const std::filesystem::path& destination() const { return destination_; }

    /// Flushes every file and folder under path() to disk (before anything is moved).
    void sync() const;

    /// Moves `path() / name` to `destination() / name`, replacing what is there: a file is
    /// replaced by rename(2); a folder (or an entry of another type) is first moved into the
    /// staging folder, so it is removed with it. Call with a FolderLock on destination() held.
    void moveIntoPlace(const std::string& name) const;

    /// Flushes destination()'s entries to disk (after the moves).
    void syncDestination() const;

private:
    std::filesystem::path destination_;
    std::filesystem::path path_;
    std::string what_;
    int fd_ = -1;
};

} // namespace rankscope
