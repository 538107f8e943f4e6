// Halo faces by kind on a machine with two networks (policy.strided, whatif/netsim/stridedfaces.h):
// a message sent from a call site naming a strided face takes the policy's strided network and
// costs its sender packing and its receiver unpacking; others follow the policy's rules.
//
// Machine: two nodes, one rank each, on two crossbars: ib (two 1 us links, 8 bytes/ns: a message
// of b bytes takes 2000 + b / 8 ns) and tca (two 100 ns links, 16 bytes/ns: 200 + b / 16 ns).
// The policy sends everything over tca; strided faces (call sites containing "pack_y") over ib,
// packed and unpacked at 1 byte/ns. Overheads are zero and every message is eager. Replay
// times below are worked out by hand from these costs (LogGP).

#include "model/trace/traceerror.h"
#include "testsupport/handtrace.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/machine.h"
#include "whatif/netsim/simulation.h"
#include "whatif/netsim/stridedfaces.h"

#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

const std::string kSpec = R"(name: two-networks
nodes: 2
ranks_per_node: 1
eager_limit: 1GiB
overhead: {send: 0ns, recv: 0ns}
links:
  ib: {latency: 1us, bandwidth: 8GB/s}
  tca: {latency: 100ns, bandwidth: 16GB/s}
networks:
  ib: {topology: crossbar, link: ib}
  tca: {topology: crossbar, link: tca}
policy:
  direct: tca
  fallback: ib
  same_subcluster: false
)";

const std::string kStrided = R"(  strided:
    callsites: [pack_y]
    network: ib
    pack: 1GB/s
)";

/// Rank 0: MPI_Init [0, 10]; in pack_y an MPI_Send of 4000 bytes (tag 1) [210, 220]; in face_x
/// an MPI_Send of 4000 bytes (tag 2) [310, 320]; MPI_Finalize [1000, 1010].
/// Rank 1: MPI_Init [0, 10]; MPI_Recv of tag 1 [150, 900]; MPI_Recv of tag 2 [905, 990];
/// MPI_Finalize [1000, 1010].
Trace twoFaces()
{
    test::TwoRanks w;
    test::HandTrace& h = w.h;
    const RegionId packY = h.user("pack_y"), faceX = h.user("face_x");
    h.enter(w.r0, 200, packY);
    h.enter(w.r0, 210, w.send);
    h.builder().send(w.r0, 212, 1, w.world, 1, 4000);
    h.leave(w.r0, 220, w.send);
    h.leave(w.r0, 230, packY);
    h.enter(w.r0, 300, faceX);
    h.enter(w.r0, 310, w.send);
    h.builder().send(w.r0, 312, 1, w.world, 2, 4000);
    h.leave(w.r0, 320, w.send);
    h.leave(w.r0, 330, faceX);
    h.enter(w.r1, 150, w.recv);
    h.builder().recv(w.r1, 890, 0, w.world, 1, 4000);
    h.leave(w.r1, 900, w.recv);
    h.enter(w.r1, 905, w.recv);
    h.builder().recv(w.r1, 980, 0, w.world, 2, 4000);
    h.leave(w.r1, 990, w.recv);
    return w.end(1000);
}

QString errorOf(const std::string& text)
{
    try {
        NetworkSpec::fromString(text, "spec.yaml");
    } catch (const TraceError& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

} // namespace

class TestStridedFaces : public QObject
{
    Q_OBJECT

private slots:
    void specReadsTheFaceKinds()
    {
        const NetworkSpec spec = NetworkSpec::fromString(kSpec + kStrided, "spec.yaml");
        QCOMPARE(spec.policy.stridedSites, std::vector<std::string>{"pack_y"});
        QCOMPARE(spec.policy.stridedNetwork, std::string("ib"));
        QCOMPARE(spec.policy.packBytesPerNs, 1.0);
        // ib is network 0, tca network 1: the policy sends everything over tca, strided
        // faces over ib.
        const Machine m(spec, 2);
        QCOMPARE(m.channel(0, 1, 4000), 1);
        QCOMPARE(m.channel(0, 1, 4000, Placement::Strided), 0);
        // Without a strided network, a strided face follows the policy's rules.
        const NetworkSpec plainSpec = NetworkSpec::fromString(kSpec, "spec.yaml");
        const Machine plain(plainSpec, 2); // (a Machine refers to its spec)
        QCOMPARE(plain.channel(0, 1, 4000, Placement::Strided), 1);
    }

    void markedByCallSite()
    {
        const Trace t = twoFaces();
        ActionProgram p = buildActions(t, 1.0);
        const NetworkSpec spec = NetworkSpec::fromString(kSpec + kStrided, "spec.yaml");
        QCOMPARE(markStridedFaces(t, spec.policy, p), size_t(1));
        // Message 0 (tag 1, sent in pack_y) is strided, message 1 (face_x) is not.
        QCOMPARE(t.messages()[0].tag, 1);
        QCOMPARE(p.strided, (std::vector<uint8_t>{1, 0}));
        // Its send packs 4000 bytes at 1 byte/ns, its receive unpacks them.
        for (const Action& a : p.actions) {
            if (a.kind == ActionKind::PostSend || a.kind == ActionKind::WaitRecv)
                QCOMPARE(a.value, a.ref == 0 ? 4000.0 : 0.0);
        }
        // A policy without strided sites marks nothing.
        ActionProgram q = buildActions(t, 1.0);
        QCOMPARE(markStridedFaces(t, NetworkSpec::fromString(kSpec, "s.yaml").policy, q),
                 size_t(0));
        QVERIFY(q.strided.empty());
    }

    void replayPacksAndTakesTheStridedNetwork()
    {
        const SimulationResult r =
            simulate(twoFaces(), NetworkSpec::fromString(kSpec + kStrided, "spec.yaml"), {});
        QCOMPARE(r.stridedFaces, uint64_t(1));
        // Both start at 10. Rank 0 computes 200, packs 4000 (t = 4210) and sends over ib:
        // arrival 4210 + 2000 + 500 = 6710; computes 90 (4300), sends the contiguous face over
        // tca: arrival 4300 + 200 + 250 = 4550; computes 680 and enters MPI_Finalize at 4980.
        // Rank 1 computes 140, waits for the strided face until 6710 and unpacks it (10710),
        // computes 5 (10715), finds the other face there, computes 10 and enters MPI_Finalize
        // at 10725, the last entry. Each keeps its measured tail of 10 ns.
        QCOMPARE(r.perRank[0].endNs, 10735);
        QCOMPARE(r.perRank[1].endNs, 10735);
        QCOMPARE(r.predictedRuntimeNs, 10735 - 10);
        // Rank 0's MPI time: the packing in its first send, 0 in the second, and Finalize
        // from 4980 to 10735.
        QCOMPARE(r.perRank[0].mpiNs, 4000 + (10735 - 4980));
    }

    void withoutTheRuleBothFacesTakeTheDirectNetwork()
    {
        const SimulationResult r =
            simulate(twoFaces(), NetworkSpec::fromString(kSpec, "spec.yaml"), {});
        QCOMPARE(r.stridedFaces, uint64_t(0));
        // Rank 0 sends at 210 (arrival 460) and 300 (arrival 550), enters MPI_Finalize at
        // 980. Rank 1: first receive done at 460, computes 5 (465), waits for 550, computes 10
        // and enters MPI_Finalize at 560. Last entry 980, tails of 10; the span starts at 10.
        QCOMPARE(r.predictedRuntimeNs, 990 - 10);
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("strided");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no call sites") << "  strided: {network: ib}\n"
                                       << "spec.yaml:16: policy.strided.callsites: missing";
        QTest::newRow("empty list") << "  strided: {callsites: []}\n"
                                    << "policy.strided.callsites: expected a list of call-site";
        QTest::newRow("not a list") << "  strided: {callsites: pack_y}\n"
                                    << "policy.strided.callsites: expected a list of call-site";
        QTest::newRow("empty text") << "  strided: {callsites: ['']}\n"
                                    << "policy.strided.callsites: expected a call-site text";
        QTest::newRow("unknown network")
            << "  strided: {callsites: [pack_y], network: opa}\n"
            << "policy.strided.network: expected the name of a network, got 'opa'";
        QTest::newRow("pack without unit")
            << "  strided: {callsites: [pack_y], pack: fast}\n"
            << "policy.strided.pack: expected a bandwidth with a unit";
        QTest::newRow("unknown key") << "  strided: {callsites: [pack_y], stride: 8}\n"
                                     << "policy.strided.stride: unknown key";
        QTest::newRow("not a map") << "  strided: pack_y\n"
                                   << "policy.strided: expected a map";
    }
    void badSpecs()
    {
        QFETCH(QString, strided);
        QFETCH(QString, expected);
        const QString e = errorOf(kSpec + strided.toStdString());
        QVERIFY2(e.contains(expected), qPrintable(e));
    }
};

QTEST_GUILESS_MAIN(TestStridedFaces)
#include "tst_stridedfaces.moc"
