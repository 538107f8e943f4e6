// Large networks drawn aggregated (whatif/netsim/networkaggregate.h and the topologies'
// aggregation in networklayout.cpp); every expected value is worked out by hand in the
// comments.

#include "whatif/netsim/networkaggregate.h"
#include "whatif/netsim/networklayout.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

NetworkLayout layoutOf(const std::string& network, uint32_t nodes)
{
    const std::string text = "nodes: " + std::to_string(nodes) +
                             "\nlinks:\n  l: {latency: 1us, bandwidth: 1GB/s}\n"
                             "networks:\n  x: " +
                             network + "\n";
    const std::vector<NetworkLayout> all = layoutNetworks(NetworkSpec::fromString(text, "test"));
    if (all.size() != 1) qFatal("expected one network");
    return all.front();
}

const LayoutEdge* edgeBetween(const NetworkLayout& l, uint32_t a, uint32_t b)
{
    for (const LayoutEdge& e : l.edges)
        if ((e.a == a && e.b == b) || (e.a == b && e.b == a)) return &e;
    return nullptr;
}

LayoutVertex vertex(const std::string& name, double x, double y, uint32_t count = 1,
                    std::vector<uint32_t> links = {})
{
    LayoutVertex v;
    v.name = name;
    v.x = x;
    v.y = y;
    v.node = true;
    v.count = count;
    v.links = std::move(links);
    return v;
}

LayoutEdge edge(uint32_t a, uint32_t b, uint32_t forward, uint32_t backward)
{
    LayoutEdge e;
    e.a = a;
    e.b = b;
    e.forward = forward;
    e.backward = backward;
    return e;
}

uint32_t nodesDrawn(const NetworkLayout& l)
{
    uint32_t n = 0;
    for (const LayoutVertex& v : l.vertices)
        if (v.node) n += v.count;
    return n;
}

} // namespace

class TestNetworkAggregate : public QObject
{
    Q_OBJECT
private slots:
    void aggregateByHand()
    {
        // a (0,0) and b (2,0) in group 0, c (0,1) and d (4,1) in group 1. Links: a-b (0, 1),
        // a-c (2, 3), b-d (4, 5), c-d (6, 7). Group 0 at (1, 0) holds a-b, group 1 at (2, 1)
        // holds c-d; a-c and b-d become one edge from a-c's ends and directions, standing for
        // 2, 3, 4, 5.
        NetworkLayout l;
        for (auto [name, x, y] : {std::tuple{"a", 0.0, 0.0}, std::tuple{"b", 2.0, 0.0},
                                  std::tuple{"c", 0.0, 1.0}, std::tuple{"d", 4.0, 1.0}})
            l.vertices.push_back(vertex(name, x, y));
        l.edges = {edge(0, 1, 0, 1), edge(0, 2, 2, 3), edge(1, 3, 4, 5), edge(2, 3, 6, 7)};
        aggregate(l, {0, 0, 1, 1});
        QCOMPARE(l.vertices.size(), size_t(2));
        QCOMPARE(l.vertices[0], vertex("a..b", 1.0, 0.0, 2, {0, 1}));
        QCOMPARE(l.vertices[1], vertex("c..d", 2.0, 1.0, 2, {6, 7}));
        QCOMPARE(l.edges.size(), size_t(1));
        LayoutEdge expected = edge(0, 1, 2, 3);
        expected.links = {2, 3, 4, 5};
        QCOMPARE(l.edges[0], expected);
    }

    void rowBlocksByHand()
    {
        // Row y = 0 of five vertices given out of x order, at most 2 a row: blocks of
        // ceil(5 / 2) = 3 in x order (x 0, 1, 2 | 3, 4); row y = 1 of two keeps one each.
        NetworkLayout l;
        for (double x : {4.0, 0.0, 3.0, 1.0, 2.0})
            l.vertices.push_back(vertex("v", x, 0.0));
        for (double x : {0.0, 1.0})
            l.vertices.push_back(vertex("w", x, 1.0));
        QCOMPARE(rowBlocks(l, 2), (std::vector<uint32_t>{1, 0, 1, 0, 0, 2, 3}));
    }

    void fatTreeOf1024()
    {
        // 4-ary 5-tree: 1024 nodes, 5 levels of 256 switches. Every row is cut into 64 blocks
        // (nodes by 16, switches by 4): 384 points. Leaf switch <w, 0> holds nodes 4w..4w+3,
        // so leaf block j holds node block j's 16 links (32 directions); <w, 0> joins <w', 1>
        // with w' differing in digit 0 only (the same block): 64 edges of 16 links. Higher
        // levels differ in digit 1, 2 or 3, so a block reaches 4 blocks by 4 links each:
        // 3 x 256 edges. In all 64 + 64 + 768 = 896 edges.
        const NetworkLayout l = layoutOf("{topology: fat_tree, k: 4, levels: 5, link: l}", 1024);
        QCOMPARE(l.vertices.size(), size_t(384));
        QCOMPARE(l.edges.size(), size_t(896));
        QCOMPARE(nodesDrawn(l), 1024u);
        QCOMPARE(l.vertices[0].name, std::string("n0..n15"));
        QCOMPARE(l.vertices[0].count, 16u);
        QCOMPARE(l.vertices[64].name, std::string("s0.0..s0.3")); // the leaves' first block
        const LayoutEdge* e = edgeBetween(l, 0, 64);
        QVERIFY(e);
        QCOMPARE(e->links.size(), size_t(32));
        size_t directions = 0;
        for (const LayoutEdge& x : l.edges)
            directions += x.links.empty() ? 2 : x.links.size();
        QCOMPARE(directions, size_t(2 * 5 * 1024)); // 1024 links below each of 5 levels
    }

    void torusFoldedAlongItsThirdDimension()
    {
        // 4 x 4 x 20 = 320 nodes: 16 points, each the 20 nodes of one (x, y), whose ring along
        // the third dimension (20 links, 40 directions) is its own. A 4 x 4 torus has 32 links,
        // each standing for 20 (40 directions); point 0 to point 3 wraps round (stubs).
        const NetworkLayout l = layoutOf("{topology: torus, dims: [4, 4, 20], link: l}", 320);
        QCOMPARE(l.vertices.size(), size_t(16));
        QCOMPARE(l.edges.size(), size_t(32));
        QCOMPARE(l.vertices[0].name, std::string("n0..n304"));
        QCOMPARE(l.vertices[0].count, 20u);
        QCOMPARE(l.vertices[0].links.size(), size_t(40));
        QCOMPARE(edgeBetween(l, 0, 1)->links.size(), size_t(40));
        QCOMPARE(edgeBetween(l, 0, 1)->shape, LayoutEdge::Shape::Line);
        QCOMPARE(edgeBetween(l, 0, 3)->shape, LayoutEdge::Shape::Stubs);
        QCOMPARE(l.vertices[5].x, 1.0); // (1, 1) on the plane's grid
        QCOMPARE(l.vertices[5].y, 1.0);
    }

    void dragonflyByGroup()
    {
        // 9 groups of 4 routers with 8 nodes each (288 nodes): one point per group for its 32
        // nodes and one for its routers (their 6 links inside, 12 directions). Nodes to routers:
        // 9 edges of 32 links; global links: one per pair of groups, 36 single links.
        const NetworkLayout l = layoutOf("{topology: dragonfly, groups: 9, routers_per_group: 4, "
                                         "nodes_per_router: 8, link: l, uplink: l, wan: l}",
                                         288);
        QCOMPARE(l.vertices.size(), size_t(18));
        QCOMPARE(l.edges.size(), size_t(45));
        QCOMPARE(nodesDrawn(l), 288u);
        QCOMPARE(l.vertices[9].name, std::string("r0.0..r0.3"));
        QCOMPARE(l.vertices[9].links.size(), size_t(12));
        QCOMPARE(edgeBetween(l, 0, 9)->links.size(), size_t(64));
        QVERIFY(edgeBetween(l, 9, 10)->links.empty()); // one global link
    }

    void ringInBlocks()
    {
        // One ring of 1024: blocks of ceil(1024 / 128) = 8 neighbours, 128 points, each
        // holding its 7 inner links (14 directions), joined by the 128 ring links between
        // blocks (one physical link each).
        const NetworkLayout l = layoutOf("{topology: ring, link: l}", 1024);
        QCOMPARE(l.vertices.size(), size_t(128));
        QCOMPARE(l.edges.size(), size_t(128));
        QCOMPARE(l.vertices[1].name, std::string("n8..n15"));
        QCOMPARE(l.vertices[1].links.size(), size_t(14));
        QVERIFY(edgeBetween(l, 127, 0));
        QVERIFY(edgeBetween(l, 127, 0)->links.empty());
    }

    void smallNetworksAreNotAggregated()
    {
        // 64 nodes (k = 4, 3 levels): rows of 64 and 16, nothing folded.
        const NetworkLayout l = layoutOf("{topology: fat_tree, k: 4, levels: 3, link: l}", 64);
        QCOMPARE(l.vertices.size(), size_t(64 + 48));
        for (const LayoutVertex& v : l.vertices)
            QCOMPARE(v.count, 1u);
    }
};

QTEST_GUILESS_MAIN(TestNetworkAggregate)
#include "tst_networkaggregate.moc"
