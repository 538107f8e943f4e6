#include "importers/paraver/paraverinput.h"

#include "importers/linepipeline.h"
#include "model/trace/traceerror.h"

#include <cstring>
#include <exception>

namespace rankscope::paraver {

LineReader::LineReader(const std::string& path)
    : path_(path), source_(std::make_unique<text::TextSource>(path, "Paraver trace"))
{
    buffer_.resize(kBlock);
}

LineReader::~LineReader() = default;

bool LineReader::next(std::string& line)
{
    std::string_view view;
    if (!next(view)) return false;
    line.assign(view);
    return true;
}

bool LineReader::next(std::string_view& line)
{
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
        const size_t got = source_->read(buffer_.data() + end_, buffer_.size() - end_);
        // The source hands out what was decompressed before damaged data; the error shows
        // when it returns nothing more, at the line where the data ends.
        if (got == text::kReadFailed) std::rethrow_exception(source_->failure(line_ + 1));
        if (got == 0) {
            eof_ = true;
            continue;
        }
        end_ += size_t(got);
    }
}

uint64_t LineReader::offset() const
{
    return source_->offset();
}

void LineReader::fail(std::string_view what) const
{
    throw TraceError(path_ + ": line " + std::to_string(line_) + ": " + std::string(what));
}

} // namespace rankscope::paraver
