#include "model/trace/partialmark.h"

namespace rankscope {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::string partialMark(const TraceDiagnostics& diagnostics)
{
    if (!diagnostics.partial) return {};
    std::string mark(kPartialMarkPrefix);
    const size_t n = diagnostics.warnings.size();
    if (n == 0) return mark;
    std::string first = diagnostics.warnings.front();
    for (char& c : first) // one line, whatever the warning held
        if (c == '\n' || c == '\r') c = ' ';
    constexpr size_t kMost = 300;
    if (first.size() > kMost) first = first.substr(0, kMost) + "...";
    return mark + " (" + std::to_string(n) + " warning(s); the first: " + first + ")";
}

bool isPartialMark(std::string_view text)
{
    return trimmed(text).substr(0, kPartialMarkPrefix.size()) == kPartialMarkPrefix;
}

std::string partialMarkWarning(const std::string& where, std::string_view mark)
{
    std::string_view rest = trimmed(mark).substr(kPartialMarkPrefix.size());
    return where + ": " +
           std::string(kPartialMarkPrefix.substr(std::string_view("rankscope: ").size())) +
           std::string(rest) + "; what it lacks is missing here too";
}

} // namespace rankscope
