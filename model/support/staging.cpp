#include "model/support/staging.h"

#include "model/trace/traceerror.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace rankscope {

namespace fs = std::filesystem;

namespace {

constexpr size_t kRandomLetters = 12;
const std::string kSuffix = ".saving";

std::string randomLetters()
{
    static thread_local std::mt19937_64 engine{std::random_device{}()};
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string s(kRandomLetters, '0');
    for (char& c : s)
        c = digits[engine() % 36];
    return s;
}

void syncPath(const fs::path& p, bool folder)
{
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
    if (fd < 0) return;
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    // Some file systems cannot flush a folder (EINVAL); its files are complete either way.
    if (rc != 0 && err != EINVAL && err != EROFS)
        throw TraceError(p.string() + ": flushing to disk failed: " + std::strerror(err));
}

} // namespace

FolderLock::FolderLock(const fs::path& folder)
{
    const fs::path dir = folder.empty() ? fs::path(".") : folder;
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0)
        throw TraceError(dir.string() + ": cannot lock the folder: " + std::strerror(errno));
    // The holders keep it for microseconds; 30 s means one of them is stuck.
    for (int attempt = 0;; ++attempt) {
        if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
        if (errno != EWOULDBLOCK && errno != EINTR) break;
        if (attempt == 3000) {
            errno = EWOULDBLOCK;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const int err = errno;
    ::close(fd_);
    throw TraceError(dir.string() + ": cannot lock the folder" +
                     (err == EWOULDBLOCK ? std::string(" (another process has held it for 30 s)")
                                         : ": " + std::string(std::strerror(err))));
}

FolderLock::~FolderLock()
{
    if (fd_ >= 0) ::close(fd_); // closing releases the lock
}

bool isTemporaryName(const std::string& name)
{
    // "." + at least one character + "." + 12 letters + ".saving"
    const size_t tail = 1 + kRandomLetters + kSuffix.size();
    if (name.size() < 2 + tail || name[0] != '.') return false;
    if (name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) return false;
    const size_t dot = name.size() - tail;
    if (name[dot] != '.') return false;
    for (size_t i = dot + 1; i < dot + 1 + kRandomLetters; ++i) {
        const char c = name[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) return false;
    }
    return true;
}

fs::path temporaryNameFor(const fs::path& target)
{
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    return folder / ("." + target.filename().string() + "." + randomLetters() + kSuffix);
}

bool lockTemporary(int fd)
{
    return ::flock(fd, LOCK_EX | LOCK_NB) == 0;
}

size_t removeAbandonedTemporaries(const fs::path& folder)
{
    size_t removed = 0;
    std::error_code ec;
    fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        if (!isTemporaryName(p.filename().string())) continue;
        std::error_code tec;
        const fs::file_status st = fs::symlink_status(p, tec);
        if (tec || !(fs::is_regular_file(st) || fs::is_directory(st))) continue;
        const bool folderEntry = fs::is_directory(st);
        const int fd =
            ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (folderEntry ? O_DIRECTORY : 0));
        if (fd < 0) continue;
        if (lockTemporary(fd)) {
            // Its writer is gone: nobody else can take the lock while we hold it, and a live
            // writer makes its temporaries only under the folder's lock, which our caller holds.
            if (folderEntry)
                fs::remove_all(p, tec);
            else
                tec =
                    std::error_code(::unlink(p.c_str()) == 0 ? 0 : errno, std::generic_category());
            if (!tec) ++removed;
        }
        ::close(fd);
    }
    return removed;
}

StagingFolder::StagingFolder(const fs::path& target, const std::string& what) : what_(what)
{
    const auto fail = [&](const std::string& reason) {
        throw TraceError(target.string() + ": cannot write " + what + ": " + reason);
    };
    destination_ = target.has_parent_path() ? target.parent_path() : fs::path(".");
    FolderLock lock(destination_);
    removeAbandonedTemporaries(destination_);
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        path_ = temporaryNameFor(target);
        if (::mkdir(path_.c_str(), 0777) != 0) {
            if (errno == EEXIST) continue;
            fail(std::strerror(errno));
        }
        fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd_ < 0 || !lockTemporary(fd_)) {
            const int err = errno;
            if (fd_ >= 0) ::close(fd_);
            ::rmdir(path_.c_str());
            fail(std::strerror(err));
        }
    }
    if (fd_ < 0) fail("no free temporary name in " + destination_.string());
}

StagingFolder::~StagingFolder()
{
    std::error_code ec;
    fs::remove_all(path_, ec);
    ::close(fd_);
}

void StagingFolder::sync() const
{
    std::error_code ec;
    for (fs::recursive_directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::file_status st = it->symlink_status(ec);
        if (fs::is_regular_file(st)) syncPath(it->path(), false);
        if (fs::is_directory(st)) syncPath(it->path(), true);
    }
    if (ec) throw TraceError(path_.string() + ": cannot write " + what_ + ": " + ec.message());
    syncPath(path_, true);
}

void StagingFolder::moveIntoPlace(const std::string& name) const
{
    const fs::path from = path_ / name, to = destination_ / name;
    std::error_code ec;
    const fs::file_status old = fs::symlink_status(to, ec);
    if (fs::exists(old) && !fs::is_regular_file(old)) {
        // A folder cannot be renamed over a full one: move it aside, into this staging folder.
        const fs::path aside = path_ / (".replaced." + name);
        if (::rename(to.c_str(), aside.c_str()) != 0)
            throw TraceError(to.string() + ": cannot replace it: " + std::strerror(errno));
    }
    if (::rename(from.c_str(), to.c_str()) != 0)
        throw TraceError(to.string() + ": cannot move the new " + what_ +
                         " into place: " + std::strerror(errno));
}

void StagingFolder::syncDestination() const
{
    syncPath(destination_, true);
}

} // namespace rankscope
