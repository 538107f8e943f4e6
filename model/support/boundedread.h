#pragma once
// Reading a small text file a user names (a network spec, a scenario file, a session): it must be
// a regular file of bounded size. A FIFO would block the reader forever and /dev/zero would
// never end; both are refused before they are opened.

#include <cstdint>
#include <string>

namespace rankscope {

/// The largest spec, scenario or session file read (16 MiB: the bundled specs are a few KiB,
/// the largest session written by the tests some hundred KiB).
inline constexpr uint64_t kMaxSmallFileBytes = uint64_t(16) << 20;

/// The whole of `path`. Throws TraceError naming the file when it does not exist, is a folder,
/// is not a regular file (a FIFO, a device, a socket), is larger than `maxBytes` or cannot be
/// read. `what` names the file's role in messages ("network spec", "session file").
std::string readSmallTextFile(const std::string& path, const std::string& what,
                              uint64_t maxBytes = kMaxSmallFileBytes);

} // namespace rankscope
