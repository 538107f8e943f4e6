// The Paraver import (importers/paraver/): a hand-written two-task trace (tests/data/paraver/
// hand.prv, with its .pcf) against figures worked out by hand from its records, the same trace
// gzipped, several applications, a trace without a .pcf, and damaged input, which must give an
// error naming the file and the line.

#include "importers/paraver/paraverreader.h"
#include "importers/tracefile.h"
#include "model/profile/profile.h"
#include "model/trace/callrecords.h"
#include "model/trace/traceerror.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

std::string data(const char* name)
{
    return test::testData(QStringLiteral("paraver/") + QLatin1String(name)).toStdString();
}

/// "MPI_Send[1300,1500]{2}" per call: name, enter and leave, payload event kinds.
QStringList calls(const Trace& trace, uint32_t rank)
{
    CallSiteTable sites;
    const RankCallRecords records = mpiCallRecords(trace, RankId(rank), sites);
    QStringList out;
    for (const CallRecord& c : records.calls) {
        QString s = QString::fromStdString(std::string(trace.regionName(c.region))) +
                    QStringLiteral("[%1,%2]{").arg(c.enterTime).arg(c.leaveTime);
        for (const CallPayload& p : records.payloadOf(c))
            s += QString::number(int(p.kind)) + QLatin1Char(' ');
        out << s.trimmed() + QLatin1Char('}');
    }
    return out;
}

RegionId regionNamed(const Trace& trace, std::string_view name)
{
    for (size_t r = 0; r < trace.regions().size(); ++r)
        if (trace.regionName(RegionId(uint32_t(r))) == name) return RegionId(uint32_t(r));
    return {};
}

/// Writes `text` to `name` in `dir` and returns its path.
std::string writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path.toStdString();
}

} // namespace

class TestParaverImport : public QObject
{
    Q_OBJECT

private slots:
    void handTrace()
    {
        const Trace t = readParaver(data("hand.prv"));
        QCOMPARE(t.rankCount(), size_t(2));
        // Task 1: two threads; task 2: one thread and its states.
        QCOMPARE(t.locations().size(), size_t(4));
        QCOMPARE(t.rank(RankId(0)).locations.size(), size_t(2));
        // Events counted by hand: task 1 thread 1: 9 MPI calls and the user function as Enter
        // and Leave (16 + 2), a send, a posting, a receive, two collective begins and ends, one
        // PAPI event (24); thread 2: 2; task 2: 7 calls (14), a receive, a send, four
        // collective events (20); three states (6).
        QCOMPARE(t.eventCount(), uint64_t(52));
        QVERIFY(t.diagnostics().warnings.empty());

        // The MPI calls with what they did (EventKind numbers: 2 send, 3 isend, 5 posting,
        // 6 recv, 7 irecv, 10/11 collective begin/end). The message to task 2 completes at
        // 2000, when MPI_Recv leaves and MPI_Isend enters: it belongs to the MPI_Recv; the send
        // at 2000 to the MPI_Isend; the posting at 1500 to the MPI_Irecv, not the MPI_Send
        // leaving then.
        QCOMPARE(
            calls(t, 0),
            (QStringList{"MPI_Init[0,100]{}", "MPI_Send[1300,1500]{2}", "MPI_Irecv[1500,1600]{5}",
                         "MPI_Wait[1600,3000]{7}", "MPI_Allreduce[3000,4000]{10 11}",
                         "MPI_Bcast[4000,4500]{10 11}", "MPI_Finalize[5000,5100]{}"}));
        QCOMPARE(
            calls(t, 1),
            (QStringList{"MPI_Init[0,100]{}", "MPI_Recv[1000,2000]{6}", "MPI_Isend[2000,2100]{3}",
                         "MPI_Allreduce[3000,4000]{10 11}", "MPI_Bcast[4000,4500]{10 11}",
                         "MPI_Finalize[5000,5100]{}", "MPI_Custom_call[5200,5300]{}"}));

        QCOMPARE(t.messages().size(), size_t(2));
        for (const Message& m : t.messages()) {
            QVERIFY(m.matched());
            const bool toTask2 = t.messageSender(m) == RankId(0);
            QCOMPARE(t.messageReceiver(m), RankId(toTask2 ? 1 : 0));
            QCOMPARE(m.bytes, uint64_t(toTask2 ? 64 : 128));
            QCOMPARE(m.tag, toTask2 ? 7 : 9);
        }

        // Collectives on the "c:" communicator 1, the Bcast rooted at task 1 (rank 0).
        QCOMPARE(t.collectives().size(), size_t(2));
        for (const CollectiveInstance& c : t.collectives()) {
            QCOMPARE(c.memberCount, 2u);
            QVERIFY(c.complete);
            QCOMPARE(t.str(t.communicator(c.comm).name), std::string_view("communicator 1"));
            if (c.op == CollectiveOp::Bcast) {
                QCOMPARE(c.root, RankId(0));
            } else {
                QCOMPARE(c.op, CollectiveOp::Allreduce);
            }
        }
        for (const CollectiveInstance& c : t.collectives()) {
            for (uint32_t k = 0; k < c.memberCount; ++k) {
                const CollectiveMember& m = t.collectiveMembers()[c.firstMember + k];
                const bool root = t.rankOf(m.location) == RankId(0);
                // Allreduce: 8 each way; Bcast: the root sends 16, the other receives 16.
                QCOMPARE(m.bytesSent, uint64_t(c.op == CollectiveOp::Allreduce ? 8
                                               : root                          ? 16
                                                                               : 0));
                QCOMPARE(m.bytesReceived, uint64_t(c.op == CollectiveOp::Allreduce ? 8
                                                   : root                          ? 0
                                                                                   : 16));
            }
        }

        // Profile: MPI time 100+200+100+1400+1000+500+100 on task 1,
        // 100+1000+100+1000+500+100+100 on task 2; "compute" 1000 ns; states stay out of it.
        const Profile p = computeProfile(t);
        QCOMPARE(p.ranks[0].mpiTime, int64_t(3400));
        QCOMPARE(p.ranks[1].mpiTime, int64_t(2900));
        const RegionId compute = regionNamed(t, "compute");
        QVERIFY(compute.valid());
        QCOMPARE(p.ranks[0].regions[compute.value].exclusive, int64_t(1000));
        const RegionId waiting = regionNamed(t, "Waiting a message");
        QVERIFY(waiting.valid());
        QCOMPARE(p.ranks[1].regions[waiting.value].calls, uint64_t(0));

        // The state location: Running [0,1000], Waiting a message [1000,2000], Running after.
        const LocationId states = t.rank(RankId(1)).locations.back();
        QCOMPARE(t.location(states).type, LocationType::Other);
        const EventStream& es = t.events(states);
        QCOMPARE(es.size(), size_t(6));
        QCOMPARE(es.region(2), waiting);
        QCOMPARE(es.time(2), int64_t(1000));
        QCOMPARE(es.time(3), int64_t(2000));

        // The PAPI counter is kept as a misc event named by the .pcf.
        QCOMPARE(t.miscEvents().size(), size_t(1));
        QCOMPARE(t.miscEvents()[0].value, int64_t(123));
        QCOMPARE(t.str(StringId(t.miscEvents()[0].detail)), std::string_view("PAPI_TOT_INS"));
    }

    void gzippedEqualsPlain()
    {
        const Trace plain = readParaver(data("hand.prv"));
        const Trace gz = readTraceFile(data("handgz.prv.gz"));
        QVERIFY(gz.sameContent(plain));
    }

    void pathsByExtension()
    {
        QVERIFY(isParaverPath("run.prv"));
        QVERIFY(isParaverPath("dir/RUN.PRV.GZ"));
        QVERIFY(!isParaverPath("traces.otf2"));
        QVERIFY(!isParaverPath("run.prv.bak"));
    }

    void severalApplications()
    {
        // Application 1: two tasks; application 2: one task; a message from 2.1 to 1.2 and a
        // barrier in each application (no "c:" records: each on its own application's tasks).
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "apps.prv",
                                           "#Paraver (01/01/24 at 12:00):100_us:0:2:2(1,1):1(1),0\n"
                                           "2:0:1:1:1:0:50000002:8\n"
                                           "2:0:1:2:1:0:50000002:8\n"
                                           "2:0:2:1:1:0:50000001:1\n"
                                           "3:0:2:1:1:1:1:0:1:2:1:2:3:10:0\n"
                                           "2:0:2:1:1:2:50000001:0\n"
                                           "2:0:1:1:1:5:50000002:0\n"
                                           "2:0:1:2:1:5:50000002:0\n"
                                           "2:0:2:1:1:6:50000002:8\n"
                                           "2:0:2:1:1:7:50000002:0\n");
        const Trace t = readParaver(path);
        QCOMPARE(t.rankCount(), size_t(3));
        // Microseconds without _ns: the send at 1 us.
        QCOMPARE(t.messages().size(), size_t(1));
        const Message& m = t.messages()[0];
        QCOMPARE(t.messageSender(m), RankId(2));
        QCOMPARE(t.messageReceiver(m), RankId(1));
        QCOMPARE(t.events(m.sendLocation).time(m.sendEvent), int64_t(1000));
        QCOMPARE(t.collectives().size(), size_t(2));
        QCOMPARE(t.collectives()[0].memberCount + t.collectives()[1].memberCount, 3u);
        QVERIFY(t.collectives()[0].complete && t.collectives()[1].complete);
        // No .pcf: Extrae's numbering names the calls, and a warning says so.
        QCOMPARE(t.regionName(t.rankEvents(RankId(2)).region(0)), std::string_view("MPI_Send"));
        QCOMPARE(t.diagnostics().warnings.size(), size_t(1));
        QVERIFY(t.diagnostics().warnings[0].find("no apps.pcf") != std::string::npos);
    }

    /// hand.prv enters user functions 1 and 2 (type 60000019, lines 8 and 9). With an empty or
    /// garbage .pcf beside it nothing names them: a warning says the .pcf names nothing, and
    /// another that 2 regions are shown as "function N".
    void emptyOrGarbagePcfIsReported_data()
    {
        QTest::addColumn<QByteArray>("pcf");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << QByteArray("\x7f\x01\xfe garbage \x02 no blocks\n\x03\x04");
    }

    void emptyOrGarbagePcfIsReported()
    {
        QFETCH(QByteArray, pcf);
        QTemporaryDir dir;
        const std::string prv = dir.filePath("hand.prv").toStdString();
        QVERIFY(QFile::copy(QString::fromStdString(data("hand.prv")), QString::fromStdString(prv)));
        writeFile(dir, "hand.pcf", pcf);
        const Trace t = readParaver(prv);
        QCOMPARE(t.regionName(regionNamed(t, "function 1")), std::string_view("function 1"));
        QCOMPARE(t.regionName(regionNamed(t, "function 2")), std::string_view("function 2"));
        bool namesNothing = false, unnamed = false;
        for (const std::string& w : t.diagnostics().warnings) {
            namesNothing |=
                w.find("hand.pcf: names no state, event type or value") != std::string::npos;
            unnamed |=
                w.find("hand.prv: 2 region(s) without a name in hand.pcf") != std::string::npos;
        }
        QVERIFY(namesNothing);
        QVERIFY(unnamed);
    }

    void hostsFromTheRow()
    {
        // The header puts task 1 on node 2 and task 2 on node 1; the .row names the nodes.
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "h.prv",
                                           "#Paraver (01/01/24 at 12:00):10_ns:2(1,1):1:"
                                           "2(1:2,1:1),0\n");
        writeFile(dir, "h.row",
                  "LEVEL CPU SIZE 2\n1.alpha\n2.beta\n\nLEVEL NODE SIZE 2\nalpha\nbeta\n\n"
                  "LEVEL THREAD SIZE 2\nTHREAD 1.1.1\nTHREAD 1.2.1\n");
        const Trace t = readParaver(path);
        QCOMPARE(t.str(t.rank(RankId(0)).host), std::string_view("beta"));
        QCOMPARE(t.str(t.rank(RankId(1)).host), std::string_view("alpha"));

        writeFile(dir, "h.row", "LEVEL NODE SIZE x\n");
        try {
            readParaver(path);
            QFAIL("no error");
        } catch (const TraceError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(
                         QLatin1String("h.row: line 1: a LEVEL size")),
                     e.what());
        }
    }

    void unknownEventTypeIsKept()
    {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "t.prv",
                                           "#Paraver (01/01/24 at 12:00):10_ns:1(1):1:1(1:1),0\n"
                                           "2:1:1:1:1:3:77777:5:77777:6\n");
        const Trace t = readParaver(path);
        QCOMPARE(t.miscEvents().size(), size_t(2));
        QCOMPARE(t.str(StringId(t.miscEvents()[1].detail)),
                 std::string_view("Paraver event 77777"));
        QCOMPARE(t.miscEvents()[1].value, int64_t(6));
    }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        const QByteArray h = "#Paraver (01/01/24 at 12:00):100_ns:1(2):1:2(1:1,1:1),0\n";
        QTest::newRow("empty") << QByteArray() << "bad.prv: empty file";
        QTest::newRow("not paraver")
            << QByteArray("hello\n") << "bad.prv: line 1: not a Paraver trace";
        QTest::newRow("header without tasks")
            << QByteArray("#Paraver (01/01/24 at 12:00):100_ns:1(2):1:\n")
            << "bad.prv: line 1: bad Paraver header: expected a task count";
        QTest::newRow("unknown task") << h + "2:1:1:3:1:10:50000001:1\n"
                                      << "bad.prv: line 2: names task 3 of application 1, "
                                         "which has 2 tasks";
        QTest::newRow("unknown thread") << h + "1:1:1:1:2:0:10:1\n"
                                        << "bad.prv: line 2: names thread 2 of task 1";
        QTest::newRow("unknown application")
            << h + "3:1:1:1:1:1:1:1:2:1:1:2:2:8:0\n"
            << "bad.prv: line 2: names application 2, but the header defines 1";
        QTest::newRow("bad time") << h + "2:1:1:1:1:abc:50000001:1\n"
                                  << "bad.prv: line 2: bad event time 'abc'";
        QTest::newRow("short communication") << h + "3:1:1:1:1:1:1:1:1:2:1:2:2:8\n"
                                             << "bad.prv: line 2: a communication record has "
                                                "15 fields";
        QTest::newRow("odd event pairs") << h + "2:1:1:1:1:5:50000001\n"
                                         << "bad.prv: line 2: an event record has 6 fields";
        QTest::newRow("unknown record") << h + "x:1\n"
                                        << "bad.prv: line 2: unknown record type 'x'";
        QTest::newRow("state backwards") << h + "1:1:1:1:1:50:40:1\n"
                                         << "bad.prv: line 2: a state ends before it begins";
        QTest::newRow("unsorted") << h + "2:1:1:1:1:50:50000001:1\n2:1:1:1:1:40:50000001:0\n"
                                  << "bad.prv: line 3: a record earlier than its thread's "
                                     "previous one";
        QTest::newRow("too many tasks")
            << QByteArray("#Paraver (x):1_ns:0:1:300000(1)\n")
            << "bad.prv: line 1: bad Paraver header: 300000 tasks (at most 262144)";
        QTest::newRow("huge time") << h + "2:1:1:1:1:99999999999999999999:50000001:1\n"
                                   << "bad.prv: line 2: bad event time";
        QTest::newRow("communicator task") << QByteArray("#Paraver (x):1_ns:0:1:1(1),1\n"
                                                         "c:1:1:2:1:5\n")
                                           << "bad.prv: line 2: a communicator names task 5";
    }

    void badInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "bad.prv", text);
        try {
            readParaver(path);
            QFAIL("no error");
        } catch (const TraceError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(QString::fromStdString(path).chopped(7)) &&
                         message.contains(error),
                     qPrintable(message));
        }
    }

    void truncatedGzip()
    {
        try {
            readTraceFile(data("truncated.prv.gz"));
            QFAIL("no error");
        } catch (const TraceError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QLatin1String("truncated.prv.gz: line ")) &&
                         message.contains(QLatin1String("truncated compressed data")),
                     qPrintable(message));
        }
    }

    void missingFile()
    {
        try {
            readTraceFile("/nonexistent/run.prv");
            QFAIL("no error");
        } catch (const TraceError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QStringLiteral("/nonexistent/run.prv: cannot open the Paraver trace (no "
                                    "such file)"));
        }
    }
};

QTEST_GUILESS_MAIN(TestParaverImport)
#include "tst_paraverimport.moc"
