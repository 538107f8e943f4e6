#pragma once
// What kind of file an archive path is, checked before OTF2 opens it: OTF2 reads a FIFO or a
// device (say /dev/zero linked into an archive) forever or blocks on it, and reports a folder
// or a missing file in the same words, so the reader refuses anything but a regular file by
// name first.

#include <string>

namespace rankscope::otf2read {

enum class FileKind
{
    Regular, ///< a regular file, or a symbolic link to one
    Missing, ///< nothing there (or a dangling link)
    Other    ///< a folder, FIFO, device, socket, or unreadable metadata
};

/// The kind of `path` (links followed); for Other, `what` says what it is ("a FIFO (named
/// pipe)", "a character device", ...) or why it cannot be examined.
FileKind fileKind(const std::string& path, std::string* what = nullptr);

} // namespace rankscope::otf2read
