#include "model/support/atomicfile.h"

#include "model/support/staging.h"
#include "model/trace/traceerror.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace rankscope {

namespace fs = std::filesystem;

namespace {

/// Closes a descriptor on every path out (the success path closes it itself to see errors).
class Fd
{
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

bool writeAll(int fd, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

} // namespace

std::string followSymlinks(const std::string& path)
{
    fs::path p(path);
    // The limit of Linux's own path resolution (MAXSYMLINKS).
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(p, ec);
        if (ec || !fs::is_symlink(st)) return p.string();
        const fs::path link = fs::read_symlink(p, ec);
        if (ec) throw TraceError(path + ": cannot read the symbolic link: " + ec.message());
        p = link.is_absolute() ? link : p.parent_path() / link;
    }
    throw TraceError(path + ": too many levels of symbolic links");
}

void writeFileAtomically(const std::string& path, std::string_view contents,
                         const std::string& what)
{
    writeStreamAtomically(
        path, [contents](const BlockSink& sink) { sink(contents); }, what);
}

void writeStreamAtomically(const std::string& path,
                           const std::function<void(const BlockSink&)>& produce,
                           const std::string& what)
{
    const auto fail = [&](const std::string& reason) {
        throw TraceError(path + ": cannot write " + what + ": " + reason);
    };
    const fs::path target(followSymlinks(path));
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");

    struct stat old
    {
    };
    const bool exists = ::stat(target.c_str(), &old) == 0;
    if (exists && S_ISDIR(old.st_mode)) fail("it is a folder, not a regular file");
    if (exists && !S_ISREG(old.st_mode)) fail("it exists and is not a regular file");
    if (!exists && errno != ENOENT) fail(std::strerror(errno));

    // A fresh name each time, created exclusively: whatever sits at an old or guessed name
    // (a symbolic link planted there, say) is never opened. 0666 lets the umask decide for a
    // new file, as for any other file the user creates. It is made and locked under the
    // folder's lock, after the temporaries of writers that died are removed (staging.h).
    std::string temp;
    int fd = -1;
    {
        std::optional<FolderLock> lock;
        try {
            lock.emplace(folder);
        } catch (const TraceError& e) {
            fail(e.what());
        }
        removeAbandonedTemporaries(folder);
        for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
            temp = temporaryNameFor(target).string();
            fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
            if (fd < 0 && errno != EEXIST) fail(std::strerror(errno));
        }
        if (fd < 0) fail("no free temporary file name in " + folder.string());
        if (!lockTemporary(fd)) {
            const int err = errno;
            ::close(fd);
            ::unlink(temp.c_str());
            fail(std::string("cannot lock the temporary file: ") + std::strerror(err));
        }
    }
    Fd file(fd);
    const auto abandon = [&](const std::string& reason) {
        ::unlink(temp.c_str());
        fail(reason);
    };
    if (exists && ::fchmod(file.get(), old.st_mode & 07777) != 0)
        abandon(std::string("cannot keep the permissions: ") + std::strerror(errno));
    try {
        produce([&file](std::string_view block) {
            if (!writeAll(file.get(), block))
                throw TraceError(std::string("writing failed: ") + std::strerror(errno));
        });
    } catch (const TraceError& e) {
        abandon(e.what());
    } catch (...) {
        ::unlink(temp.c_str());
        throw;
    }
    if (::fsync(file.get()) != 0)
        abandon(std::string("flushing to disk failed: ") + std::strerror(errno));
    // Renamed while still open and locked: a sweep never takes a finished temporary for a dead
    // writer's.
    if (::rename(temp.c_str(), target.c_str()) != 0)
        abandon(std::string("cannot replace the file: ") + std::strerror(errno));
    if (::close(file.release()) != 0) fail(std::string("closing failed: ") + std::strerror(errno));

    // The rename is only durable once the folder's entry is on disk too. Some file systems
    // cannot flush a folder (EINVAL); the file itself is complete either way.
    Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0 && ::fsync(dir.get()) != 0 && errno != EINVAL && errno != EROFS)
        fail(std::string("flushing the folder to disk failed: ") + std::strerror(errno));
}

} // namespace rankscope
