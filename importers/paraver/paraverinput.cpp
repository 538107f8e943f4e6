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
    buffer_.resize(kBlock);
}

LineReader::~LineReader()
{
    if (file_) gzclose(static_cast<gzFile>(file_));
}

bool LineReader::next(std::string& line)
{
    std::string_view view;
    if (!next(view)) return false;
    line.assign(view);
    return true;
}

bool LineReader::next(std::string_view& line)
{
    auto* f = static_cast<gzFile>(file_);
    constexpr size_t kLongest = size_t(1) << 26;
    for (;;) {
        const char* data = buffer_.data();
        const auto* nl = static_cast<const char*>(std::memchr(data + begin_, '\n', end_ - begin_));
        if (nl || (eof_ && begin_ < end_)) {
            const size_t stop = nl ? size_t(nl - data) : end_;
            line = std::string_view(data + begin_, stop - begin_);
            begin_ = nl ? stop + 1 : end_;
            ++line_;
            while (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            return true;
        }
        if (eof_) return false;
        if (end_ - begin_ > kLongest) {
            ++line_;
            fail("a line longer than 64 MiB: not a Paraver trace");
        }
        // Keep the unfinished line at the front and read the next block after it.
        if (begin_ > 0) {
            std::memmove(buffer_.data(), data + begin_, end_ - begin_);
            end_ -= begin_;
            begin_ = 0;
        }
        if (buffer_.size() - end_ < kBlock / 2) buffer_.resize(buffer_.size() + kBlock);
        const int got = gzread(f, buffer_.data() + end_, unsigned(buffer_.size() - end_));
        // gzread hands out what was decompressed before damaged data; the error shows when it
        // returns nothing more, at the line where the data ends.
        if (got <= 0) {
            int err = Z_OK;
            const char* message = gzerror(f, &err);
            if (got < 0 || (err != Z_OK && err != Z_STREAM_END)) {
                std::string reason = err == Z_ERRNO ? std::strerror(errno) : message;
                if (reason.rfind(path_ + ": ", 0) == 0) reason.erase(0, path_.size() + 2);
                throw TraceError(path_ + ": line " + std::to_string(line_ + 1) +
                                 ": damaged or truncated compressed data (" + reason + ")");
            }
            eof_ = true;
            continue;
        }
        end_ += size_t(got);
    }
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
