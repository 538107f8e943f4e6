#pragma once
// Interned strings: each distinct string is stored once and named by a StringId.

#include "model/trace/ids.h"

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope {

class StringPool
{
public:
    StringPool();
    StringPool(const StringPool& other);
    StringPool& operator=(const StringPool& other);
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;

    /// Returns the id of `s`, adding it on first sight. Id 0 is always the empty string.
    StringId intern(std::string_view s);
    /// The id of `s` if present, else an invalid id.
    StringId find(std::string_view s) const;
    std::string_view str(StringId id) const;
    size_t size() const { return strings_.size(); }
    size_t memoryBytes() const;

private:
    void rebuildIndex();
    // A deque keeps addresses stable, so the index can key on views into it.
    std::deque<std::string> strings_;
    std::unordered_map<std::string_view, uint32_t> index_;
};

} // namespace rankscope
