#pragma once
// Where to draw a spec's networks (the GUI's network view): every vertex of each network's
// topology (nodes, switches, routers) at a point, every physical link (its two directions) as
// one edge between two vertices, with the indices of its two directions in a replay's
// NetworkFigures::links (MachineLinks::describe order: each network's links in topology order,
// then the nodes' memories). Plain C++, computed beside the replay off the GUI thread.
//
// The layouts, in abstract units (the view scales them to its size):
// - crossbar: the switch in the middle, the nodes on a circle around it;
// - fat tree: one row per level, the nodes at the bottom and the top switches at the top; a row
//   is spread over the width (its vertices evenly);
// - torus: each plane of the first two dimensions a grid (x: first, y: second dimension), the
//   planes of the third side by side; links along the third dimension curve below their row;
//   wrap-around links are drawn as two short stubs leaving each end outwards;
// - clusters: each cluster's switch with its nodes on an arc around it, open towards the
//   middle of the picture, where the wide-area links run between the switches;
// - rings, dragonfly and explicit topologies: the nodes on a circle in index order (rings and a
//   dragonfly's groups are neighbours), switches and routers on an inner circle.
// Large networks are drawn aggregated (networkaggregate.h) so that 1024 nodes stay legible at
// 1080p: a fat tree's rows of more than kMaxRow vertices as blocks of neighbours; a torus of
// more than kMaxDrawnNodes nodes with three dimensions folded along the third (one point per
// (x, y): the column of planes, its links along the third dimension its own); a dragonfly's
// nodes and routers one point per group each; rings as blocks of neighbours within a ring.
// Colours: loadColour() maps a load (0..1) to a colour, idle links grey.

#include "whatif/netsim/linkstats.h"
#include "whatif/netsim/networkspec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::netsim {

struct LayoutVertex
{
    std::string name; ///< Topology::vertexName(); "<first>..<last>" for a group
    double x = 0, y = 0;
    bool node = false;  ///< a compute node (else a switch or router)
    uint32_t count = 1; ///< the vertices it stands for (more than 1: a group)
    /// A group's links among its own members (both directions; NetworkFigures::links indices):
    /// the view fills the vertex with the busiest one's colour.
    std::vector<uint32_t> links;
    bool operator==(const LayoutVertex&) const = default;
};

struct LayoutEdge
{
    uint32_t a = 0, b = 0; ///< vertices
    uint32_t forward = 0;  ///< the a -> b direction's index in NetworkFigures::links
    uint32_t backward = 0; ///< the b -> a direction's
    enum class Shape : uint8_t
    {
        Line,  ///< straight from a to b
        Curve, ///< a quadratic curve through control point (cx, cy)
        Stubs, ///< wrap-around: a stub from a to (cx, cy) and one from b to (dx, dy)
    };
    Shape shape = Shape::Line;
    double cx = 0, cy = 0, dx = 0, dy = 0;
    /// Between two groups: every link direction it stands for (forward and backward among
    /// them); empty for a single physical link.
    std::vector<uint32_t> links;
    bool operator==(const LayoutEdge&) const = default;
};

struct NetworkLayout
{
    std::string network;  ///< its name in the spec
    std::string topology; ///< topologyName()
    std::vector<LayoutVertex> vertices;
    std::vector<LayoutEdge> edges;
    double minX = 0, minY = 0, maxX = 0, maxY = 0; ///< every point drawn lies within
    /// True: the view scales x and y alike (circles, grids); false: each to its own extent
    /// (a fat tree's rows spread over a wide view).
    bool sameScale = true;
    bool operator==(const NetworkLayout&) const = default;
};

/// Fat-tree rows longer than this are drawn as blocks of neighbouring vertices.
inline constexpr size_t kMaxRow = 64;
/// Tori, dragonflies and rings of more nodes than this are drawn aggregated.
inline constexpr uint32_t kMaxDrawnNodes = 256;

/// One layout per network of `spec`, in spec order.
std::vector<NetworkLayout> layoutNetworks(const NetworkSpec& spec);

/// A replay's link figures with the layouts to draw them on (SimulationOptions::linkStats).
struct NetworkPicture
{
    NetworkFigures figures;
    std::vector<NetworkLayout> layouts;
};

struct Rgb
{
    uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb&) const = default;
};

/// The colour of a link at `load` (0..1, clamped): grey when exactly 0 (idle), else from steel
/// blue (70, 130, 180) just above 0 through amber (240, 200, 40) at 0.5 to red (215, 40, 40)
/// at 1, linear in each channel between those, rounded to the nearest integer.
Rgb loadColour(double load);

} // namespace rankscope::netsim
