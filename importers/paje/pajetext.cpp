#include "importers/paje/pajetext.h"

#include "importers/paje/pajeimport_p.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <optional>

namespace rankscope::paje {

static_assert(std::endian::native == std::endian::little, "blankOrEnd reads words little-endian");

namespace {

/// The first blank or tab in [p, end), or end: eight bytes at a time (a byte equal to c makes
/// (x ^ c) zero, and the lowest byte of a word that is zero sets the lowest flagged bit of the
/// classic has-zero-byte test, whose higher bits may be wrong), then byte by byte.
const char* blankOrEnd(const char* p, const char* end)
{
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        const uint64_t blank = w ^ (kOnes * ' '), tab = w ^ (kOnes * '\t');
        const uint64_t zero = (((blank - kOnes) & ~blank) | ((tab - kOnes) & ~tab)) & kHigh;
        if (zero) return p + (__builtin_ctzll(zero) >> 3); // little-endian: lowest = first
    }
    while (p < end && *p != ' ' && *p != '\t')
        ++p;
    return p;
}

} // namespace

bool split(std::string_view s, Fields& out)
{
    out.n = 0;
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t'))
            ++p;
        if (p >= end) break;
        if (out.n == kMaxFields) return true; // further fields are user fields nobody reads
        if (*p == '"') {
            const auto* close =
                static_cast<const char*>(std::memchr(p + 1, '"', size_t(end - p - 1)));
            if (!close) return false;
            out.f[out.n++] = std::string_view(p + 1, size_t(close - p - 1));
            p = close + 1;
        } else {
            const char* begin = p;
            p = blankOrEnd(p, end);
            out.f[out.n++] = std::string_view(begin, size_t(p - begin));
        }
    }
    return true;
}

std::string validUtf8(std::string_view s, uint64_t& replaced)
{
    size_t ascii = 0;
    while (ascii < s.size() && static_cast<unsigned char>(s[ascii]) < 0x80)
        ++ascii;
    if (ascii == s.size()) return std::string(s);
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + len <= s.size();
        for (size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        if (ok && len == 2) ok = c >= 0xC2;
        if (!ok) {
            out += '?';
            ++replaced;
            ++i;
            continue;
        }
        out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

namespace {

/// Times the fast path of parseSeconds does not take: exponents, odd forms, errors.
bool parseSecondsGeneral(std::string_view s, int64_t& ns)
{
    const bool negative = s[0] == '-';
    std::string_view digits = negative || s[0] == '+' ? s.substr(1) : s;
    if (digits.find_first_not_of("0123456789.eE+-") != std::string_view::npos) return false;
    if (digits.find_first_of("eE") != std::string_view::npos ||
        digits.find_first_not_of("0123456789.") != std::string_view::npos || digits.empty()) {
        // Exponent notation and the like: through a double (exact to the ns below ~100 days).
        char buffer[64];
        if (s.size() >= sizeof buffer) return false;
        std::memcpy(buffer, s.data(), s.size());
        buffer[s.size()] = 0;
        char* end = nullptr;
        const double v = std::strtod(buffer, &end);
        if (end != buffer + s.size() || !(v > -9e9 && v < 9e9)) return false;
        ns = int64_t(v * 1e9 + (v < 0 ? -0.5 : 0.5));
        return true;
    }
    return false; // a second dot, or more than 9 digits before it
}

/// The number eight ASCII digits make (the first the most significant), or nothing when a byte
/// is no digit. The test and the three multiplications are the well-known word-at-a-time
/// method (as in the fast_float library's parse_eight_digits_unrolled).
std::optional<uint32_t> eightDigits(uint64_t w)
{
    constexpr uint64_t kHighNibbles = 0xF0F0F0F0F0F0F0F0ull;
    if (((w & kHighNibbles) | (((w + 0x0606060606060606ull) & kHighNibbles) >> 4)) !=
        0x3333333333333333ull)
        return std::nullopt;
    w -= 0x3030303030303030ull;
    w = w * 10 + (w >> 8); // pairs of digits in every other byte
    w = (((w & 0x000000FF000000FFull) * 0x000F424000000064ull) +
         (((w >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >>
        32;
    return uint32_t(w);
}

} // namespace

bool parseSeconds(std::string_view s, int64_t& ns)
{
    if (s.empty()) return false;
    // The common form in one pass: [sign] up to 9 digits [. digits], rounded to the ns.
    const char* p = s.data();
    const char* const end = p + s.size();
    const bool negative = *p == '-';
    if (*p == '-' || *p == '+') ++p;
    int64_t whole = 0;
    const char* const wholeBegin = p;
    // Digits past the ninth are counted, not added (that form takes the general path below):
    // a long run of digits would overflow (found by fuzz_pajeimport).
    for (; p < end && unsigned(*p - '0') < 10; ++p)
        if (p - wholeBegin < 10) whole = whole * 10 + (*p - '0');
    const size_t wholeDigits = size_t(p - wholeBegin);
    int64_t frac = 0;
    size_t fracDigits = 0;
    bool up = false;
    if (p < end && *p == '.') {
        ++p;
        if (end - p >= 8) { // the first eight digits at once (most times have nine)
            uint64_t w;
            std::memcpy(&w, p, 8);
            if (const auto eight = eightDigits(w)) {
                frac = int64_t(*eight);
                fracDigits = 8;
                p += 8;
            }
        }
        for (; p < end && unsigned(*p - '0') < 10; ++p, ++fracDigits) {
            if (fracDigits < 9)
                frac = frac * 10 + (*p - '0');
            else if (fracDigits == 9)
                up = *p >= '5';
        }
    }
    if (p != end || wholeDigits > 9 || wholeDigits + fracDigits == 0)
        return parseSecondsGeneral(s, ns);
    static constexpr int64_t kScale[10] = {
        1'000'000'000, 100'000'000, 10'000'000, 1'000'000, 100'000, 10'000, 1'000, 100, 10, 1};
    ns = whole * 1'000'000'000 + frac * kScale[std::min<size_t>(fracDigits, 9)] + (up ? 1 : 0);
    if (negative) ns = -ns;
    return true;
}

bool eventOf(std::string_view name, Ev& e)
{
    static constexpr std::array<std::pair<std::string_view, Ev>, 18> kNames = {{
        {"PajeDefineContainerType", Ev::DefineContainerType},
        {"PajeDefineStateType", Ev::DefineStateType},
        {"PajeDefineEventType", Ev::DefineEventType},
        {"PajeDefineVariableType", Ev::DefineVariableType},
        {"PajeDefineLinkType", Ev::DefineLinkType},
        {"PajeDefineEntityValue", Ev::DefineEntityValue},
        {"PajeCreateContainer", Ev::CreateContainer},
        {"PajeDestroyContainer", Ev::DestroyContainer},
        {"PajeSetVariable", Ev::SetVariable},
        {"PajeAddVariable", Ev::AddVariable},
        {"PajeSubVariable", Ev::SubVariable},
        {"PajeSetState", Ev::SetState},
        {"PajePushState", Ev::PushState},
        {"PajePopState", Ev::PopState},
        {"PajeResetState", Ev::ResetState},
        {"PajeStartLink", Ev::StartLink},
        {"PajeEndLink", Ev::EndLink},
        {"PajeNewEvent", Ev::NewEvent},
    }};
    for (const auto& [n, ev] : kNames)
        if (n == name) {
            e = ev;
            return true;
        }
    return false;
}

int fieldOf(std::string_view name)
{
    static constexpr std::array<std::string_view, FieldCount> kNames = {
        "Time",           "Alias",        "Type",   "Container", "Name", "Value",
        "StartContainer", "EndContainer", "Key",    "Size",      "Tag",  "Comm",
        "Post",           "Paradigm",     "Role",   "Op",        "Root", "Sent",
        "Received",       "Id",           "Parent", "Members"};
    for (size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return int(i);
    return -1;
}

} // namespace rankscope::paje
