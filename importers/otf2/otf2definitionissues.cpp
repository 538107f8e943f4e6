#include "importers/otf2/otf2definitionissues.h"

#include <cstdio>

namespace rankscope {

namespace {

// A file damaged all over would otherwise print thousands of lines.
constexpr size_t kMaxWarnings = 20;

/// `text` with every byte outside printable ASCII as \xHH, quoted.
std::string escaped(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
            out += c;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", b);
            out += hex;
        }
    }
    return out + "\"";
}

std::string others(size_t more)
{
    if (more == 0) return {};
    return " (and " + std::to_string(more) +
           (more == 1 ? " other definition)" : " other definitions)");
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    size_t i = 0;
    while (i < text.size()) {
        const auto b = static_cast<unsigned char>(text[i]);
        size_t length = 0;
        uint32_t min = 0, value = 0;
        if (b < 0x80) {
            ++i;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            length = 2, min = 0x80, value = b & 0x1F;
        } else if ((b & 0xF0) == 0xE0) {
            length = 3, min = 0x800, value = b & 0x0F;
        } else if ((b & 0xF8) == 0xF0) {
            length = 4, min = 0x10000, value = b & 0x07;
        } else {
            return false; // a continuation byte first, or 0xF8..0xFF
        }
        if (i + length > text.size()) return false;
        for (size_t k = 1; k < length; ++k) {
            const auto c = static_cast<unsigned char>(text[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            value = (value << 6) | (c & 0x3F);
        }
        if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

std::string Otf2DefinitionIssues::placeholder(uint32_t ref)
{
    return "<undefined string " + std::to_string(ref) + ">";
}

void Otf2DefinitionIssues::undefinedString(uint32_t ref, const std::string& user)
{
    auto [it, added] = undefined_.try_emplace(ref, Uses{user, 0, {}});
    if (!added) ++it->second.more;
}

void Otf2DefinitionIssues::checkUtf8(uint32_t ref, const std::string& text, const std::string& user)
{
    auto [checked, first] = utf8Checked_.try_emplace(ref, false);
    if (first) checked->second = isValidUtf8(text);
    if (checked->second) return;
    auto [it, added] = invalidUtf8_.try_emplace(ref, Uses{user, 0, text});
    if (!added) ++it->second.more;
}

void Otf2DefinitionIssues::note(std::string what)
{
    notes_.push_back(std::move(what));
}

std::vector<std::string> Otf2DefinitionIssues::warnings(const std::string& file) const
{
    std::vector<std::string> all;
    for (const auto& [ref, u] : undefined_)
        all.push_back(file + ": " + u.first + others(u.more) + " refers to undefined string " +
                      std::to_string(ref) + "; shown as \"" + placeholder(ref) + "\"");
    for (const auto& [ref, u] : invalidUtf8_)
        all.push_back(file + ": " + u.first + others(u.more) + ", string " + std::to_string(ref) +
                      " " + escaped(u.text) +
                      ", is not valid UTF-8 (JSON output shows U+FFFD for the bad bytes)");
    for (const std::string& n : notes_)
        all.push_back(file + ": " + n);
    if (all.size() > kMaxWarnings) {
        const size_t rest = all.size() - (kMaxWarnings - 1);
        all.resize(kMaxWarnings - 1);
        all.push_back(file + ": " + std::to_string(rest) +
                      " more problems of the global definitions (references to undefined "
                      "definitions or names that are not UTF-8) not listed");
    }
    return all;
}

} // namespace rankscope
