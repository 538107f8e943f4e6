// Network specs (ALGORITHMS.md §7.4): units, the shipped specs, overrides, and errors that name
// file, line and key.

#include "model/trace/traceerror.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/networkspec.h"
#include "whatif/netsim/traceplacement.h"
#include "whatif/netsim/units.h"

#include <QDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

const char* kSpec = R"(# a comment
name: test
nodes: 4
links:
  nic: {latency: 1.5us, bandwidth: 10Gbps}
  wan: {latency: 10ms, bandwidth: 1.25GB/s}
networks:
  grid: {topology: clusters, dims: [2, 2], link: nic, wan: wan}
)";

QString errorOf(const std::string& text, const std::vector<SpecOverride>& set = {})
{
    try {
        NetworkSpec::fromString(text, "spec.yaml", set);
    } catch (const TraceError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString resource(const char* name)
{
    return rankscope::test::testData(QStringLiteral("../../resources/networks/") + name);
}

} // namespace

class TestNetworkSpec : public QObject
{
    Q_OBJECT

private slots:
    void units()
    {
        QCOMPARE(*parseDuration("1.5us"), 1500.0);
        QCOMPARE(*parseDuration("10ms"), 1e7);
        QCOMPARE(*parseDuration("2 s"), 2e9);
        QVERIFY(!parseDuration("10"));
        QVERIFY(!parseDuration("10 parsecs"));
        // 10 Gbps = 1.25e9 B/s = 1.25 B/ns; 1.25 GB/s the same.
        QCOMPARE(*parseBandwidth("10Gbps"), 1.25);
        QCOMPARE(*parseBandwidth("1.25GB/s"), 1.25);
        QCOMPARE(*parseBandwidth("100Mb/s"), 0.0125);
        QVERIFY(!parseBandwidth("10G"));
        QCOMPARE(*parseBytes("4KiB"), uint64_t(4096));
        QCOMPARE(*parseBytes("64KB"), uint64_t(64000));
        QCOMPARE(*parseBytes("1MiB"), uint64_t(1048576));
        QCOMPARE(*parseBytes("512"), uint64_t(512));
        QVERIFY(!parseBytes("1.5B"));
        QVERIFY(!parseBytes("-4KiB"));
    }

    void readsSpec()
    {
        const NetworkSpec s = NetworkSpec::fromString(kSpec, "spec.yaml");
        QCOMPARE(s.nodes, 4u);
        QCOMPARE(s.links.size(), size_t(2));
        QCOMPARE(s.link("nic")->latencyNs, 1500.0);
        QCOMPARE(s.link("wan")->bytesPerNs, 1.25);
        QCOMPARE(s.networks.size(), size_t(1));
        QCOMPARE(s.networks[0].topology, TopologyKind::Clusters);
        // Route from node 0 (cluster 0) to node 3 (cluster 1): nic + wan + nic.
        const Topology t(s, s.networks[0]);
        const PathInfo p = t.path(0, 3);
        QCOMPARE(p.hops, 3u);
        QCOMPARE(p.latencyNs, 1500.0 + 1e7 + 1500.0);
        QCOMPARE(p.bytesPerNs, 1.25);
        QCOMPARE(t.path(0, 1).hops, 2u);
    }

    void overrides()
    {
        const NetworkSpec s =
            NetworkSpec::fromString(kSpec, "spec.yaml", {{"links.wan.latency", "5ms"}});
        QCOMPARE(s.link("wan")->latencyNs, 5e6);
        const NetworkSpec t = s.withOverrides({{"links.nic.bandwidth", "1Gbps"}});
        QCOMPARE(t.link("nic")->bytesPerNs, 0.125);
        QCOMPARE(t.link("wan")->latencyNs, 5e6); // earlier overrides stay
        bool found = false;
        for (const auto& [key, value] : t.overridableKeys())
            if (key == "links.wan.latency") found = value == "5ms";
        QVERIFY(found);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString base = kSpec;
        QTest::newRow("unknown key") << base + "colour: blue\n"
                                     << "spec.yaml:9: colour: unknown key";
        QTest::newRow("bad unit") << QString(base).replace("1.5us", "1.5 parsecs")
                                  << "spec.yaml:5: links.nic.latency: expected a time";
        QTest::newRow("negative latency") << QString(base).replace("1.5us", "-1us")
                                          << "spec.yaml:5: links.nic.latency: expected a time >= 0";
        QTest::newRow("missing field") << QString(base).replace("latency: 10ms, ", "")
                                       << "spec.yaml:6: links.wan.latency: missing";
        QTest::newRow("topology size")
            << QString(base).replace("[2, 2]", "[2, 3]")
            << "spec.yaml:8: networks.grid.dims: the topology has 5 nodes";
        QTest::newRow("switching") << base + "switching: wormhole\n"
                                   << "spec.yaml:9: switching: expected store_and_forward or "
                                      "cut_through, got 'wormhole'";
        QTest::newRow("packet size") << base + "packet_size: 0\n"
                                     << "spec.yaml:9: packet_size: expected a size > 0";
        QTest::newRow("streams") << base + "wide_area_streams: 0\n"
                                 << "spec.yaml:9: wide_area_streams: expected a whole number";
        QTest::newRow("unknown link class")
            << QString(base).replace("link: nic", "link: nick")
            << "networks.grid.link: expected the name of a link class";
        QTest::newRow("unknown algorithm") << base + "collectives: {bcast: fastest}\n"
                                           << "collectives.bcast: unknown algorithm 'fastest'";
        QTest::newRow("not yaml") << base + "links: [\n"
                                  << "spec.yaml:";
        // nodes: 4 is on line 3; a second nodes (line 9) must not be dropped silently.
        QTest::newRow("NUL byte") << base + QString(QChar(0)) + "x: 1\n"
                                  << "spec.yaml:9: a NUL byte at offset";
        QTest::newRow("100k deep")
            << base + QString(100000, '[') << "nested more than 64 levels deep";
        QTest::newRow("duplicate key")
            << base + "nodes: 8\n"
            << "spec.yaml:9: nodes: duplicate key (first given on line 3)";
        QTest::newRow("latency over 1 h")
            << QString(base).replace("1.5us", "1e9s")
            << "spec.yaml:5: links.nic.latency: expected a time of at most 1 h";
        QTest::newRow("bandwidth under 1 bit/s")
            << QString(base).replace("bandwidth: 1.25GB/s", "bandwidth: 1e-9bps")
            << "links.wan.bandwidth: expected a bandwidth of at least 1 bit/s";
        QTest::newRow("sharing over 1")
            << QString(base).replace("bandwidth: 10Gbps}", "bandwidth: 10Gbps, sharing: 1.5}")
            << "spec.yaml:5: links.nic.sharing: expected a number from 0 to 1, got '1.5'";
        QTest::newRow("sharing not a number")
            << QString(base).replace("bandwidth: 10Gbps}", "bandwidth: 10Gbps, sharing: half}")
            << "links.nic.sharing: expected a number from 0 to 1, got 'half'";
        QTest::newRow("max_streams 0")
            << QString(base).replace("bandwidth: 10Gbps}", "bandwidth: 10Gbps, max_streams: 0}")
            << "links.nic.max_streams: expected a number from 1 to 1e+06, got '0'";
        QTest::newRow("negative congestion")
            << QString(base).replace("bandwidth: 10Gbps}", "bandwidth: 10Gbps, congestion: -1}")
            << "links.nic.congestion: expected a number from 0 to 10, got '-1'";
        QTest::newRow("nodes over 2^24")
            << QString(base).replace("nodes: 4", "nodes: 16777217")
            << "spec.yaml:3: nodes: expected a whole number from 1 to 16777216";
    }
    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString e = errorOf(text.toStdString());
        QVERIFY2(e.contains(expected), qPrintable(e));
    }

    void folderIsNotASpec()
    {
        const QString dir = QDir::tempPath();
        try {
            NetworkSpec::fromFile(dir.toStdString());
            QFAIL("a folder was read as a spec");
        } catch (const TraceError& e) {
            QVERIFY2(QString(e.what()).contains("is a folder, not a network spec file"), e.what());
        }
    }

    void overrideErrors()
    {
        QVERIFY(errorOf(kSpec, {{"links.wan.latency", "soon"}})
                    .contains("spec.yaml: --set links.wan.latency: expected a time"));
        QVERIFY(errorOf(kSpec, {{"links.lan.latency", "1us"}}).contains("no key 'links.lan'"));
    }

    void modelKeys()
    {
        // Defaults, then the packet and grid keys as a file or --set gives them.
        const NetworkSpec d = NetworkSpec::fromString(kSpec, "spec.yaml");
        QCOMPARE(d.packetBytes, uint64_t(4096));
        QVERIFY(!d.cutThrough);
        QCOMPARE(d.wideAreaStreams, 1u);
        const NetworkSpec s = NetworkSpec::fromString(
            kSpec, "spec.yaml",
            {{"packet_size", "1KiB"}, {"switching", "cut_through"}, {"wide_area_streams", "3"}});
        QCOMPARE(s.packetBytes, uint64_t(1024));
        QVERIFY(s.cutThrough);
        QCOMPARE(s.wideAreaStreams, 3u);
    }

    void machineTooSmall()
    {
        const NetworkSpec s = NetworkSpec::fromString(kSpec, "spec.yaml");
        QVERIFY_THROWS_EXCEPTION(TraceError, Machine(s, 5));
        const Machine m(s, 4);
        QCOMPARE(m.nodeOf(3), 3u);
    }

    void mapping()
    {
        NetworkSpec s = NetworkSpec::fromString(
            std::string(kSpec) + "ranks_per_node: 2\nmapping: cyclic\n", "spec.yaml");
        const Machine m(s, 8);
        QCOMPARE(m.nodeOf(5), 1u); // 5 mod 4
        s = NetworkSpec::fromString(std::string(kSpec) + "ranks_per_node: 2\n", "spec.yaml");
        QCOMPARE(Machine(s, 8).nodeOf(5), 2u); // 5 / 2
    }

    void mappingAsRecorded()
    {
        // Four ranks recorded on nodes "b", "a", "b", "a": numbered in order of their first
        // rank, b = 0 and a = 1; two ranks on each.
        test::HandTrace h;
        for (int r = 0; r < 4; ++r)
            h.addRank();
        const StringId a = h.builder().intern("a"), b = h.builder().intern("b");
        for (uint32_t r = 0; r < 4; ++r)
            h.builder().setRankHost(RankId(r), r % 2 ? a : b);
        const Trace trace = h.finish();
        const NetworkSpec s =
            NetworkSpec::fromString(std::string(kSpec) + "mapping: trace\n", "spec.yaml");
        QCOMPARE(s.mapping, RankMapping::Trace);
        // Unresolved, a machine cannot place ranks.
        QVERIFY_THROWS_EXCEPTION(TraceError, Machine(s, 4));
        std::string note;
        const NetworkSpec placed = placedAsRecorded(s, trace, &note);
        QVERIFY(note.empty());
        QCOMPARE(recordedNodeCount(trace), 2u);
        QCOMPARE(placed.mapping, RankMapping::File);
        QCOMPARE(placed.mappingTable, (std::vector<uint32_t>{0, 1, 0, 1}));
        QCOMPARE(placed.ranksPerNode, 2u);
        const Machine m(placed, 4);
        QCOMPARE(m.nodeOf(2), 0u);
        QCOMPARE(m.nodeOf(3), 1u);
        QCOMPARE(m.channel(0, 2, 8), -1); // same node: the intra-node link

        // Five recorded nodes do not fit on the spec's four.
        test::HandTrace big;
        for (int r = 0; r < 5; ++r)
            big.addRank();
        for (uint32_t r = 0; r < 5; ++r)
            big.builder().setRankHost(RankId(r), big.builder().intern("n" + std::to_string(r)));
        const Trace five = big.finish();
        try {
            placedAsRecorded(s, five, nullptr);
            QFAIL("five nodes placed on four");
        } catch (const TraceError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("spec.yaml") != std::string::npos, e.what());
            QVERIFY2(what.find("5 compute nodes") != std::string::npos, e.what());
        }

        // A trace without recorded nodes is placed block, and the note says so.
        test::HandTrace plain;
        for (int r = 0; r < 4; ++r)
            plain.addRank();
        const NetworkSpec fallback = placedAsRecorded(s, plain.finish(), &note);
        QCOMPARE(fallback.mapping, RankMapping::Block);
        QVERIFY2(note.find("does not record") != std::string::npos, note.c_str());
        QVERIFY_THROWS_EXCEPTION(
            TraceError,
            NetworkSpec::fromString(std::string(kSpec) + "mapping: nodes\n", "spec.yaml"));
    }

    void shippedSpecs_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"ib-switch.yaml", "two-clusters-wan.yaml", "hybrid-tca-ib.yaml",
                              "fat-tree.yaml", "torus-3d.yaml"})
            QTest::newRow(f) << resource(f);
    }
    void shippedSpecs()
    {
        QFETCH(QString, file);
        const NetworkSpec s = NetworkSpec::fromFile(file.toStdString());
        QCOMPARE(s.nodes, 64u);
        const Machine m(s, 64);
        // Every pair of nodes is connected on every network (a direct network of rings only
        // inside its sub-clusters).
        for (size_t n = 0; n < m.networkCount(); ++n)
            for (uint32_t a = 0; a < 64; a += 7)
                for (uint32_t b = 0; b < 64; b += 5)
                    if (m.topology(n).subcluster(a) == m.topology(n).subcluster(b) ||
                        s.networks[n].topology != TopologyKind::DoubleRing)
                        QVERIFY(a == b || m.topology(n).path(a, b).hops > 0);
    }

    void topologies()
    {
        // 3D torus 4x4x4, dimension order: node 0 -> node 3 is one hop the short way round
        // (3 = -1 mod 4); 0 -> 42 = (2, 2, 2) is 2 + 2 + 2 hops.
        const NetworkSpec s = NetworkSpec::fromFile(resource("torus-3d.yaml").toStdString());
        const Topology t(s, s.networks[0]);
        QCOMPARE(t.path(0, 3).hops, 1u);
        QCOMPARE(t.path(0, 42).hops, 6u);
        // Fat tree k=4, 3 levels: nodes 0 and 1 share a leaf (2 hops), 0 and 63 need the top
        // (up 3, down 3).
        const NetworkSpec f = NetworkSpec::fromFile(resource("fat-tree.yaml").toStdString());
        const Topology ft(f, f.networks[0]);
        QCOMPARE(ft.path(0, 1).hops, 2u);
        QCOMPARE(ft.path(0, 5).hops, 4u);
        QCOMPARE(ft.path(0, 63).hops, 6u);
        // Double ring 2 x 8: node 0 -> 8 is the rung (1 hop), 0 -> 12 is rung + 4 around.
        const NetworkSpec h = NetworkSpec::fromFile(resource("hybrid-tca-ib.yaml").toStdString());
        const Topology dr(h, h.networks[1]);
        QCOMPARE(dr.path(0, 8).hops, 1u);
        QCOMPARE(dr.path(0, 12).hops, 5u);
        QCOMPARE(dr.subcluster(17), 1u);
    }

    void hybridPolicy()
    {
        // §9 policy: direct network (index 1) inside a sub-cluster up to 512 KiB and 5 hops,
        // the switch (index 0) otherwise.
        const NetworkSpec h = NetworkSpec::fromFile(resource("hybrid-tca-ib.yaml").toStdString());
        const Machine m(h, 64);
        QCOMPARE(m.channel(0, 1, 1024), 1);
        QCOMPARE(m.channel(0, 16, 1024), 0);       // another sub-cluster
        QCOMPARE(m.channel(0, 1, 1024 * 1024), 0); // too big
        QCOMPARE(m.channel(0, 12, 1024), 1);       // 5 hops: allowed
        QCOMPARE(m.channel(3, 12, 1024), 1);       // rung to 11, one step on: 2 hops
        const NetworkSpec tight = h.withOverrides({{"policy.max_hops", "3"}});
        const Machine t(tight, 64);
        QCOMPARE(t.channel(0, 12, 1024), 0); // 5 hops > 3
        QCOMPARE(t.channel(3, 12, 1024), 1);
    }
};

QTEST_GUILESS_MAIN(TestNetworkSpec)
#include "tst_networkspec.moc"
