#include "model/trace/callsites.h"

namespace rankscope {

CallSiteId CallSiteTable::intern(std::string_view site)
{
    if (auto it = index_.find(site); it != index_.end()) return CallSiteId(it->second);
    const auto id = uint32_t(names_.size());
    names_.emplace_back(site);
    index_.emplace(names_.back(), id);
    return CallSiteId(id);
}

CallSiteId CallSiteTable::find(std::string_view site) const
{
    const auto it = index_.find(site);
    return it == index_.end() ? CallSiteId() : CallSiteId(it->second);
}

std::vector<CallSiteId> CallSiteTable::merge(const CallSiteTable& other)
{
    std::vector<CallSiteId> remap;
    remap.reserve(other.size());
    for (const std::string& site : other.names_)
        remap.push_back(intern(site));
    return remap;
}

} // namespace rankscope
