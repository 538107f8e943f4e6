#pragma once
// The call-site table of one analysis: each distinct call-site string ("main>solve:MPI_Send",
// "main.c:334:MPI_Recv", "MPI_Barrier") once, named by a CallSiteId. Built per trace (or per
// rank and merged, so ranks can be analysed in parallel).

#include "model/trace/ids.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope {

class CallSiteTable
{
public:
    /// Returns the id of `site`, adding it on first sight (ids are dense, in order of first sight).
    CallSiteId intern(std::string_view site);
    /// The id of `site` if present, else an invalid id.
    CallSiteId find(std::string_view site) const;
    /// The printed form of a call site.
    std::string_view name(CallSiteId id) const { return names_[id.value]; }
    size_t size() const { return names_.size(); }
    bool empty() const { return names_.empty(); }
    const std::vector<std::string>& names() const { return names_; }

    /// Adds every call site of `other`; result[i] is the id here of `other`'s id i.
    std::vector<CallSiteId> merge(const CallSiteTable& other);

    /// Same call sites with the same ids.
    bool operator==(const CallSiteTable& o) const { return names_ == o.names_; }

private:
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::vector<std::string> names_;
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
};

} // namespace rankscope
