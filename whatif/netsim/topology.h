#pragma once
// The links of one network as a graph, and routes over it.
//
// Vertices are the nodes (0 .. nodes-1) followed by switches or routers. Every physical link is
// two directed links (full duplex), each with its class's latency and bandwidth. Routes are
// lists of directed link ids: computed directly for a crossbar and by dimension order on a
// torus, otherwise by breadth-first search (fewest hops, ties to the lower link id, so routes
// are deterministic), cached per source node while the graph is small enough.

#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::netsim {

struct Link
{
    uint32_t from = 0;
    uint32_t to = 0;
    double latencyNs = 0;
    double bytesPerNs = 0;
    double sharing = 1;      ///< LinkClass::sharing
    uint32_t maxStreams = 0; ///< LinkClass::maxStreams
    double congestion = 1;   ///< LinkClass::congestion
    uint32_t linkClass = 0;  ///< index of its class in NetworkSpec::links
};

/// End-to-end figures of a route: what the analytic model needs.
struct PathInfo
{
    double latencyNs = 0;  ///< sum over the links
    double bytesPerNs = 0; ///< the narrowest link (0 for a route of no links)
    uint32_t hops = 0;
};

class Topology
{
public:
    /// Builds network `def` of `spec`.
    Topology(const NetworkSpec& spec, const NetworkDef& def);

    /// The directed links and the vertices (nodes and switches) network `def` of `spec` will
    /// have, counted from the spec's figures before anything is built (rings: at most).
    static std::pair<uint64_t, uint64_t> plannedSize(const NetworkSpec& spec,
                                                     const NetworkDef& def);

    uint32_t nodeCount() const { return nodes_; }
    uint32_t vertexCount() const { return vertices_; }
    const std::vector<Link>& links() const { return links_; }
    /// A vertex's name: "n<i>" for node i, else the switch or router by its place ("switch" of a
    /// crossbar, "s<level>.<index>" in a fat tree, "r<group>.<router>" in a dragonfly,
    /// "c<cluster>" for a cluster's switch, "s<index>" in an explicit topology).
    std::string vertexName(uint32_t vertex) const;
    /// Appends the directed links from node `src` to node `dst` to `route` (none when equal).
    void route(uint32_t src, uint32_t dst, std::vector<uint32_t>& route) const;
    PathInfo path(uint32_t src, uint32_t dst) const
    {
        if (src == dst) return PathInfo{};
        // The common case, asked once per message: no call.
        return kind_ == TopologyKind::Crossbar ? crossbarPath_ : routedPath(src, dst);
    }
    /// The sub-cluster of a node: its ring group or cluster; 0 on topologies without them.
    uint32_t subcluster(uint32_t node) const
    {
        return subclusterSize_ ? node / subclusterSize_ : 0;
    }

private:
    uint32_t addVertex() { return vertices_++; }
    /// Adds both directions; returns the id of a -> b (b -> a is the next id).
    uint32_t connect(uint32_t a, uint32_t b, const LinkClass& c);
    void buildCrossbar(const LinkClass& c);
    void buildFatTree(const NetworkDef& def, const LinkClass& edge, const LinkClass& core);
    void buildTorus(const NetworkDef& def, const LinkClass& c);
    void buildRings(const NetworkDef& def, const LinkClass& c);
    void buildDragonfly(const NetworkDef& def, const NetworkSpec& spec);
    void buildClusters(const NetworkDef& def, const NetworkSpec& spec);
    void buildExplicit(const NetworkDef& def, const NetworkSpec& spec);
    void dimensionOrderRoute(uint32_t src, uint32_t dst, std::vector<uint32_t>& route) const;
    const std::vector<uint32_t>& parentLinks(uint32_t src) const;
    /// path() of two different nodes on a topology other than a crossbar.
    PathInfo routedPath(uint32_t src, uint32_t dst) const;

    const NetworkSpec& spec_;
    TopologyKind kind_;
    uint32_t perLevel_ = 0; // fat tree: switches per level; dragonfly: routers per group
    bool dimensionOrder_ = false;
    uint32_t nodes_ = 0;
    uint32_t vertices_ = 0;
    uint32_t subclusterSize_ = 0;
    std::vector<Link> links_;
    // Every crossbar route: up one link and down one, all of the network's one class. Kept
    // whole so a route costs no memory access (at 65536 nodes reading the two links missed
    // the cache on most messages: a tenth of a million-rank replay).
    PathInfo crossbarPath_;
    std::vector<std::vector<uint32_t>> out_;             // outgoing link ids per vertex, ascending
    std::vector<uint32_t> dims_;                         // torus sizes
    std::vector<uint32_t> torusLinks_;                   // (node * dims + d) * 2 + (0: +1, 1: -1)
    mutable std::vector<std::vector<uint32_t>> parents_; // BFS tree per source, lazily
};

} // namespace rankscope::netsim
