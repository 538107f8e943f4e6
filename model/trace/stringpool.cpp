#include "model/trace/stringpool.h"

namespace rankscope {

StringPool::StringPool()
{
    intern("");
}

StringPool::StringPool(const StringPool& other) : strings_(other.strings_)
{
    rebuildIndex();
}

StringPool& StringPool::operator=(const StringPool& other)
{
    if (this != &other) {
        strings_ = other.strings_;
        rebuildIndex();
    }
    return *this;
}

void StringPool::rebuildIndex()
{
    index_.clear();
    for (uint32_t i = 0; i < strings_.size(); ++i)
        index_.emplace(std::string_view(strings_[i]), i);
}

StringId StringPool::intern(std::string_view s)
{
    if (auto it = index_.find(s); it != index_.end()) return StringId(it->second);
    strings_.emplace_back(s);
    const auto id = static_cast<uint32_t>(strings_.size() - 1);
    index_.emplace(std::string_view(strings_.back()), id);
    return StringId(id);
}

StringId StringPool::find(std::string_view s) const
{
    auto it = index_.find(s);
    return it == index_.end() ? StringId() : StringId(it->second);
}

std::string_view StringPool::str(StringId id) const
{
    if (!id.valid() || id.value >= strings_.size()) return {};
    return strings_[id.value];
}

size_t StringPool::memoryBytes() const
{
    size_t bytes = 0;
    for (const auto& s : strings_)
        bytes += sizeof(std::string) + (s.capacity() > 15 ? s.capacity() : 0);
    return bytes + index_.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 16);
}

} // namespace rankscope
