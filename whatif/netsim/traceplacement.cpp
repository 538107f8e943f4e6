#include "whatif/netsim/traceplacement.h"

#include "model/trace/traceerror.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope::netsim {

namespace {

/// The node of each rank in order of first appearance; empty when some rank has no host.
std::vector<uint32_t> recordedNodes(const Trace& trace)
{
    std::vector<uint32_t> table;
    table.reserve(trace.rankCount());
    std::unordered_map<uint32_t, uint32_t> index;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        const StringId host = trace.rank(RankId(r)).host;
        if (!host.valid()) return {};
        table.push_back(index.emplace(host.value, uint32_t(index.size())).first->second);
    }
    return table;
}

} // namespace

uint32_t recordedNodeCount(const Trace& trace)
{
    const std::vector<uint32_t> table = recordedNodes(trace);
    return table.empty() ? 0 : *std::max_element(table.begin(), table.end()) + 1;
}

NetworkSpec placedAsRecorded(const NetworkSpec& spec, const Trace& trace, std::string* note)
{
    if (spec.mapping != RankMapping::Trace) return spec;
    NetworkSpec placed = spec;
    std::vector<uint32_t> table = recordedNodes(trace);
    if (table.empty()) {
        placed.mapping = RankMapping::Block;
        if (note)
            *note = spec.source +
                    ": mapping: trace, but the trace does not record the compute "
                    "node of every rank; placed block, " +
                    std::to_string(spec.ranksPerNode) + " per node";
        return placed;
    }
    const uint32_t nodes = *std::max_element(table.begin(), table.end()) + 1;
    if (nodes > spec.nodes)
        throw TraceError(spec.source + ": mapping: trace: the trace ran on " +
                         std::to_string(nodes) + " compute nodes, the machine has " +
                         std::to_string(spec.nodes) + " (raise nodes)");
    std::vector<uint32_t> perNode(nodes, 0);
    for (uint32_t n : table)
        ++perNode[n];
    placed.ranksPerNode =
        std::max(spec.ranksPerNode, *std::max_element(perNode.begin(), perNode.end()));
    placed.mapping = RankMapping::File;
    placed.mappingTable = std::move(table);
    return placed;
}

} // namespace rankscope::netsim
