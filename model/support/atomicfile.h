#pragma once
// Saving a file so that a crash, a full disk or a planted file never costs the old contents.
//
// The text goes to a temporary file created exclusively (O_CREAT | O_EXCL, a fresh random name
// in the target's folder, so nothing planted there is followed or truncated), is flushed to
// disk, then renamed over the target, and the folder is flushed so the rename survives a power
// cut. An existing target keeps its permission bits. A target that is a symbolic link is
// resolved first: the file it points to is replaced and the link stays a link. The temporary is
// locked while its writer lives; a writer killed mid-save leaves it, and the next save into that
// folder removes it (model/support/staging.h). Every save of a
// session, scenario or spec, and every trace export (Chrome, Paje), goes through here (the
// GUI-only exports use QSaveFile).

#include <functional>
#include <string>
#include <string_view>

namespace rankscope {

/// Replaces the contents of `path` by `contents` atomically (see above). Throws TraceError
/// "<path>: cannot write <what>: <reason>" and leaves the old file as it was on any failure.
void writeFileAtomically(const std::string& path, std::string_view contents,
                         const std::string& what = "the file");

/// Where writeStreamAtomically's producer hands its blocks; a failed write throws TraceError.
using BlockSink = std::function<void(std::string_view)>;

/// As writeFileAtomically, with the contents produced block by block: `produce` is called once
/// with the sink that writes them, so a large export never has to be held in memory. A
/// TraceError from `produce` (or the sink) abandons the temporary file and is reported as
/// "<path>: cannot write <what>: <its message>"; any other exception abandons it and passes.
void writeStreamAtomically(const std::string& path,
                           const std::function<void(const BlockSink&)>& produce,
                           const std::string& what = "the file");

/// The file `path` names after following every symbolic link of its last component (also when
/// the final target does not exist yet): what a save writes. Throws TraceError on a link loop.
std::string followSymlinks(const std::string& path);

} // namespace rankscope
