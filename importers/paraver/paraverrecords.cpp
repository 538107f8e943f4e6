#include "importers/paraver/paraverrecords.h"

#include <charconv>
#include <cstring>
#include <limits>

namespace rankscope::paraver {

void tokenizeRecord(std::string_view line, uint64_t n, RecordTokens& out)
{
    while (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    Record& r = out.records.emplace_back();
    r.number = n;
    r.text = line;
    r.first = uint32_t(out.values.size());
    if (line.empty() || line[0] == '#') return;
    const char* p = line.data();
    const char* const end = p + line.size();
    for (;;) {
        const char* const begin = p;
        const bool negative = p < end && *p == '-';
        if (negative) ++p;
        const char* const digits = p;
        uint64_t v = 0;
        while (p < end && unsigned(*p - '0') < 10)
            v = v * 10 + uint64_t(*p++ - '0');
        const size_t count = size_t(p - digits);
        const bool clean = p == end || *p == ':';
        while (p < end && *p != ':')
            ++p;
        uint8_t ok = 0;
        if (clean && count > 0) {
            bool fits = true;
            if (count > 19) { // may not fit in 64 bits: the library decides
                const auto [stop, ec] = std::from_chars(digits, digits + count, v);
                fits = ec == std::errc() && stop == digits + count;
            }
            if (fits) {
                constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
                if (!negative) ok |= kUnsigned;
                if (negative ? v <= kMax + 1 : v <= kMax) ok |= kSigned;
            }
        }
        if (p - begin == 1 && out.values.size() == r.first) r.kind = *begin;
        out.values.push_back(negative ? uint64_t(0) - v : v);
        out.ok.push_back(ok);
        if (p == end) break;
        ++p;
    }
    r.count = uint32_t(out.values.size() - r.first);
}

std::string_view recordField(std::string_view text, size_t k)
{
    size_t begin = 0;
    for (; k > 0; --k) {
        const size_t colon = text.find(':', begin);
        if (colon == std::string_view::npos) return {};
        begin = colon + 1;
    }
    const size_t colon = text.find(':', begin);
    return text.substr(begin,
                       colon == std::string_view::npos ? std::string_view::npos : colon - begin);
}

} // namespace rankscope::paraver
