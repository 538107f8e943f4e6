#include "importers/chrome/chromejson.h"

#include <charconv>
#include <utility>

namespace rankscope::chrome {

namespace {

/// Length of the valid UTF-8 sequence starting at s[i] (2 to 4), or 0 when the byte there does
/// not start one (RFC 3629, section 4).
size_t utf8SequenceLength(std::string_view s, size_t i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b = byte(i);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) lo = 0xA0; // no overlong forms
        if (b == 0xED) hi = 0x9F; // no UTF-16 surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) lo = 0x90; // no overlong forms
        if (b == 0xF4) hi = 0x8F; // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

bool plainAscii(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

} // namespace

void appendJsonString(std::string& out, std::string_view s)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    size_t i = 0;
    while (i < s.size()) {
        // Runs of characters that need nothing are copied at once.
        size_t run = i;
        while (run < s.size() && plainAscii(static_cast<unsigned char>(s[run])))
            ++run;
        out.append(s.data() + i, run - i);
        i = run;
        if (i == s.size()) break;
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            const size_t n = utf8SequenceLength(s, i);
            if (n == 0) {
                out += "\xEF\xBF\xBD"; // U+FFFD for this one byte
                ++i;
            } else {
                out.append(s.data() + i, n);
                i += n;
            }
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default: // the other control characters
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xF];
            break;
        }
        ++i;
    }
    out += '"';
}

void appendMicros(std::string& out, int64_t ns)
{
    uint64_t magnitude = static_cast<uint64_t>(ns);
    if (ns < 0) {
        out += '-';
        magnitude = uint64_t(0) - magnitude;
    }
    appendUInt(out, magnitude / 1000);
    const unsigned frac = static_cast<unsigned>(magnitude % 1000);
    if (frac == 0) return;
    char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                      char('0' + frac % 10)};
    size_t n = 4;
    while (digits[n - 1] == '0')
        --n;
    out.append(digits, n);
}

void appendInt(std::string& out, int64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void appendUInt(std::string& out, uint64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

JsonBuffer::JsonBuffer(Sink sink, size_t blockBytes)
    : sink_(std::move(sink)), blockBytes_(blockBytes)
{
    // Room for a block plus the record that fills it, so appending rarely reallocates.
    text_.reserve(blockBytes_ + 64 * 1024);
}

void JsonBuffer::flush()
{
    if (text_.empty()) return;
    sink_(text_);
    written_ += text_.size();
    text_.clear();
}

} // namespace rankscope::chrome
