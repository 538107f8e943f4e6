#pragma once
// The bytes of a text trace for runLinePipeline (linepipeline.h): a plain or gzip-compressed
// file (zlib's gzread passes a plain file through unchanged), read in the caller's blocks.
// Errors name the file and, for damaged compressed data, the line where the data ends.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace rankscope::text {

class TextSource
{
public:
    /// Opens `path`; `what` names the format in errors ("Paraver trace"): "<path>: cannot open
    /// the <what> (no such file)", "(not a regular file)" (a FIFO or device would block), or the
    /// system's reason.
    TextSource(const std::string& path, const std::string& what);
    ~TextSource();
    TextSource(const TextSource&) = delete;
    TextSource& operator=(const TextSource&) = delete;

    /// Reads up to `max` bytes into `into`: their count, 0 at the end, kReadFailed
    /// (linepipeline.h) for damaged compressed data or a read error, which failure() gives.
    size_t read(char* into, size_t max);
    /// TraceError "<path>: line <nextLine>: damaged or truncated compressed data (<reason>)"
    /// for the error read() met.
    std::exception_ptr failure(uint64_t nextLine) const;
    /// Bytes of the file consumed so far (compressed bytes for a .gz).
    uint64_t offset() const;
    /// The file's size in bytes (compressed for a .gz); 0 when unknown.
    uint64_t size() const { return size_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    void* file_ = nullptr; // gzFile
    uint64_t size_ = 0;
    std::string reason_; ///< of the failed read
};

} // namespace rankscope::text
