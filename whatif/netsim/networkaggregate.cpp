#include "whatif/netsim/networkaggregate.h"

#include <algorithm>
#include <map>
#include <utility>

namespace rankscope::netsim {

void aggregate(NetworkLayout& l, const std::vector<uint32_t>& groupOf)
{
    uint32_t groups = 0;
    for (uint32_t g : groupOf)
        groups = std::max(groups, g + 1);
    std::vector<LayoutVertex> out(groups);
    std::vector<uint32_t> first(groups, UINT32_MAX), last(groups, 0), members(groups, 0);
    for (uint32_t v = 0; v < l.vertices.size() && v < groupOf.size(); ++v) {
        const uint32_t g = groupOf[v];
        LayoutVertex& x = out[g];
        const LayoutVertex& m = l.vertices[v];
        x.x += m.x;
        x.y += m.y;
        x.count = members[g] == 0 ? m.count : x.count + m.count;
        x.node = m.node;
        x.links.insert(x.links.end(), m.links.begin(), m.links.end());
        first[g] = std::min(first[g], v);
        last[g] = std::max(last[g], v);
        ++members[g];
    }
    for (uint32_t g = 0; g < groups; ++g) {
        if (members[g] == 0) continue;
        out[g].x /= double(members[g]);
        out[g].y /= double(members[g]);
        out[g].name = members[g] == 1 ? l.vertices[first[g]].name
                                      : l.vertices[first[g]].name + ".." + l.vertices[last[g]].name;
    }
    std::vector<LayoutEdge> edges;
    std::map<std::pair<uint32_t, uint32_t>, size_t> between;
    for (const LayoutEdge& e : l.edges) {
        const uint32_t a = groupOf[e.a], b = groupOf[e.b];
        const std::vector<uint32_t> dirs =
            e.links.empty() ? std::vector<uint32_t>{e.forward, e.backward} : e.links;
        if (a == b) {
            out[a].links.insert(out[a].links.end(), dirs.begin(), dirs.end());
            continue;
        }
        const auto key = std::minmax(a, b);
        const auto [it, fresh] = between.try_emplace({key.first, key.second}, edges.size());
        if (fresh) {
            LayoutEdge x;
            x.a = a;
            x.b = b;
            x.forward = e.forward;
            x.backward = e.backward;
            x.links = e.links;
            edges.push_back(std::move(x));
            continue;
        }
        LayoutEdge& x = edges[it->second];
        if (x.links.empty()) x.links = {x.forward, x.backward};
        x.links.insert(x.links.end(), dirs.begin(), dirs.end());
    }
    l.vertices = std::move(out);
    l.edges = std::move(edges);
}

std::vector<uint32_t> rowBlocks(const NetworkLayout& l, size_t maxPerRow)
{
    std::map<double, std::vector<uint32_t>> rows; // y -> its vertices
    std::vector<double> rowOrder;                 // the rows by their first vertex
    for (uint32_t v = 0; v < l.vertices.size(); ++v) {
        auto& row = rows[l.vertices[v].y];
        if (row.empty()) rowOrder.push_back(l.vertices[v].y);
        row.push_back(v);
    }
    std::vector<uint32_t> groupOf(l.vertices.size(), 0);
    uint32_t next = 0;
    for (double y : rowOrder) {
        std::vector<uint32_t>& row = rows[y];
        std::stable_sort(row.begin(), row.end(),
                         [&](uint32_t a, uint32_t b) { return l.vertices[a].x < l.vertices[b].x; });
        const size_t block =
            row.size() > maxPerRow ? (row.size() + maxPerRow - 1) / maxPerRow : size_t(1);
        for (size_t i = 0; i < row.size(); ++i)
            groupOf[row[i]] = next + uint32_t(i / block);
        next += uint32_t((row.size() + block - 1) / block);
    }
    return groupOf;
}

} // namespace rankscope::netsim
