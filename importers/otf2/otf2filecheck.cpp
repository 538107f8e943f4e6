#include "importers/otf2/otf2filecheck.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace rankscope::otf2read {

FileKind fileKind(const std::string& path, std::string* what)
{
    const auto other = [what](const std::string& text) {
        if (what) *what = text;
        return FileKind::Other;
    };
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return FileKind::Missing;
        return other(std::string("cannot examine it: ") + std::strerror(errno));
    }
    if (S_ISREG(st.st_mode)) return FileKind::Regular;
    if (S_ISDIR(st.st_mode)) return other("a folder");
    if (S_ISFIFO(st.st_mode)) return other("a FIFO (named pipe)");
    if (S_ISCHR(st.st_mode)) return other("a character device");
    if (S_ISBLK(st.st_mode)) return other("a block device");
    if (S_ISSOCK(st.st_mode)) return other("a socket");
    return other("not a regular file");
}

} // namespace rankscope::otf2read
