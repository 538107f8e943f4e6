// The simulated trace carries each message's contention delay (Trace::messageContentionNs()):
// built by the replay, written to OTF2 as the uint64 attribute NETWORK_CONTENTION_NS of the
// receive records, listed by otf2-print (the reference reader) and read back by readOtf2.

// A standard header first: moc's own preprocessor fails on <concepts> when model/trace/ids.h's
// <compare> is the first header it sees.
// clang-format off
#include <map>
// clang-format on

#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "testsupport/handtrace.h"
#include "whatif/netsim/simulation.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::netsim;

namespace {

// The hot spot of tst_netsimlinks: a 3 x 3 torus, 100 ns per hop, 1 byte/ns, store-and-forward
// packets of 1000 bytes, no overheads.
const char* kTorus = R"(
nodes: 9
eager_limit: 16MiB
packet_size: 1000
switching: store_and_forward
links:
  t: {latency: 100ns, bandwidth: 8Gbps}
networks:
  torus: {topology: torus, dims: [3, 3], link: t}
)";

/// Nine ranks; after MPI_Init (all leave it at 20) ranks 3, 4 and 5 send 2000, 1000 and 1000
/// bytes to rank 0, which receives them in that order; everyone finalizes at 8000.
Trace hotSpotTrace()
{
    test::MpiWorld w(9);
    const RegionId send = w.h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = w.h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    TraceBuilder& b = w.h.builder();
    for (LocationId l : w.locs)
        w.begin(l);
    const std::pair<uint32_t, uint64_t> senders[] = {{3, 2000}, {4, 1000}, {5, 1000}};
    for (const auto& [rank, bytes] : senders) {
        w.h.enter(w.locs[rank], 20, send);
        b.send(w.locs[rank], 25, 0, w.world, 0, bytes);
        w.h.leave(w.locs[rank], 30, send);
    }
    int64_t t = 20;
    for (const auto& [rank, bytes] : senders) {
        w.h.enter(w.locs[0], t, recv);
        b.recv(w.locs[0], t + 990, rank, w.world, 0, bytes);
        w.h.leave(w.locs[0], t + 1000, recv);
        t += 1000;
    }
    for (LocationId l : w.locs)
        w.end(l, 8000, 8100);
    return w.h.finish();
}

/// Contention delay by sending rank.
std::map<uint32_t, int64_t> bySender(const Trace& t)
{
    std::map<uint32_t, int64_t> out;
    for (size_t m = 0; m < t.messages().size(); ++m)
        out[t.messageSender(t.messages()[m]).value] = t.messageContentionNs().at(m);
    return out;
}

} // namespace

class TestNetsimContentionTrace : public QObject
{
    Q_OBJECT

private slots:
    void carriedThroughOtf2()
    {
        // As worked out in tst_netsimlinks: rank 3's two packets wait for none of the others,
        // rank 4's packet waits 900 ns for n3->n0, rank 5's 1900 ns.
        const std::map<uint32_t, int64_t> expected{{3, 0}, {4, 900}, {5, 1900}};
        const Trace input = hotSpotTrace();
        QVERIFY(input.messageContentionNs().empty()); // a measured trace has none
        SimulationOptions o;
        o.model = "packet";
        o.buildTrace = true;
        o.linkStats = true;
        const SimulationResult r = simulate(input, NetworkSpec::fromString(kTorus, "t.yaml"), o);
        QVERIFY(r.trace);
        QCOMPARE(bySender(*r.trace), expected);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeOtf2(*r.trace, dir.path().toStdString());
        const Trace back = readOtf2(dir.filePath("traces.otf2").toStdString());
        QCOMPARE(bySender(back), expected);
        QVERIFY(back.sameContent(*r.trace));

        // otf2-print lists the attribute under each receive record.
        const QString exe = QStandardPaths::findExecutable(QStringLiteral("otf2-print"));
        if (exe.isEmpty()) QSKIP("otf2-print is not installed");
        QProcess p;
        p.start(exe, {dir.filePath(QStringLiteral("traces.otf2"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("NETWORK_CONTENTION_NS")), qPrintable(out.left(4000)));
        // Each MPI_RECV record (all on rank 0) is followed by its attribute line, e.g.
        // ADDITIONAL ATTRIBUTES: ("NETWORK_CONTENTION_NS" <0>; UINT64; 900).
        static const QRegularExpression recv(
            QStringLiteral("^MPI_RECV\\s+\\d+\\s+\\d+\\s+Sender: (\\d+)[^\\n]*\\n\\s*"
                           "ADDITIONAL ATTRIBUTES: \\(\"NETWORK_CONTENTION_NS\" <\\d+>; UINT64; "
                           "(\\d+)\\)"),
            QRegularExpression::MultilineOption);
        QVERIFY2(!out.contains(QStringLiteral("out of order")), qPrintable(out.left(2000)));
        std::map<uint32_t, int64_t> printed;
        for (auto it = recv.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            printed[m.captured(1).toUInt()] = m.captured(2).toLongLong();
        }
        QCOMPARE(printed, expected);
    }

    void noFiguresNoAttribute()
    {
        // Without link statistics the simulated trace has no delays and its OTF2 no attribute.
        SimulationOptions o;
        o.model = "packet";
        o.buildTrace = true;
        const SimulationResult r =
            simulate(hotSpotTrace(), NetworkSpec::fromString(kTorus, "t.yaml"), o);
        QVERIFY(r.trace->messageContentionNs().empty());
        QTemporaryDir dir;
        writeOtf2(*r.trace, dir.path().toStdString());
        QVERIFY(readOtf2(dir.filePath("traces.otf2").toStdString()).messageContentionNs().empty());
    }
};

QTEST_GUILESS_MAIN(TestNetsimContentionTrace)
#include "tst_netsimcontentiontrace.moc"
