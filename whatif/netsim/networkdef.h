#pragma once
// One network of a spec: a topology by name with its parameters and link classes.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::netsim {

enum class TopologyKind : uint8_t
{
    Crossbar,   ///< every node on one switch
    FatTree,    ///< k-ary n-tree: k^levels nodes, levels of k^(levels-1) switches
    Torus,      ///< 2D or 3D torus, one node per router
    Ring,       ///< rings of `group` nodes
    DoubleRing, ///< groups of 2 x (group/2) nodes: two rings joined rung by rung
    Dragonfly,  ///< groups of routers, all-to-all inside a group, one global link per group pair
    Clusters,   ///< crossbar clusters whose switches are joined by wide-area links
    Explicit,   ///< a list of links between nodes and switches
};
enum class Routing : uint8_t
{
    ShortestPath,
    DimensionOrder
};

/// A link of an explicit topology; vertices are nodes (0..nodes-1) or switches.
struct ExplicitLink
{
    bool fromSwitch = false;
    uint32_t from = 0;
    bool toSwitch = false;
    uint32_t to = 0;
    std::string linkClass;
    bool operator==(const ExplicitLink&) const = default;
};

struct NetworkDef
{
    std::string name;
    TopologyKind topology = TopologyKind::Crossbar;
    Routing routing = Routing::ShortestPath;
    std::string link; ///< class of node links (and of every link unless said otherwise)
    std::string
        uplink;      ///< fat tree: switch-to-switch links; dragonfly: router-to-router in a group
    std::string wan; ///< clusters: wide-area links; dragonfly: global links
    std::vector<uint32_t> dims;   ///< torus: 2 or 3 sizes; clusters: nodes per cluster
    uint32_t arity = 0;           ///< fat tree k
    uint32_t levels = 0;          ///< fat tree n
    uint32_t group = 0;           ///< ring / double ring: nodes per group
    uint32_t groups = 0;          ///< dragonfly groups
    uint32_t routersPerGroup = 0; ///< dragonfly a
    uint32_t nodesPerRouter = 0;  ///< dragonfly p
    uint32_t switches = 0;        ///< explicit: switch count
    std::vector<ExplicitLink> explicitLinks;

    bool operator==(const NetworkDef&) const = default;
};

std::string_view topologyName(TopologyKind kind);

} // namespace rankscope::netsim
