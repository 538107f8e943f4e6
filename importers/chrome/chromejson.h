#pragma once
// The JSON text pieces of the Chrome trace export: strings escaped so the output is always valid
// UTF-8 JSON whatever bytes a name holds, times in microseconds with nanosecond digits, and a
// buffer that hands its bytes to a sink in large blocks (the export never holds the document).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace rankscope::chrome {

/// Appends `s` as a JSON string, quotes included: `"` and `\` escaped, control characters as
/// \n, \t, ... or \u00XX, valid UTF-8 sequences kept, and each byte that does not start or
/// continue a valid sequence (RFC 3629: no overlong forms, surrogates or code points above
/// U+10FFFF) replaced by U+FFFD.
void appendJsonString(std::string& out, std::string_view s);

/// Appends a time or duration given in ns as microseconds, exact: 1234567 -> 1234.567,
/// 1500 -> 1.5, 2000 -> 2 (the Trace Event Format counts ts and dur in microseconds).
void appendMicros(std::string& out, int64_t ns);

void appendInt(std::string& out, int64_t v);
void appendUInt(std::string& out, uint64_t v);

/// Collects text and passes it to `sink` whenever a block is full (and on flush()). The sink
/// throws when it cannot write; what was passed before stays written.
class JsonBuffer
{
public:
    using Sink = std::function<void(std::string_view)>;

    explicit JsonBuffer(Sink sink, size_t blockBytes = size_t(1) << 20);

    /// The text being built; append to it, then call maybeFlush() once per record.
    std::string& text() { return text_; }
    void maybeFlush()
    {
        if (text_.size() >= blockBytes_) flush();
    }
    void flush();
    /// Bytes passed to the sink so far.
    uint64_t bytesWritten() const { return written_; }

private:
    Sink sink_;
    std::string text_;
    size_t blockBytes_;
    uint64_t written_ = 0;
};

} // namespace rankscope::chrome
