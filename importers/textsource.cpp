#include "importers/textsource.h"

#include "importers/linepipeline.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <zlib.h>

namespace rankscope::text {

TextSource::TextSource(const std::string& path, const std::string& what) : path_(path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw TraceError(path + ": cannot open the " + what + " (no such file)");
    if (!std::filesystem::is_regular_file(status))
        throw TraceError(path + ": cannot open the " + what + " (not a regular file)");
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        throw TraceError(path + ": cannot open the " + what + " (" + std::strerror(errno) + ")");
    gzbuffer(f, 1 << 18);
    file_ = f;
    size_ = std::filesystem::file_size(path, ec);
    if (ec) size_ = 0;
}

TextSource::~TextSource()
{
    if (file_) gzclose(static_cast<gzFile>(file_));
}

size_t TextSource::read(char* into, size_t max)
{
    auto* f = static_cast<gzFile>(file_);
    const int got = gzread(f, into, unsigned(std::min<size_t>(max, INT_MAX)));
    // gzread hands out what was decompressed before damaged data; the error shows when it
    // returns nothing more, at the line where the data ends.
    if (got > 0) return size_t(got);
    int err = Z_OK;
    const char* message = gzerror(f, &err);
    if (got < 0 || (err != Z_OK && err != Z_STREAM_END)) {
        reason_ = err == Z_ERRNO ? std::strerror(errno) : message;
        if (reason_.rfind(path_ + ": ", 0) == 0) reason_.erase(0, path_.size() + 2);
        return text::kReadFailed;
    }
    return 0;
}

std::exception_ptr TextSource::failure(uint64_t nextLine) const
{
    return std::make_exception_ptr(TraceError(path_ + ": line " + std::to_string(nextLine) +
                                              ": damaged or truncated compressed data (" + reason_ +
                                              ")"));
}

uint64_t TextSource::offset() const
{
    const z_off_t at = gzoffset(static_cast<gzFile>(file_));
    return at < 0 ? 0 : uint64_t(at);
}

} // namespace rankscope::text
