#include "whatif/netsim/networklayout.h"

#include "whatif/netsim/networkaggregate.h"
#include "whatif/netsim/topology.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rankscope::netsim {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kStub = 0.35; // wrap-around stubs, in grid cells

void place(NetworkLayout& l, uint32_t v, double x, double y)
{
    l.vertices[v].x = x;
    l.vertices[v].y = y;
}

/// `count` points on a circle of `radius` around (cx, cy) from angle `from` to `to` (radians,
/// counter-clockwise, y down), both ends included unless the arc is whole.
void onArc(NetworkLayout& l, const std::vector<uint32_t>& vs, double cx, double cy, double radius,
           double from, double to)
{
    const size_t n = vs.size();
    const bool whole = to - from >= 2 * kPi - 1e-9;
    for (size_t i = 0; i < n; ++i) {
        const double t = n == 1 ? 0.5 : double(i) / double(whole ? n : n - 1);
        const double angle = from + (to - from) * t;
        place(l, vs[i], cx + radius * std::cos(angle), cy - radius * std::sin(angle));
    }
}

/// A circle's radius giving `count` points a spacing of about 1 over `fraction` of it.
double radiusFor(size_t count, double fraction)
{
    return std::max(1.0, double(count) / (2 * kPi * fraction));
}

void crossbar(NetworkLayout& l, uint32_t nodes)
{
    std::vector<uint32_t> vs(nodes);
    for (uint32_t n = 0; n < nodes; ++n)
        vs[n] = n;
    const double r = radiusFor(nodes, 1);
    onArc(l, vs, 0, 0, r, kPi / 2, kPi / 2 + 2 * kPi);
    for (uint32_t v = nodes; v < l.vertices.size(); ++v)
        place(l, v, 0, 0);
}

void fatTree(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    l.sameScale = false;
    const uint32_t switches = uint32_t(l.vertices.size()) - nodes;
    const uint32_t perLevel = def.levels ? switches / def.levels : switches;
    const double width = std::max(1.0, double(nodes));
    for (uint32_t n = 0; n < nodes; ++n)
        place(l, n, double(n) + 0.5, double(def.levels));
    for (uint32_t s = 0; s < switches; ++s) {
        const uint32_t level = perLevel ? s / perLevel : 0, w = perLevel ? s % perLevel : s;
        place(l, nodes + s, (double(w) + 0.5) * width / double(std::max(1u, perLevel)),
              double(def.levels) - 1 - double(level));
    }
}

/// The torus grid: x along the first dimension, y along the second, planes of the third side by
/// side (further dimensions continue the planes' row).
void torus(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    const uint32_t d0 = def.dims.empty() ? nodes : def.dims[0];
    const uint32_t d1 = def.dims.size() > 1 ? def.dims[1] : 1;
    const double planeGap = double(d0) + 1.5;
    auto coord = [&](uint32_t v, uint32_t& x, uint32_t& y, uint32_t& z) {
        x = v % d0;
        y = (v / d0) % d1;
        z = v / (d0 * d1);
    };
    for (uint32_t v = 0; v < nodes; ++v) {
        uint32_t x, y, z;
        coord(v, x, y, z);
        place(l, v, double(z) * planeGap + double(x), double(y));
    }
    for (LayoutEdge& e : l.edges) {
        uint32_t ax, ay, az, bx, by, bz;
        coord(e.a, ax, ay, az);
        coord(e.b, bx, by, bz);
        const LayoutVertex &a = l.vertices[e.a], &b = l.vertices[e.b];
        const bool wrap = (ax != bx && ax + 1 != bx && bx + 1 != ax) ||
                          (ay != by && ay + 1 != by && by + 1 != ay) ||
                          (az != bz && az + 1 != bz && bz + 1 != az);
        if (wrap) {
            // Outwards from each end, along the link's dimension (diagonally for the third, so
            // its stubs do not lie on the first dimension's).
            e.shape = LayoutEdge::Shape::Stubs;
            const double sx = ax != bx ? 1 : az != bz ? 0.7 : 0;
            const double sy = ay != by ? 1 : az != bz ? 0.7 : 0;
            const double signA = (ax != bx ? ax > bx : ay != by ? ay > by : az > bz) ? 1 : -1;
            e.cx = a.x + signA * sx * kStub;
            e.cy = a.y + (ax != bx ? 0 : signA * sy * kStub);
            e.dx = b.x - signA * sx * kStub;
            e.dy = b.y - (ax != bx ? 0 : signA * sy * kStub);
            if (az != bz && ax == bx && ay == by) { // both stubs below their node
                e.cy = a.y + sy * kStub;
                e.dy = b.y + sy * kStub;
            }
        } else if (az != bz) {
            // Between neighbouring planes: a curve below the row, lower for further columns so
            // a row's curves do not lie on one another.
            e.shape = LayoutEdge::Shape::Curve;
            e.cx = (a.x + b.x) / 2;
            e.cy = a.y + 0.3 + 0.35 * double(ax) / double(std::max(1u, d0));
        }
    }
}

void clusters(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    const size_t count = def.dims.size();
    // Cluster centres on a circle (two: side by side), each cluster's nodes on an arc around
    // its switch, open by 60 degrees towards the picture's middle.
    double biggest = 1;
    for (uint32_t n : def.dims)
        biggest = std::max(biggest, radiusFor(n, 5.0 / 6));
    const double spread = count <= 1 ? 0 : (biggest * 2.6) / (2 * std::sin(kPi / double(count)));
    uint32_t node = 0;
    for (size_t c = 0; c < count; ++c) {
        const double angle = kPi + 2 * kPi * double(c) / double(count); // the first on the left
        const double cx = spread * std::cos(angle), cy = -spread * std::sin(angle);
        const uint32_t sw = nodes + uint32_t(c);
        if (sw < l.vertices.size()) place(l, sw, cx, cy);
        std::vector<uint32_t> vs;
        for (uint32_t i = 0; i < def.dims[c] && node < nodes; ++i)
            vs.push_back(node++);
        // Facing the middle is angle + pi; the arc leaves 30 degrees free either side of it.
        const double inward = angle + kPi;
        onArc(l, vs, cx, cy, radiusFor(vs.size(), 5.0 / 6), inward + kPi / 6,
              inward + 2 * kPi - kPi / 6);
    }
}

void circles(NetworkLayout& l, uint32_t nodes)
{
    std::vector<uint32_t> outer(nodes), inner;
    for (uint32_t n = 0; n < nodes; ++n)
        outer[n] = n;
    for (uint32_t v = nodes; v < l.vertices.size(); ++v)
        inner.push_back(v);
    const double r = radiusFor(nodes, 1);
    onArc(l, outer, 0, 0, r, kPi / 2, kPi / 2 + 2 * kPi);
    if (!inner.empty()) onArc(l, inner, 0, 0, r * 0.6, kPi / 2, kPi / 2 + 2 * kPi);
}

/// A torus of three dimensions folded along the third: node v joins point v mod (d0 x d1).
void foldedTorus(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    const uint32_t plane = def.dims[0] * def.dims[1];
    std::vector<uint32_t> groupOf(l.vertices.size());
    for (uint32_t v = 0; v < groupOf.size(); ++v)
        groupOf[v] = v % plane;
    aggregate(l, groupOf);
    NetworkDef flat = def;
    flat.dims.resize(2);
    torus(l, flat, std::min(plane, nodes));
}

/// A dragonfly with one point per group for its nodes and one for its routers.
void groupedDragonfly(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    const uint32_t perGroup = std::max(1u, def.routersPerGroup * def.nodesPerRouter);
    const uint32_t groups = (nodes + perGroup - 1) / perGroup;
    std::vector<uint32_t> groupOf(l.vertices.size());
    for (uint32_t v = 0; v < groupOf.size(); ++v)
        groupOf[v] =
            v < nodes ? v / perGroup : groups + (v - nodes) / std::max(1u, def.routersPerGroup);
    aggregate(l, groupOf);
    circles(l, groups);
}

/// Rings as blocks of neighbours within each ring, about 128 points in all.
void blockedRings(NetworkLayout& l, const NetworkDef& def, uint32_t nodes)
{
    const uint32_t ring = std::max(1u, std::min(def.group, nodes));
    const uint32_t block = (nodes + 127) / 128, perRing = (ring + block - 1) / block;
    std::vector<uint32_t> groupOf(l.vertices.size());
    for (uint32_t v = 0; v < groupOf.size(); ++v)
        groupOf[v] = (v / ring) * perRing + (v % ring) / block;
    aggregate(l, groupOf);
    circles(l, uint32_t(l.vertices.size()));
}

} // namespace

std::vector<NetworkLayout> layoutNetworks(const NetworkSpec& spec)
{
    std::vector<NetworkLayout> out;
    uint32_t firstLink = 0;
    for (const NetworkDef& def : spec.networks) {
        const Topology t(spec, def);
        NetworkLayout l;
        l.network = def.name;
        l.topology = std::string(topologyName(def.topology));
        l.vertices.resize(t.vertexCount());
        for (uint32_t v = 0; v < t.vertexCount(); ++v) {
            l.vertices[v].name = t.vertexName(v);
            l.vertices[v].node = v < t.nodeCount();
        }
        // connect() adds both directions of a link one after the other.
        const std::vector<Link>& links = t.links();
        for (uint32_t i = 0; i + 1 < links.size(); i += 2) {
            LayoutEdge e;
            e.a = links[i].from;
            e.b = links[i].to;
            e.forward = firstLink + i;
            e.backward = firstLink + i + 1;
            l.edges.push_back(std::move(e));
        }
        firstLink += uint32_t(links.size());
        switch (def.topology) {
        case TopologyKind::Crossbar:
            crossbar(l, t.nodeCount());
            break;
        case TopologyKind::FatTree:
            fatTree(l, def, t.nodeCount());
            if (t.nodeCount() > kMaxRow) aggregate(l, rowBlocks(l, kMaxRow));
            break;
        case TopologyKind::Torus:
            if (def.dims.size() >= 3 && t.nodeCount() > kMaxDrawnNodes)
                foldedTorus(l, def, t.nodeCount());
            else
                torus(l, def, t.nodeCount());
            break;
        case TopologyKind::Clusters:
            clusters(l, def, t.nodeCount());
            break;
        case TopologyKind::Dragonfly:
            if (t.nodeCount() > kMaxDrawnNodes)
                groupedDragonfly(l, def, t.nodeCount());
            else
                circles(l, t.nodeCount());
            break;
        case TopologyKind::Ring:
        case TopologyKind::DoubleRing:
            if (t.nodeCount() > kMaxDrawnNodes)
                blockedRings(l, def, t.nodeCount());
            else
                circles(l, t.nodeCount());
            break;
        default:
            circles(l, t.nodeCount());
        }
        bool first = true;
        auto extend = [&](double x, double y) {
            if (first) {
                l.minX = l.maxX = x;
                l.minY = l.maxY = y;
                first = false;
            }
            l.minX = std::min(l.minX, x);
            l.maxX = std::max(l.maxX, x);
            l.minY = std::min(l.minY, y);
            l.maxY = std::max(l.maxY, y);
        };
        for (const LayoutVertex& v : l.vertices)
            extend(v.x, v.y);
        for (const LayoutEdge& e : l.edges)
            if (e.shape == LayoutEdge::Shape::Stubs) {
                extend(e.cx, e.cy);
                extend(e.dx, e.dy);
            } else if (e.shape == LayoutEdge::Shape::Curve) {
                // A quadratic curve's apex is halfway to its control point.
                const LayoutVertex &a = l.vertices[e.a], &b = l.vertices[e.b];
                extend((a.x + b.x) / 4 + e.cx / 2, (a.y + b.y) / 4 + e.cy / 2);
            }
        out.push_back(std::move(l));
    }
    return out;
}

Rgb loadColour(double load)
{
    if (!(load > 0)) return Rgb{200, 200, 200};
    load = std::min(load, 1.0);
    struct Stop
    {
        double at, r, g, b;
    };
    constexpr Stop low{0, 70, 130, 180}, mid{0.5, 240, 200, 40}, high{1, 215, 40, 40};
    const Stop& p = load <= 0.5 ? low : mid;
    const Stop& q = load <= 0.5 ? mid : high;
    const double t = (load - p.at) / (q.at - p.at);
    auto channel = [t](double x, double y) { return uint8_t(std::lround(x + (y - x) * t)); };
    return Rgb{channel(p.r, q.r), channel(p.g, q.g), channel(p.b, q.b)};
}

} // namespace rankscope::netsim
