#include "model/trace/callsiteresolver.h"

#include "model/trace/trace.h"

namespace rankscope {

CallSiteResolver::CallSiteResolver(const Trace& trace, CallSiteTable& table)
    : trace_(trace), table_(table)
{
    nodes_.push_back({kRootPath, RegionId()});
}

uint32_t CallSiteResolver::childPath(uint32_t parent, RegionId region)
{
    const auto [it, added] =
        children_.try_emplace(pairKey(parent, region.value), uint32_t(nodes_.size()));
    if (added) nodes_.push_back({parent, region});
    return it->second;
}

CallSiteId CallSiteResolver::resolve(const SourceLocation* where, uint32_t path, RegionId mpiRegion)
{
    // (a) an explicit source location of the call wins over everything else.
    if (where && where->file.valid()) {
        const SourceKey key{where->file.value, where->line, mpiRegion.value};
        if (auto it = bySource_.find(key); it != bySource_.end()) return it->second;
        scratch_.assign(trace_.str(where->file));
        if (where->line > 0) {
            scratch_ += ':';
            scratch_ += std::to_string(where->line);
        }
        scratch_ += ':';
        scratch_ += trace_.regionName(mpiRegion);
        const CallSiteId id = table_.intern(scratch_);
        bySource_.emplace(key, id);
        return id;
    }
    // (b) the call path plus the function, or (c) the function alone at the root path.
    const uint64_t key = pairKey(path, mpiRegion.value);
    if (auto it = byPath_.find(key); it != byPath_.end()) return it->second;
    scratch_.clear();
    if (path != kRootPath) {
        appendPath(path);
        scratch_ += ':';
    }
    scratch_ += trace_.regionName(mpiRegion);
    const CallSiteId id = table_.intern(scratch_);
    byPath_.emplace(key, id);
    return id;
}

void CallSiteResolver::appendPath(uint32_t path)
{
    // Walk to the root, then print outermost first; iterative because recursion can be deep.
    pathScratch_.clear();
    for (uint32_t n = path; n != kRootPath; n = nodes_[n].parent)
        pathScratch_.push_back(nodes_[n].region);
    for (auto it = pathScratch_.rbegin(); it != pathScratch_.rend(); ++it) {
        if (it != pathScratch_.rbegin()) scratch_ += '>';
        scratch_ += trace_.regionName(*it);
    }
}

} // namespace rankscope
