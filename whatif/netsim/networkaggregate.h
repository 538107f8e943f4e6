#pragma once
// Folding a network layout's vertices into groups, so a large network stays legible (the
// network view at 1024 nodes): a group is one vertex, all links between two groups one edge
// standing for them (its load the busiest's), and the links inside a group belong to the group's
// vertex (drawn as its fill). Plain C++; networklayout.cpp decides the groups per topology.

#include "whatif/netsim/networklayout.h"

#include <cstdint>
#include <vector>

namespace rankscope::netsim {

/// Replaces `l`'s vertices by groups: vertex v joins group groupOf[v] (groups numbered from 0,
/// each used; a group's members all nodes or all switches). A group's point is its members'
/// mean, its name "<first member>..<last member>" (a single member keeps its own), its count
/// the members'. An edge inside a group adds its two directions to the group's links; edges
/// between the same two groups become one edge (the first one's ends and directions, shape
/// Line) listing every direction in LayoutEdge::links when it stands for more than one link.
/// The extent (minX..maxY) is left to the caller.
void aggregate(NetworkLayout& l, const std::vector<uint32_t>& groupOf);

/// Groups for `l`'s rows (vertices of one y): a row of more than `maxPerRow` vertices is cut,
/// in x order, into blocks of ceil(n / maxPerRow) neighbours; a shorter row keeps one group per
/// vertex. Group numbers follow the rows in vertex order of their first members.
std::vector<uint32_t> rowBlocks(const NetworkLayout& l, size_t maxPerRow);

} // namespace rankscope::netsim
