// SpecReader: the `networks:` entries (topologies and their parameters).

#include "whatif/netsim/specreader.h"

#include <numeric>

namespace rankscope::netsim {

namespace {

struct TopologyName
{
    std::string_view name;
    TopologyKind kind;
};
constexpr TopologyName kTopologies[] = {
    {"crossbar", TopologyKind::Crossbar},   {"single_switch", TopologyKind::Crossbar},
    {"fat_tree", TopologyKind::FatTree},    {"torus", TopologyKind::Torus},
    {"ring", TopologyKind::Ring},           {"double_ring", TopologyKind::DoubleRing},
    {"dragonfly", TopologyKind::Dragonfly}, {"clusters", TopologyKind::Clusters},
    {"explicit", TopologyKind::Explicit}};

} // namespace

std::string_view topologyName(TopologyKind kind)
{
    for (const TopologyName& t : kTopologies)
        if (t.kind == kind) return t.name;
    return "?";
}

void SpecReader::readNetwork(const YAML::Node& node, const std::string& path, NetworkSpec& spec)
{
    checkKeys(node, path,
              {"topology", "routing", "link", "uplink", "wan", "dims", "k", "levels", "group",
               "groups", "routers_per_group", "nodes_per_router", "switches", "links"});
    NetworkDef net;
    net.name = path.substr(path.find('.') + 1);
    const YAML::Node topo = require(node, path, "topology");
    const std::string t = text(topo, joinKey(path, "topology"));
    bool known = false;
    for (const TopologyName& n : kTopologies)
        if (n.name == t) {
            net.topology = n.kind;
            known = true;
        }
    if (!known)
        fail(topo, joinKey(path, "topology"),
             "expected crossbar, single_switch, fat_tree, torus, ring, double_ring, dragonfly, "
             "clusters or explicit, got '" +
                 t + "'");
    if (const YAML::Node r = node["routing"]) {
        const std::string v = text(r, joinKey(path, "routing"));
        if (v == "shortest_path")
            net.routing = Routing::ShortestPath;
        else if (v == "dimension_order" && net.topology == TopologyKind::Torus)
            net.routing = Routing::DimensionOrder;
        else
            fail(r, joinKey(path, "routing"),
                 net.topology == TopologyKind::Torus
                     ? "expected shortest_path or dimension_order, got '" + v + "'"
                     : "expected shortest_path (dimension_order is for tori), got '" + v + "'");
    } else if (net.topology == TopologyKind::Torus) {
        net.routing = Routing::DimensionOrder;
    }
    auto linkKey = [&](const char* key, std::string& out, bool required) {
        const YAML::Node n = required ? require(node, path, key) : node[key];
        if (!n) return;
        checkLinkClass(n, joinKey(path, key), spec);
        out = n.Scalar();
    };
    const bool isExplicit = net.topology == TopologyKind::Explicit;
    linkKey("link", net.link, !isExplicit);
    linkKey("uplink", net.uplink, false);
    if (net.uplink.empty()) net.uplink = net.link;
    linkKey("wan", net.wan,
            net.topology == TopologyKind::Clusters || net.topology == TopologyKind::Dragonfly);

    auto counted = [&](const char* key, uint32_t min, uint32_t max) {
        return count(require(node, path, key), joinKey(path, key), min, max);
    };
    switch (net.topology) {
    case TopologyKind::Crossbar:
        break;
    case TopologyKind::FatTree:
        net.arity = counted("k", 2, 1024);
        net.levels = counted("levels", 1, 8);
        break;
    case TopologyKind::Torus:
    case TopologyKind::Clusters: {
        const YAML::Node d = require(node, path, "dims");
        const std::string dp = joinKey(path, "dims");
        if (!d.IsSequence() || d.size() == 0)
            fail(d, dp, "expected a list of sizes, e.g. [4, 4, 4]");
        if (net.topology == TopologyKind::Torus && d.size() != 2 && d.size() != 3)
            fail(d, dp, "expected 2 or 3 sizes (a 2D or 3D torus)");
        for (size_t i = 0; i < d.size(); ++i)
            net.dims.push_back(count(d[i], dp + "." + std::to_string(i), 1, 1u << 24));
        break;
    }
    case TopologyKind::Ring:
    case TopologyKind::DoubleRing:
        net.group = node["group"] ? counted("group", 2, 1u << 24) : spec.nodes;
        if (net.topology == TopologyKind::DoubleRing && net.group % 2 != 0)
            fail(node["group"], joinKey(path, "group"), "expected an even group (2 x ring size)");
        break;
    case TopologyKind::Dragonfly:
        net.groups = counted("groups", 1, 1u << 16);
        net.routersPerGroup = counted("routers_per_group", 1, 1u << 12);
        net.nodesPerRouter = counted("nodes_per_router", 1, 1u << 12);
        break;
    case TopologyKind::Explicit:
        readExplicit(node, path, spec, net);
        break;
    }
    checkNetworkSize(node, path, net, spec.nodes);
    spec.networks.push_back(std::move(net));
}

void SpecReader::readExplicit(const YAML::Node& node, const std::string& path,
                              const NetworkSpec& spec, NetworkDef& net) const
{
    net.switches =
        node["switches"] ? count(node["switches"], joinKey(path, "switches"), 0, 1u << 20) : 0;
    const YAML::Node links = require(node, path, "links");
    if (!links.IsSequence() || links.size() == 0)
        fail(links, joinKey(path, "links"), "expected a list of {from: n0, to: s0, link: CLASS}");
    for (size_t i = 0; i < links.size(); ++i) {
        const std::string lp = joinKey(path, "links") + "." + std::to_string(i);
        const YAML::Node l = links[i];
        checkKeys(l, lp, {"from", "to", "link"});
        ExplicitLink e;
        auto vertex = [&](const char* key, bool& isSwitch, uint32_t& index) {
            const YAML::Node v = require(l, lp, key);
            const std::string s = text(v, joinKey(lp, key));
            char* end = nullptr;
            const long long n = s.size() > 1 ? std::strtoll(s.c_str() + 1, &end, 10) : -1;
            isSwitch = !s.empty() && s[0] == 's';
            const long long limit = isSwitch ? net.switches : spec.nodes;
            if (s.size() < 2 || (s[0] != 'n' && s[0] != 's') || *end != '\0' || n < 0 || n >= limit)
                fail(v, joinKey(lp, key),
                     "expected a node n0..n" + std::to_string(spec.nodes - 1) +
                         (net.switches ? " or a switch s0..s" + std::to_string(net.switches - 1)
                                       : std::string()) +
                         ", got '" + s + "'");
            index = uint32_t(n);
        };
        vertex("from", e.fromSwitch, e.from);
        vertex("to", e.toSwitch, e.to);
        const YAML::Node c = l["link"] ? l["link"] : YAML::Node();
        if (c) {
            checkLinkClass(c, joinKey(lp, "link"), spec);
            e.linkClass = c.Scalar();
        } else if (net.link.empty()) {
            fail(l, joinKey(lp, "link"), "missing (no default `link` for the network)");
        } else {
            e.linkClass = net.link;
        }
        net.explicitLinks.push_back(e);
    }
}

void SpecReader::checkNetworkSize(const YAML::Node& node, const std::string& path,
                                  const NetworkDef& net, uint32_t nodes) const
{
    uint64_t has = nodes;
    const char* key = "topology";
    switch (net.topology) {
    case TopologyKind::FatTree: {
        has = 1;
        for (uint32_t i = 0; i < net.levels; ++i)
            has *= net.arity;
        key = "k";
        break;
    }
    case TopologyKind::Torus:
    case TopologyKind::Clusters:
        has = net.topology == TopologyKind::Torus
                  ? std::accumulate(net.dims.begin(), net.dims.end(), uint64_t(1),
                                    std::multiplies<>())
                  : std::accumulate(net.dims.begin(), net.dims.end(), uint64_t(0));
        key = "dims";
        break;
    case TopologyKind::Ring:
    case TopologyKind::DoubleRing:
        if (nodes % net.group != 0)
            fail(node["group"], joinKey(path, "group"),
                 "expected a group size dividing nodes (" + std::to_string(nodes) + ")");
        break;
    case TopologyKind::Dragonfly:
        has = uint64_t(net.groups) * net.routersPerGroup * net.nodesPerRouter;
        key = "groups";
        break;
    default:
        break;
    }
    if (has != nodes)
        fail(node[key] ? node[key] : node, joinKey(path, key),
             "the topology has " + std::to_string(has) +
                 " nodes, expected nodes: " + std::to_string(nodes));
}

} // namespace rankscope::netsim
