#pragma once
// Reads a Paraver file (the .pcf, .row) line by line, gzip-compressed or plain, through
// text::TextSource (importers/textsource.h), in blocks of a few MiB the lines are cut out of.
// Errors name the file and the line. The .prv itself is read by the two-stage pipeline
// (importers/linepipeline.h).

#include "importers/textsource.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rankscope::paraver {

class LineReader
{
public:
    /// Opens `path`; throws TraceError "<path>: cannot open ... (<reason>)" when it cannot.
    explicit LineReader(const std::string& path);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// The next line without its end ("\n" or "\r\n"); false at the end of the file. Throws
    /// TraceError for damaged compressed data (a truncated .gz) or a read error.
    bool next(std::string& line);
    /// The same as a view into the reader's buffer, valid until the next call: no copy.
    bool next(std::string_view& line);
    /// The number of the line last returned (1 for the first).
    uint64_t lineNumber() const { return line_; }
    const std::string& path() const { return path_; }
    /// Bytes of the file consumed so far (compressed bytes for a .gz), for progress.
    uint64_t offset() const;
    /// TraceError "<path>: line N: <what>".
    [[noreturn]] void fail(std::string_view what) const;

private:
    std::string path_;
    std::unique_ptr<text::TextSource> source_;
    uint64_t line_ = 0;
    static constexpr size_t kBlock = size_t(4) << 20;
    std::string buffer_; ///< read ahead in blocks; lines are cut out of it
    size_t begin_ = 0;   ///< the first byte not yet returned
    size_t end_ = 0;     ///< the end of what was read
    bool eof_ = false;
};

} // namespace rankscope::paraver
