#include "whatif/netsim/topology.h"

#include "model/trace/traceerror.h"

#include <algorithm>
#include <limits>

namespace rankscope::netsim {

namespace {
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
} // namespace

Topology::Topology(const NetworkSpec& spec, const NetworkDef& def)
    : spec_(spec), kind_(def.topology), nodes_(spec.nodes), vertices_(spec.nodes)
{
    const LinkClass* link = spec.link(def.link);
    const LinkClass* up = spec.link(def.uplink);
    switch (def.topology) {
    case TopologyKind::Crossbar:
        buildCrossbar(*link);
        break;
    case TopologyKind::FatTree:
        buildFatTree(def, *link, up ? *up : *link);
        break;
    case TopologyKind::Torus:
        buildTorus(def, *link);
        break;
    case TopologyKind::Ring:
    case TopologyKind::DoubleRing:
        buildRings(def, *link);
        break;
    case TopologyKind::Dragonfly:
        buildDragonfly(def, spec);
        break;
    case TopologyKind::Clusters:
        buildClusters(def, spec);
        break;
    case TopologyKind::Explicit:
        buildExplicit(def, spec);
        break;
    }
    out_.resize(vertices_);
    for (uint32_t i = 0; i < links_.size(); ++i)
        out_[links_[i].from].push_back(i);
    parents_.resize(nodes_);
}

std::pair<uint64_t, uint64_t> Topology::plannedSize(const NetworkSpec& spec, const NetworkDef& def)
{
    // Each count follows the build function of its kind below: one connect() is two links.
    const uint64_t n = spec.nodes;
    uint64_t pairs = 0, switches = 0;
    switch (def.topology) {
    case TopologyKind::Crossbar:
        pairs = n, switches = 1;
        break;
    case TopologyKind::FatTree: {
        uint64_t perLevel = 1;
        for (uint32_t i = 1; i < def.levels; ++i)
            perLevel *= def.arity;
        switches = perLevel * def.levels;
        pairs = n + uint64_t(def.levels ? def.levels - 1 : 0) * perLevel * def.arity;
        break;
    }
    case TopologyKind::Torus:
        for (uint32_t size : def.dims)
            pairs += size < 2 ? 0 : size == 2 ? n / 2 : n;
        break;
    case TopologyKind::Ring:
    case TopologyKind::DoubleRing:
        pairs = def.topology == TopologyKind::DoubleRing ? n + n / 2 : n;
        break;
    case TopologyKind::Dragonfly: {
        const uint64_t a = def.routersPerGroup, g = def.groups;
        switches = g * a;
        pairs = n + g * (a * (a ? a - 1 : 0) / 2) + g * (g ? g - 1 : 0) / 2;
        break;
    }
    case TopologyKind::Clusters: {
        const uint64_t c = def.dims.size();
        switches = c;
        pairs = n + c * (c ? c - 1 : 0) / 2;
        break;
    }
    case TopologyKind::Explicit:
        switches = def.switches;
        pairs = def.explicitLinks.size();
        break;
    }
    return {2 * pairs, n + switches};
}

uint32_t Topology::connect(uint32_t a, uint32_t b, const LinkClass& c)
{
    const uint32_t id = uint32_t(links_.size());
    // Every class passed here is one of the spec's own (NetworkSpec::link()).
    const auto cls = uint32_t(&c - spec_.links.data());
    links_.push_back(
        Link{a, b, c.latencyNs, c.bytesPerNs, c.sharingOr(1), c.maxStreams, c.congestion, cls});
    links_.push_back(
        Link{b, a, c.latencyNs, c.bytesPerNs, c.sharingOr(1), c.maxStreams, c.congestion, cls});
    return id;
}

std::string Topology::vertexName(uint32_t vertex) const
{
    if (vertex < nodes_) return "n" + std::to_string(vertex);
    const uint32_t s = vertex - nodes_;
    switch (kind_) {
    case TopologyKind::Crossbar:
        return "switch";
    case TopologyKind::FatTree:
        return "s" + std::to_string(s / perLevel_) + "." + std::to_string(s % perLevel_);
    case TopologyKind::Dragonfly:
        return "r" + std::to_string(s / perLevel_) + "." + std::to_string(s % perLevel_);
    case TopologyKind::Clusters:
        return "c" + std::to_string(s);
    default:
        return "s" + std::to_string(s);
    }
}

void Topology::buildCrossbar(const LinkClass& c)
{
    // Links 2i (node i -> switch) and 2i+1 (switch -> node i): routes need no search.
    const uint32_t sw = addVertex();
    for (uint32_t n = 0; n < nodes_; ++n)
        connect(n, sw, c);
    crossbarPath_ = PathInfo{c.latencyNs + c.latencyNs, c.bytesPerNs, 2};
}

void Topology::buildFatTree(const NetworkDef& def, const LinkClass& edge, const LinkClass& core)
{
    // k-ary n-tree: switch <w, l> (w has n-1 base-k digits) joins <w', l+1> when w and w'
    // differ at most in digit l; node p hangs off leaf switch <p / k, 0>.
    const uint32_t k = def.arity;
    uint32_t perLevel = 1;
    for (uint32_t i = 1; i < def.levels; ++i)
        perLevel *= k;
    const uint32_t first = vertices_;
    perLevel_ = perLevel;
    vertices_ += perLevel * def.levels;
    auto sw = [&](uint32_t w, uint32_t l) { return first + l * perLevel + w; };
    for (uint32_t p = 0; p < nodes_; ++p)
        connect(p, sw(p / k, 0), edge);
    uint32_t digit = 1;
    for (uint32_t l = 0; l + 1 < def.levels; ++l, digit *= k)
        for (uint32_t w = 0; w < perLevel; ++w) {
            const uint32_t base = w - (w / digit) % k * digit;
            for (uint32_t d = 0; d < k; ++d)
                connect(sw(w, l), sw(base + d * digit, l + 1), core);
        }
}

void Topology::buildTorus(const NetworkDef& def, const LinkClass& c)
{
    dims_ = def.dims;
    dimensionOrder_ = def.routing == Routing::DimensionOrder;
    const uint32_t nd = uint32_t(dims_.size());
    torusLinks_.assign(size_t(nodes_) * nd * 2, kNone);
    uint32_t stride = 1;
    for (uint32_t d = 0; d < nd; stride *= dims_[d], ++d) {
        const uint32_t size = dims_[d];
        if (size < 2) continue;
        for (uint32_t v = 0; v < nodes_; ++v) {
            const uint32_t coord = (v / stride) % size;
            if (size == 2 && coord == 1) continue; // the two neighbours are one node
            const uint32_t next = v - coord * stride + ((coord + 1) % size) * stride;
            const uint32_t id = connect(v, next, c);
            torusLinks_[(size_t(v) * nd + d) * 2] = id;
            torusLinks_[(size_t(next) * nd + d) * 2 + 1] = id + 1;
            if (size == 2) {
                torusLinks_[(size_t(v) * nd + d) * 2 + 1] = id;
                torusLinks_[(size_t(next) * nd + d) * 2] = id + 1;
            }
        }
    }
}

void Topology::buildRings(const NetworkDef& def, const LinkClass& c)
{
    // Double ring: a group of 2h nodes is two rings of h (node j: ring j / h, position j % h),
    // joined rung by rung.
    subclusterSize_ = def.group;
    const bool dbl = def.topology == TopologyKind::DoubleRing;
    const uint32_t h = dbl ? def.group / 2 : def.group;
    for (uint32_t base = 0; base < nodes_; base += def.group)
        for (uint32_t ring = 0; ring < (dbl ? 2u : 1u); ++ring)
            for (uint32_t pos = 0; pos < h; ++pos) {
                const uint32_t v = base + ring * h + pos;
                if (h > 2 || (h == 2 && pos == 0)) connect(v, base + ring * h + (pos + 1) % h, c);
                if (dbl && ring == 0) connect(v, v + h, c);
            }
}

void Topology::buildDragonfly(const NetworkDef& def, const NetworkSpec& spec)
{
    const uint32_t a = def.routersPerGroup;
    perLevel_ = a;
    const uint32_t first = vertices_;
    vertices_ += def.groups * a;
    subclusterSize_ = a * def.nodesPerRouter;
    for (uint32_t n = 0; n < nodes_; ++n)
        connect(n, first + n / def.nodesPerRouter, *spec.link(def.link));
    for (uint32_t g = 0; g < def.groups; ++g)
        for (uint32_t r = 0; r < a; ++r)
            for (uint32_t s = r + 1; s < a; ++s)
                connect(first + g * a + r, first + g * a + s, *spec.link(def.uplink));
    // One global link per pair of groups, spread over the routers of each group.
    for (uint32_t g = 0; g < def.groups; ++g)
        for (uint32_t h = g + 1; h < def.groups; ++h)
            connect(first + g * a + h % a, first + h * a + g % a, *spec.link(def.wan));
}

void Topology::buildClusters(const NetworkDef& def, const NetworkSpec& spec)
{
    const uint32_t first = vertices_;
    vertices_ += uint32_t(def.dims.size());
    subclusterSize_ = 0;
    uint32_t node = 0;
    for (uint32_t c = 0; c < def.dims.size(); ++c)
        for (uint32_t i = 0; i < def.dims[c]; ++i)
            connect(node++, first + c, *spec.link(def.link));
    for (uint32_t c = 0; c < def.dims.size(); ++c)
        for (uint32_t d = c + 1; d < def.dims.size(); ++d)
            connect(first + c, first + d, *spec.link(def.wan));
    // Equal clusters are the common case; sub-cluster = cluster when all have one size.
    if (std::all_of(def.dims.begin(), def.dims.end(), [&](uint32_t s) { return s == def.dims[0]; }))
        subclusterSize_ = def.dims[0];
}

void Topology::buildExplicit(const NetworkDef& def, const NetworkSpec& spec)
{
    const uint32_t first = vertices_;
    vertices_ += def.switches;
    for (const ExplicitLink& l : def.explicitLinks)
        connect(l.fromSwitch ? first + l.from : l.from, l.toSwitch ? first + l.to : l.to,
                *spec.link(l.linkClass));
}

} // namespace rankscope::netsim
