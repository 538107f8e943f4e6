#pragma once
// What the global definitions get wrong without OTF2 minding: references to definitions that do
// not exist (a string id a flipped byte moved, a location group's system tree node, a
// communicator's parent), a reference to the wrong kind of group, and names that are not valid
// UTF-8. OTF2 accepts all of these, so the import does too, but each becomes a warning: many
// uses of one bad string make one warning, and a badly damaged file makes a bounded number.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

/// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or values past
/// U+10FFFF).
bool isValidUtf8(std::string_view text);

class Otf2DefinitionIssues
{
public:
    /// `user` ("the name of region 3") refers to string `ref`, which is not defined.
    void undefinedString(uint32_t ref, const std::string& user);
    /// `user` refers to string `ref`, defined as `text`; noted if it is not valid UTF-8.
    void checkUtf8(uint32_t ref, const std::string& text, const std::string& user);
    /// Any other problem, in words.
    void note(std::string what);

    /// The warnings, each starting with `file`.
    std::vector<std::string> warnings(const std::string& file) const;

    /// What a name that refers to undefined string `ref` reads as.
    static std::string placeholder(uint32_t ref);

private:
    struct Uses
    {
        std::string first; ///< the first definition found using the string
        size_t more = 0;   ///< how many others use it too
        std::string text;  ///< the string (for invalid UTF-8)
    };
    std::map<uint32_t, Uses> undefined_;
    std::map<uint32_t, Uses> invalidUtf8_;
    std::map<uint32_t, bool> utf8Checked_; ///< string ref -> valid
    std::vector<std::string> notes_;
};

} // namespace rankscope
