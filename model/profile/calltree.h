#pragma once
// Call-path profile (Cube's call tree): one node per call path, the chain of regions open on a
// rank's main location from the outermost one down, as main>solve>exchange. Recursion gives a
// node per depth (f>f is a child of f), as Cube shows it.
//
// Per node and rank (instances of the node's region entered with that path open):
// - visits: Enter events;
// - inclusive: the instances' durations;
// - exclusive: inclusive minus the time in child nodes.
// Exclusive times of all nodes add up to the time covered by outermost regions. Regions still
// open at the end of a location end at its last timestamp (as the flat profile does); a Leave
// closes the innermost open instance of its region and every instance above it.

#include "model/profile/rankspread.h"
#include "model/support/progressreporter.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

inline constexpr uint32_t kNoCallNode = 0xFFFFFFFFu;

struct CallTreeNode
{
    RegionId region;
    uint32_t parent = kNoCallNode;      ///< index in CallTree::nodes; kNoCallNode for a root
    std::vector<uint32_t> children;     ///< by descending inclusive time (ties by creation)
    uint64_t visits = 0;                ///< over all ranks
    int64_t inclusive = 0;              ///< over all ranks, ns
    int64_t exclusive = 0;              ///< over all ranks, ns
    std::vector<uint64_t> visitsByRank; ///< indexed by RankId
    std::vector<int64_t> inclusiveByRank;
    std::vector<int64_t> exclusiveByRank;
    RankSpread inclusivePerRank; ///< over all ranks (0 where the path never occurs)
    RankSpread exclusivePerRank;

    bool operator==(const CallTreeNode& o) const
    {
        return std::tie(region, parent, children, visits, inclusive, exclusive, visitsByRank,
                        inclusiveByRank, exclusiveByRank, inclusivePerRank, exclusivePerRank) ==
               std::tie(o.region, o.parent, o.children, o.visits, o.inclusive, o.exclusive,
                        o.visitsByRank, o.inclusiveByRank, o.exclusiveByRank, o.inclusivePerRank,
                        o.exclusivePerRank);
    }
};

struct CallTree
{
    std::vector<CallTreeNode> nodes; ///< a parent comes before its children
    std::vector<uint32_t> roots;     ///< by descending inclusive time
    bool cancelled = false;

    /// The call path of `node` as "main>solve>exchange".
    std::string path(const Trace& trace, uint32_t node) const;

    bool operator==(const CallTree& o) const
    {
        return std::tie(nodes, roots, cancelled) == std::tie(o.nodes, o.roots, o.cancelled);
    }
};

/// The call tree of every rank's main location; `progress` may cancel.
CallTree computeCallTree(const Trace& trace, const ProgressCallback& progress = {});

} // namespace rankscope
