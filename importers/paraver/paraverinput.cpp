#include "importers/paraver/paraverinput.h"

#include "model/trace/traceerror.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <zlib.h>

namespace rankscope::paraver {

LineReader::LineReader(const std::string& path) : path_(path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw TraceError(path + ": cannot open the Paraver trace (no such file)");
    // A FIFO or a device would block or never end; only regular files are traces.
    if (!std::filesystem::is_regular_file(status))
        throw TraceError(path + ": cannot open the Paraver trace (not a regular file)");
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        throw TraceError(path + ": cannot open the Paraver trace (" + std::strerror(errno) + ")");
    gzbuffer(f, 1 << 18);
    file_ = f;
}

LineReader::~LineReader()
{
    if (file_) gzclose(static_cast<gzFile>(file_));
}

bool LineReader::next(std::string& line)
{
    auto* f = static_cast<gzFile>(file_);
    line.clear();
    char buffer[4096];
    bool any = false;
    // gzgets keeps handing out what was decompressed before damaged data; the error shows
    // when it returns nothing more, at the line where the data ends.
    while (true) {
        if (!gzgets(f, buffer, sizeof buffer)) {
            int err = Z_OK;
            const char* message = gzerror(f, &err);
            if (err != Z_OK && err != Z_STREAM_END) {
                std::string reason = err == Z_ERRNO ? std::strerror(errno) : message;
                if (reason.rfind(path_ + ": ", 0) == 0) reason.erase(0, path_.size() + 2);
                throw TraceError(path_ + ": line " + std::to_string(line_ + 1) +
                                 ": damaged or truncated compressed data (" + reason + ")");
            }
            break;
        }
        any = true;
        const size_t n = std::strlen(buffer);
        line.append(buffer, n);
        if (n > 0 && buffer[n - 1] == '\n') break;
        if (line.size() > (size_t(1) << 26)) {
            ++line_;
            fail("a line longer than 64 MiB: not a Paraver trace");
        }
    }
    if (!any) return false;
    ++line_;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.pop_back();
    return true;
}

uint64_t LineReader::offset() const
{
    const z_off_t at = gzoffset(static_cast<gzFile>(file_));
    return at < 0 ? 0 : uint64_t(at);
}

void LineReader::fail(std::string_view what) const
{
    throw TraceError(path_ + ": line " + std::to_string(line_) + ": " + std::string(what));
}

} // namespace rankscope::paraver
