// SimGrid time-independent trace import (importers/simgrid/tiimport.h): hand-made traces with
// hand-derived action programs, ideal-replay times and replayed run times; the round trip
// OTF2 -> TI -> replay against replaying the OTF2 directly; bad input named by file and line.

#include "importers/simgrid/simgridexport.h"
#include "importers/simgrid/tiimport.h"
#include "importers/tracefile.h"
#include "testsupport/clirunner.h"
#include "testsupport/expecterror.h"
#include "testsupport/testpaths.h"
#include "testsupport/twonodespec.h"
#include "whatif/netsim/actionbuilder.h"
#include "whatif/netsim/simulation.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace rankscope;
using namespace rankscope::netsim;
using namespace rankscope::test;

namespace {

std::string fixture(const char* name)
{
    return testData(QStringLiteral("ti/") + QLatin1String(name)).toStdString();
}

/// Writes a TI trace of one file per rank into `dir`; returns the list file.
std::string writeTi(const QTemporaryDir& dir, const std::vector<std::string>& ranks)
{
    std::string list;
    for (size_t r = 0; r < ranks.size(); ++r) {
        const std::string name = "rank-" + std::to_string(r) + ".txt";
        std::ofstream(dir.filePath(QString::fromStdString(name)).toStdString()) << ranks[r];
        list += name + "\n";
    }
    const std::string path = dir.filePath(QStringLiteral("run.ti")).toStdString();
    std::ofstream(path) << list;
    return path;
}

NetworkSpec twoNodes()
{
    return NetworkSpec::fromString(kTwoNodeSpec, "two");
}

std::vector<ActionKind> kinds(const ActionProgram& p, uint32_t r)
{
    std::vector<ActionKind> k;
    for (size_t i = p.rankBegin[r]; i < p.rankBegin[r + 1]; ++i)
        k.push_back(p.actions[i].kind);
    return k;
}

/// Time of the events of rank r's main location whose region is `name` (enters and leaves).
std::vector<int64_t> callTimes(const Trace& t, uint32_t r, std::string_view name)
{
    std::vector<int64_t> times;
    const EventStream& ev = t.rankEvents(RankId(r));
    for (size_t i = 0; i < ev.size(); ++i)
        if ((ev.kind(i) == EventKind::Enter || ev.kind(i) == EventKind::Leave) &&
            t.regionName(ev.region(i)) == name)
            times.push_back(ev.time(i));
    return times;
}

} // namespace

class TestTiImport : public QObject
{
    Q_OBJECT

private slots:
    void pingpongProgram()
    {
        const TiImport in = readTiProgram(fixture("pingpong.ti"));
        const ActionProgram& p = in.program;
        QCOMPARE(p.rankCount(), 2u);
        QCOMPARE(in.actions, 16u);
        // The message of `send 1 7 800` (0 -> 1) and of `isend 0 8 1600` (1 -> 0).
        QCOMPARE(p.messages.size(), size_t(2));
        QCOMPARE(p.messages[0].src, 0u);
        QCOMPARE(p.messages[0].dst, 1u);
        QCOMPARE(p.messages[0].bytes, uint64_t(800));
        QCOMPARE(p.messages[1].src, 1u);
        QCOMPARE(p.messages[1].dst, 0u);
        QCOMPARE(p.messages[1].bytes, uint64_t(1600));
        QCOMPARE(in.tags, (std::vector<int32_t>{7, 8}));
        QCOMPARE(in.blocking, (std::vector<uint8_t>{3, 0})); // send/recv, isend/irecv
        QCOMPARE(p.collectives.size(), size_t(1));
        QCOMPARE(p.collectives[0].kind, CollKind::Allreduce);
        QCOMPARE(p.collectives[0].bytes, uint64_t(80));
        using K = ActionKind;
        QCOMPARE(kinds(p, 0),
                 (std::vector<K>{K::Enter, K::Leave, // init
                                 K::Compute, K::Enter, K::PostSend, K::WaitSend, K::Leave,
                                 K::Compute, K::Enter, K::PostRecv, K::Leave, // irecv
                                 K::Enter, K::WaitRecv, K::Leave,             // wait
                                 K::Enter, K::Collective, K::Leave, K::Enter, K::Leave}));
        QCOMPARE(p.actions[p.rankBegin[1] + 2].value, 3000.0);
        QVERIFY(in.warnings.empty());
    }

    void pingpongTrace()
    {
        // The ideal replay: rank 0 sends at 1000 and waits from 1500 for rank 1's isend, which
        // rank 1 posts at 3000 (its receive) + 200 = 3200; the allreduce ends at 3200.
        const Trace t = readTraceFile(fixture("pingpong.ti"));
        QCOMPARE(t.rankCount(), size_t(2));
        QCOMPARE(t.duration(), int64_t(3200));
        QCOMPARE(callTimes(t, 0, "MPI_Send"), (std::vector<int64_t>{1000, 1000}));
        QCOMPARE(callTimes(t, 0, "MPI_Wait"), (std::vector<int64_t>{1500, 3200}));
        QCOMPARE(callTimes(t, 1, "MPI_Recv"), (std::vector<int64_t>{3000, 3000}));
        QCOMPARE(callTimes(t, 1, "MPI_Isend"), (std::vector<int64_t>{3200, 3200}));
        QCOMPARE(t.messages().size(), size_t(2));
        for (const Message& m : t.messages())
            QVERIFY(m.matched());
        QCOMPARE(t.messages()[0].tag + t.messages()[1].tag, 15);
        QCOMPARE(t.collectives().size(), size_t(1));
        QCOMPARE(t.collectives()[0].op, CollectiveOp::Allreduce);
        QCOMPARE(t.provenance().kind, std::string("simulated"));
    }

    void pingpongReplay()
    {
        // Two 1 us links at 8 bytes/ns, eager: rank 0's 800 bytes sent at 1000 arrive at
        // 1000 + 2000 + 100 = 3100, so rank 1's receive ends then, its isend of 1600 bytes goes
        // at 3300 and arrives at 3300 + 2000 + 200 = 5500, where rank 0 enters the allreduce.
        // Its 80 bytes (one exchange between two ranks) reach rank 1 at 5500 + 2010 = 7510.
        const TiImport in = readTiProgram(fixture("pingpong.ti"));
        const SimulationResult direct = simulateProgram(in.program, twoNodes(), {});
        QCOMPARE(direct.predictedRuntimeNs, int64_t(7510));
        // The Trace of the import replays the same program.
        const SimulationResult viaTrace =
            simulate(readTraceFile(fixture("pingpong.ti")), twoNodes(), {});
        QCOMPARE(viaTrace.predictedRuntimeNs, int64_t(7510));
    }

    void sharedFile()
    {
        // One file for three ranks; `init 1` makes sizes counts of 8-byte doubles. Rank 2
        // sleeps 4 us, so its receive and the bcast end at 4000.
        const TiImport in = readTiProgram(fixture("shared.ti"));
        QCOMPARE(in.program.rankCount(), 3u);
        QCOMPARE(in.program.messages.size(), size_t(2));
        QCOMPARE(in.program.messages[0].bytes, uint64_t(80));
        QCOMPARE(in.program.collectives.size(), size_t(2));
        QCOMPARE(in.program.collectives[0].kind, CollKind::Bcast);
        QCOMPARE(in.program.collectives[0].root, 1u);
        QCOMPARE(in.program.collectives[0].bytes, uint64_t(800));
        QCOMPARE(in.program.collectives[1].kind, CollKind::Alltoall);
        QCOMPARE(in.program.collectives[1].bytes, uint64_t(5 * 8 * 3));
        const Trace t = readTraceFile(fixture("shared.ti"));
        QCOMPARE(t.duration(), int64_t(4000));
        QCOMPARE(callTimes(t, 1, "MPI_Wait"), (std::vector<int64_t>{1000, 2000}));
        QCOMPARE(callTimes(t, 2, "MPI_Recv"), (std::vector<int64_t>{4000, 4000}));
        QCOMPARE(t.collectives()[0].root, RankId(1));
    }

    void roundTripDemo()
    {
        // OTF2 -> action program -> TI (the SimGrid export) -> action program: the replay on
        // the same spec predicts the same run time, directly and through the imported Trace.
        const Trace otf2 =
            readTraceFile(traceAnchor("casita-mpi-late-sender-barrier-4r").toStdString());
        const NetworkSpec spec =
            NetworkSpec::fromFile(RANKSCOPE_SOURCE_DIR "/resources/networks/ib-switch.yaml");
        QTemporaryDir dir;
        const ActionProgram program = buildActions(otf2, 1.0);
        const bench::SimGridExport e =
            bench::exportSimGridTrace(program, spec, dir.filePath("ti").toStdString());
        QCOMPARE(e.skippedMessages, uint64_t(0));
        const TiImport in = readTiProgram(e.listFile);
        for (const char* model : {"loggp", "flow"}) {
            SimulationOptions o;
            o.model = model;
            const int64_t want = simulateProgram(program, spec, o).predictedRuntimeNs;
            QCOMPARE(simulateProgram(in.program, spec, o).predictedRuntimeNs, want);
            QCOMPARE(simulate(readTraceFile(e.listFile), spec, o).predictedRuntimeNs, want);
        }
    }

    void roundTripStencil()
    {
        const QString anchor = traceAnchor("tracer-stencil4d-64r");
        if (anchor.isEmpty()) QSKIP("tracer-stencil4d-64r is not there");
        const Trace otf2 = readTraceFile(anchor.toStdString());
        const NetworkSpec spec =
            NetworkSpec::fromFile(RANKSCOPE_SOURCE_DIR "/resources/networks/ib-switch.yaml");
        QTemporaryDir dir;
        const ActionProgram program = buildActions(otf2, 1.0);
        const bench::SimGridExport e =
            bench::exportSimGridTrace(program, spec, dir.filePath("ti").toStdString());
        const TiImport in = readTiProgram(e.listFile);
        SimulationOptions o;
        o.model = "flow";
        const int64_t want = simulateProgram(program, spec, o).predictedRuntimeNs;
        const int64_t got = simulateProgram(in.program, spec, o).predictedRuntimeNs;
        qInfo("tracer-stencil4d-64r on ib-switch (flow): OTF2 %lld ns, OTF2 -> TI %lld ns, "
              "%llu TI actions, %llu messages left out",
              (long long)want, (long long)got, (unsigned long long)e.actions(),
              (unsigned long long)e.skippedMessages);
        QCOMPARE(got, want);
        QCOMPARE(simulate(readTraceFile(e.listFile), spec, o).predictedRuntimeNs, want);
    }

    void convertAndSimulate()
    {
        // `convert -o OUT.ti` writes the list and a file per rank beside it; every command opens
        // it, and `simulate` on it predicts what the replay of the OTF2's own program does.
        const QString demo = traceAnchor("casita-mpi-late-sender-barrier-4r");
        QTemporaryDir dir;
        const QString ti = dir.filePath(QStringLiteral("demo.ti"));
        CliResult r = runCli({"convert", demo, "-o", ti});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("demo-rank-3.txt"))));
        r = runCli({"info", ti, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value(QLatin1String("ranks")).toInt(), 4);
        const QString spec =
            QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources/networks/ib-switch.yaml");
        r = runCli({"simulate", ti, "--network", spec, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const double predicted = jsonOf(r).value(QLatin1String("predicted_runtime_ns")).toDouble();
        const ActionProgram program = buildActions(readTraceFile(demo.toStdString()), 1.0);
        QCOMPARE(predicted,
                 double(simulateProgram(program, NetworkSpec::fromFile(spec.toStdString()), {})
                            .predictedRuntimeNs));
    }

    void badInput()
    {
        QTemporaryDir dir;
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 init\n0 send 1 7\n", "1 init\n"})),
                           "rank-0.txt:2: truncated line: send needs <dst> <tag> <size>");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 init\n\n0 send 1 7 big\n", "1 init\n"})),
                           "rank-0.txt:3: size 'big' is not a number");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 init\n0 send 2 7 8\n", "1 init\n"})),
                           "rank-0.txt:2: destination 2 is not a rank (the trace has 2)");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 send 1 x 8\n", "1 init\n"})),
                           "rank-0.txt:1: tag 'x' is not an integer");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 bcast 8 0 99\n", "1 bcast 8\n"})),
                           "rank-0.txt:1: datatype 99");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0\n", "1 init\n"})),
                           "rank-0.txt:1: truncated line");
        // A list naming a file that is not there: the list's line names it.
        const std::string list = dir.filePath("missing.ti").toStdString();
        std::ofstream(list) << "# ranks\nnowhere.txt\nrank-0.txt\n";
        EXPECT_TRACE_ERROR(readTiProgram(list), "missing.ti:2: rank file");
        EXPECT_TRACE_ERROR(readTiProgram(list), "nowhere.txt does not exist");
        EXPECT_TRACE_ERROR(readTiProgram(dir.filePath("none.ti").toStdString()),
                           "none.ti: no such file");
        // Collectives that disagree, and ranks that wait for each other forever.
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 barrier\n", "1 init\n1 bcast 8\n"})),
                           "rank-1.txt:2: collective 1 of rank 1 is MPI_Bcast");
        EXPECT_TRACE_ERROR(readTiProgram(writeTi(dir, {"0 barrier\n0 barrier\n", "1 barrier\n"})),
                           "rank 1 calls 1 collective(s)");
        EXPECT_TRACE_ERROR(readTraceFile(writeTi(dir, {"0 recv 1 0 8\n0 send 1 0 8\n",
                                                       "1 recv 0 0 8\n1 send 0 0 8\n"})),
                           "wait for each other forever");
    }

    void skippedAndUnmatched()
    {
        // Unknown actions are skipped with a count, named by the file and line of the first;
        // a send without its receive and a stray wait are warnings too.
        QTemporaryDir dir;
        const std::string path =
            writeTi(dir, {"0 init\n0 frobnicate 3\n0 send 1 0 8\n0 frobnicate\n0 finalize\n",
                          "1 init\n1 wait 0 1 4\n1 finalize\n"});
        const TiImport in = readTiProgram(path);
        QCOMPARE(in.skippedActions, uint64_t(2));
        QCOMPARE(in.unmatchedSends, uint64_t(1));
        QCOMPARE(in.strayWaits, uint64_t(1));
        QCOMPARE(in.program.messages[0].dst, kNoRank);
        const std::string all = [&] {
            std::string s;
            for (const std::string& w : in.warnings)
                s += w + "\n";
            return s;
        }();
        QVERIFY2(all.find("rank-0.txt:2: unknown action 'frobnicate' skipped (2 times)") !=
                     std::string::npos,
                 all.c_str());
        QVERIFY2(all.find("rank-1.txt:2: wait without a pending request") != std::string::npos,
                 all.c_str());
        const Trace t = readTraceFile(path);
        QCOMPARE(t.diagnostics().unmatchedSends, uint64_t(1));
        QVERIFY(t.diagnostics().warnings.size() >= 3);
    }
};

QTEST_GUILESS_MAIN(TestTiImport)
#include "tst_tiimport.moc"
