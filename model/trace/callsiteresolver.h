#pragma once
// Names the call site of each MPI call during one pass over a rank's events.
//
// Design note: building the printed call site ("main>solve>exchange:MPI_Send") for every call
// would allocate per event. Instead the scanner keeps, per stack frame, a node of a calling-
// context tree (parent node, region), and the resolver caches (call path node, MPI region) and
// (file, line, MPI region) -> CallSiteId. A string is built only the first time a key is seen,
// so the work per call is a hash lookup and memory grows with distinct call paths, not events.
// Path nodes are local to one resolver; use one resolver per rank pass.

#include "model/trace/callsites.h"
#include "model/trace/eventstream.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Trace;

class CallSiteResolver
{
public:
    /// The empty call path (no enclosing user region).
    static constexpr uint32_t kRootPath = 0;

    /// Resolves call sites of `trace` into `table`; both must outlive the resolver.
    CallSiteResolver(const Trace& trace, CallSiteTable& table);

    /// The call path `parent` extended by the user region `region`.
    uint32_t childPath(uint32_t parent, RegionId region);
    /// Call site of a call of `mpiRegion`: at `where` if known, else from call path `path`.
    CallSiteId resolve(const SourceLocation* where, uint32_t path, RegionId mpiRegion);

    const CallSiteTable& table() const { return table_; }

private:
    struct PathNode
    {
        uint32_t parent;
        RegionId region;
    };
    struct SourceKey
    {
        uint32_t file;
        uint32_t line;
        uint32_t region;
        bool operator==(const SourceKey&) const = default;
    };
    struct SourceKeyHash
    {
        size_t operator()(const SourceKey& k) const
        {
            return std::hash<uint64_t>{}((uint64_t(k.file) << 32 | k.line) * 0x9E3779B97F4A7C15ull ^
                                         k.region);
        }
    };

    static uint64_t pairKey(uint32_t a, uint32_t b) { return uint64_t(a) << 32 | b; }
    void appendPath(uint32_t path);

    const Trace& trace_;
    CallSiteTable& table_;
    std::vector<PathNode> nodes_; // nodes_[0] is the root
    std::unordered_map<uint64_t, uint32_t> children_;
    std::unordered_map<uint64_t, CallSiteId> byPath_;
    std::unordered_map<SourceKey, CallSiteId, SourceKeyHash> bySource_;
    std::string scratch_; // reused to build names on a cache miss
    std::vector<RegionId> pathScratch_;
};

} // namespace rankscope
