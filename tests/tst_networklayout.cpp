// Where the network view draws a spec's networks (whatif/netsim/networklayout.h) and the colour
// of a link's load, on tiny hand-built networks; every expected value is worked out by hand in
// the comments. Also the view itself: an edge's load and its hover text on a crossbar whose
// link figures are set by hand.

#include "views/whatif/networkcanvas.h"
#include "whatif/netsim/networklayout.h"

#include <QTest>
#include <cmath>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

NetworkSpec spec(const char* networks, uint32_t nodes)
{
    const std::string text = "nodes: " + std::to_string(nodes) +
                             "\nlinks:\n  l: {latency: 1us, bandwidth: 1GB/s}\n"
                             "  w: {latency: 1ms, bandwidth: 1GB/s}\nnetworks:\n  " +
                             networks + "\n";
    return NetworkSpec::fromString(text, "test");
}

const LayoutEdge* edgeBetween(const NetworkLayout& l, uint32_t a, uint32_t b)
{
    for (const LayoutEdge& e : l.edges)
        if ((e.a == a && e.b == b) || (e.a == b && e.b == a)) return &e;
    return nullptr;
}

} // namespace

class TestNetworkLayout : public QObject
{
    Q_OBJECT
private slots:
    void colours()
    {
        QCOMPARE(loadColour(0), (Rgb{200, 200, 200}));    // idle: grey
        QCOMPARE(loadColour(1e-12), (Rgb{70, 130, 180})); // barely used: steel blue
        QCOMPARE(loadColour(0.5), (Rgb{240, 200, 40}));   // amber
        QCOMPARE(loadColour(1), (Rgb{215, 40, 40}));      // red
        QCOMPARE(loadColour(3), (Rgb{215, 40, 40}));      // clamped
        // Halfway between blue and amber: (70+240)/2, (130+200)/2, (180+40)/2.
        QCOMPARE(loadColour(0.25), (Rgb{155, 165, 110}));
        // Halfway between amber and red: 227.5 rounds to 228, (200+40)/2, 40.
        QCOMPARE(loadColour(0.75), (Rgb{228, 120, 40}));
    }

    void crossbar()
    {
        // Four nodes on a circle of radius max(1, 4 / 2pi) = 1, from the top (angle pi/2)
        // counter-clockwise with y pointing down: n0 (0, -1), n1 (-1, 0), n2 (0, 1), n3 (1, 0);
        // the switch (vertex 4) in the middle. Link 2i is node i -> switch, 2i+1 back.
        const auto layouts = layoutNetworks(spec("x: {topology: crossbar, link: l}", 4));
        QCOMPARE(layouts.size(), size_t(1));
        const NetworkLayout& l = layouts[0];
        QCOMPARE(l.network, std::string("x"));
        QCOMPARE(l.vertices.size(), size_t(5));
        const double want[4][2] = {{0, -1}, {-1, 0}, {0, 1}, {1, 0}};
        for (int n = 0; n < 4; ++n) {
            QVERIFY(std::abs(l.vertices[n].x - want[n][0]) < 1e-12);
            QVERIFY(std::abs(l.vertices[n].y - want[n][1]) < 1e-12);
            QVERIFY(l.vertices[n].node);
        }
        QCOMPARE(l.vertices[4].name, std::string("switch"));
        QVERIFY(!l.vertices[4].node);
        QCOMPARE(l.vertices[4].x, 0.0);
        QCOMPARE(l.edges.size(), size_t(4));
        for (uint32_t i = 0; i < 4; ++i) {
            QCOMPARE(l.edges[i].a, i);
            QCOMPARE(l.edges[i].b, 4u);
            QCOMPARE(l.edges[i].forward, 2 * i);
            QCOMPARE(l.edges[i].backward, 2 * i + 1);
        }
        QVERIFY(l.sameScale);
        QVERIFY(std::abs(l.minX + 1) < 1e-12 && std::abs(l.maxY - 1) < 1e-12);
    }

    void fatTree()
    {
        // k = 2, 2 levels: 4 nodes at x = 0.5 .. 3.5 on row y = 2; 2 switches per level spread
        // over the width 4: x = (w + 0.5) * 4 / 2 = 1 and 3; level 0 on y = 1, level 1 on y = 0.
        const auto layouts =
            layoutNetworks(spec("t: {topology: fat_tree, k: 2, levels: 2, link: l}", 4));
        const NetworkLayout& l = layouts.at(0);
        QCOMPARE(l.vertices.size(), size_t(8));
        for (int n = 0; n < 4; ++n) {
            QCOMPARE(l.vertices[n].x, n + 0.5);
            QCOMPARE(l.vertices[n].y, 2.0);
        }
        QCOMPARE(l.vertices[4].name, std::string("s0.0"));
        QCOMPARE(l.vertices[4].x, 1.0);
        QCOMPARE(l.vertices[4].y, 1.0);
        QCOMPARE(l.vertices[5].x, 3.0);
        QCOMPARE(l.vertices[7].name, std::string("s1.1"));
        QCOMPARE(l.vertices[7].x, 3.0);
        QCOMPARE(l.vertices[7].y, 0.0);
        // 4 node links, then each level-0 switch to both level-1 switches.
        QCOMPARE(l.edges.size(), size_t(8));
        QVERIFY(edgeBetween(l, 5, 6) && edgeBetween(l, 4, 7));
        QVERIFY(!l.sameScale);
    }

    void torusWrapsAndPlanes()
    {
        // 3 x 3: node v at (v % 3, v / 3). The link 2 -> 0 wraps along x: stubs leave n2
        // rightwards to (2.35, 0) and n0 leftwards to (-0.35, 0); 6 -> 0 wraps along y: n6 down
        // to (0, 2.35), n0 up to (0, -0.35).
        const auto flat = layoutNetworks(spec("t: {topology: torus, dims: [3, 3], link: l}", 9));
        const NetworkLayout& l = flat.at(0);
        QCOMPARE(l.vertices[7].x, 1.0);
        QCOMPARE(l.vertices[7].y, 2.0);
        const LayoutEdge* x = edgeBetween(l, 2, 0);
        QVERIFY(x && x->shape == LayoutEdge::Shape::Stubs);
        QCOMPARE(x->a, 2u);
        QVERIFY(std::abs(x->cx - 2.35) < 1e-12 && x->cy == 0);
        QVERIFY(std::abs(x->dx + 0.35) < 1e-12 && x->dy == 0);
        const LayoutEdge* y = edgeBetween(l, 6, 0);
        QVERIFY(y && y->shape == LayoutEdge::Shape::Stubs);
        QVERIFY(y->cx == 0 && std::abs(y->cy - 2.35) < 1e-12);
        QVERIFY(y->dx == 0 && std::abs(y->dy + 0.35) < 1e-12);
        QCOMPARE(edgeBetween(l, 0, 1)->shape, LayoutEdge::Shape::Line);
        QVERIFY(std::abs(l.minX + 0.35) < 1e-12 && std::abs(l.maxY - 2.35) < 1e-12);

        // 2 x 2 x 2: planes 2 + 1.5 = 3.5 apart, so n4 (0, 0, 1) is at (3.5, 0) and n5 at
        // (4.5, 0). Links between planes curve below their row: 0 -> 4 through (1.75, 0.3),
        // 1 -> 5 through ((1 + 4.5) / 2, 0.3 + 0.35 * 1 / 2) = (2.75, 0.475).
        const auto cube = layoutNetworks(spec("t: {topology: torus, dims: [2, 2, 2], link: l}", 8));
        const NetworkLayout& c = cube.at(0);
        QCOMPARE(c.vertices[4].x, 3.5);
        QCOMPARE(c.vertices[5].x, 4.5);
        const LayoutEdge* z0 = edgeBetween(c, 0, 4);
        QVERIFY(z0 && z0->shape == LayoutEdge::Shape::Curve);
        QCOMPARE(z0->cx, 1.75);
        QVERIFY(std::abs(z0->cy - 0.3) < 1e-12);
        const LayoutEdge* z1 = edgeBetween(c, 1, 5);
        QCOMPARE(z1->cx, 2.75);
        QVERIFY(std::abs(z1->cy - 0.475) < 1e-12);
    }

    void clusters()
    {
        // Two clusters of two nodes: radius max(1, 2 / (2pi 5/6)) = 1, centres 2.6 / (2 sin
        // (pi/2)) = 1.3 from the middle: switch c0 at (-1.3, 0), c1 at (1.3, 0). Cluster 0's
        // nodes face the middle (angle 0) with 30 degrees free either side: n0 at angle pi/6:
        // (-1.3 + cos 30, -sin 30) = (-0.43397, -0.5), n1 at -pi/6: (-0.43397, 0.5).
        const auto layouts =
            layoutNetworks(spec("g: {topology: clusters, dims: [2, 2], link: l, wan: w}", 4));
        const NetworkLayout& l = layouts.at(0);
        QCOMPARE(l.vertices[4].name, std::string("c0"));
        QVERIFY(std::abs(l.vertices[4].x + 1.3) < 1e-12 && std::abs(l.vertices[4].y) < 1e-12);
        QVERIFY(std::abs(l.vertices[5].x - 1.3) < 1e-12 && std::abs(l.vertices[5].y) < 1e-12);
        QVERIFY(std::abs(l.vertices[0].x - (-1.3 + std::sqrt(3.0) / 2)) < 1e-12);
        QVERIFY(std::abs(l.vertices[0].y + 0.5) < 1e-12);
        QVERIFY(std::abs(l.vertices[1].y - 0.5) < 1e-12);
        // The wide-area link is the last: links 8 (c0 -> c1) and 9.
        const LayoutEdge* wan = edgeBetween(l, 4, 5);
        QVERIFY(wan);
        QCOMPARE(wan->forward, 8u);
        QCOMPARE(wan->backward, 9u);
    }

    void canvasLoadAndHover()
    {
        // Crossbar of 4: edge 1 is n1 <-> switch (links 2 and 3). Direction 2 is busy 30 %,
        // direction 3 60 %: the edge shows 0.6; by contention (2: 100 ns, 3: 0, the most of any
        // link 400 ns on link 0) it shows 100 / 400 = 0.25.
        auto picture = std::make_shared<NetworkPicture>();
        picture->layouts = layoutNetworks(spec("x: {topology: crossbar, link: l}", 4));
        picture->figures.links.resize(8);
        picture->figures.links[2].utilisation = 0.3;
        picture->figures.links[2].contentionNs = 100;
        picture->figures.links[2].info.name = "x:n1->switch";
        picture->figures.links[2].bytes = 2048;
        picture->figures.links[3].utilisation = 0.6;
        picture->figures.links[0].contentionNs = 400;
        NetworkCanvas canvas;
        canvas.resize(456, 456);
        canvas.setPicture(picture, 0);
        QCOMPARE(canvas.edgeLoad(1), 0.6);
        QCOMPARE(canvas.edgeLoad(2), 0.0);
        canvas.setMetric(NetworkCanvas::Metric::Contention);
        QCOMPARE(canvas.maxContentionNs(), 400.0);
        QCOMPARE(canvas.edgeLoad(1), 0.25);
        // 400 x 400 px inside margins of 28: the switch at (228, 228), n1 (left) at (28, 228);
        // the point (128, 230) is 2 px from that edge.
        QCOMPARE(canvas.vertexPoint(4), QPointF(228, 228));
        QCOMPARE(canvas.vertexPoint(1), QPointF(28, 228));
        QCOMPARE(canvas.edgeAt(QPointF(128, 230)), 1);
        QCOMPARE(canvas.edgeAt(QPointF(128, 260)), -1);
        QVERIFY(canvas.edgeText(1).contains(QStringLiteral("x:n1-&gt;switch")));
        QVERIFY(canvas.edgeText(1).contains(QStringLiteral("2.00 KiB")));
    }
};

QTEST_MAIN(TestNetworkLayout)
#include "tst_networklayout.moc"
