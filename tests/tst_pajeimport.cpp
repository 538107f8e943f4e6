// The Paje import (importers/paje/pajereader): SimGrid SMPI's traces (tests/data/paje, written
// by SimGrid 3.32's smpirun with tracing/smpi: smpi-4r.paje from the MPI program smpi-4r.c,
// smpi-replay-4r.paje from a 4-rank TI replay), round trips OTF2 -> Paje -> model of generated
// and real traces, and damaged files.

#include "importers/otf2/otf2reader.h"
#include "importers/paje/pajeexport.h"
#include "importers/paje/pajeimport_p.h"
#include "importers/paje/pajereader.h"
#include "importers/tracefile.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/callrecords.h"
#include "model/trace/traceerror.h"
#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <set>
#include <tuple>

using namespace rankscope;
using rankscope::test::runCli;

namespace {

/// Each rank's MPI calls as "name enter leave: payload kinds" (request completions and tests,
/// which Paje does not hold, left out).
std::vector<QStringList> callsOf(const Trace& t)
{
    std::vector<QStringList> out(t.rankCount());
    CallSiteTable sites;
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        const RankCallRecords records = mpiCallRecords(t, RankId(r), sites);
        for (const CallRecord& c : records.calls) {
            QString s = QString::fromStdString(std::string(t.regionName(c.region))) +
                        QStringLiteral(" %1 %2:").arg(c.enterTime).arg(c.leaveTime);
            for (const CallPayload& pl : records.payloadOf(c))
                if (pl.kind != EventKind::MpiIsendComplete &&
                    pl.kind != EventKind::MpiRequestTest &&
                    pl.kind != EventKind::MpiRequestCancelled)
                    s += QLatin1Char(' ') + QString::number(int(pl.kind));
            out[r] << s;
        }
    }
    return out;
}

/// Messages as sorted (sender, receiver, bytes, tag, communicator size, send time, receive
/// time).
using MessageKey = std::tuple<uint32_t, uint32_t, uint64_t, int32_t, size_t, int64_t, int64_t>;
std::vector<MessageKey> messagesOf(const Trace& t)
{
    std::vector<MessageKey> out;
    for (const Message& m : t.messages())
        if (m.matched())
            out.emplace_back(t.messageSender(m).value, t.messageReceiver(m).value, m.bytes, m.tag,
                             m.comm.valid() ? t.communicator(m.comm).members.size() : 0,
                             t.events(m.sendLocation).time(m.sendEvent),
                             t.events(m.recvLocation).time(m.recvEvent));
    std::sort(out.begin(), out.end());
    return out;
}

/// Collectives as sorted (op, members, root, communicator members, bytes sent and received).
using CollectiveKey =
    std::tuple<int, uint32_t, uint32_t, std::vector<RankId>, std::vector<uint64_t>>;
std::vector<CollectiveKey> collectivesOf(const Trace& t)
{
    std::vector<CollectiveKey> out;
    for (const CollectiveInstance& c : t.collectives()) {
        std::vector<uint64_t> bytes;
        for (uint32_t k = 0; k < c.memberCount; ++k) {
            const CollectiveMember& m = t.collectiveMembers()[c.firstMember + k];
            bytes.push_back(m.bytesSent);
            bytes.push_back(m.bytesReceived);
        }
        out.emplace_back(int(c.op), c.memberCount, c.root.valid() ? c.root.value : 0xFFFFFFFFu,
                         c.comm.valid() ? t.communicator(c.comm).members : std::vector<RankId>{},
                         bytes);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Writes `a` as Paje into `dir`, reads it back and checks that every MPI call record, message
/// and collective survived.
void checkRoundTrip(const Trace& a, const QTemporaryDir& dir)
{
    const std::string path = dir.filePath(QStringLiteral("rt.paje")).toStdString();
    const PajeExportReport report = writePajeTraceFile(a, path);
    const Trace b = readPaje(path);
    if (a.diagnostics().warnings.empty() && report.unmatchedMessages == 0)
        QVERIFY2(b.diagnostics().warnings.empty(),
                 b.diagnostics().warnings.empty() ? "" : b.diagnostics().warnings[0].c_str());
    QCOMPARE(b.rankCount(), a.rankCount());
    const auto ca = callsOf(a), cb = callsOf(b);
    for (size_t r = 0; r < ca.size(); ++r)
        QCOMPARE(cb[r], ca[r]);
    size_t matched = 0;
    for (const Message& m : a.messages())
        matched += m.matched() ? 1 : 0;
    QCOMPARE(size_t(report.links), matched);
    QVERIFY(messagesOf(b) == messagesOf(a));
    QCOMPARE(b.collectives().size(), a.collectives().size());
    QVERIFY(collectivesOf(b) == collectivesOf(a));
}

QString data(const char* name)
{
    return test::testData(QStringLiteral("paje/") + QLatin1String(name));
}

/// Writes `text` to `name` in `dir` and returns its path.
std::string writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(text);
    return path.toStdString();
}

bool hasWarning(const Trace& t, const char* part)
{
    for (const std::string& w : t.diagnostics().warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

/// A small valid Paje file in SimGrid's dialect: two ranks, rank 0 sends 80 bytes (tag 3) to
/// rank 1, which receives them in MPI_Recv; `extra` is appended after the events.
QByteArray smallFile(const QByteArray& extra = {})
{
    return "%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n"
           "%EndEventDef\n"
           "%EventDef PajeCreateContainer 6\n% Time date\n% Alias string\n% Type string\n"
           "% Container string\n% Name string\n%EndEventDef\n"
           "%EventDef PajePushState 12\n% Time date\n% Type string\n% Container string\n"
           "% Value string\n%EndEventDef\n"
           "%EventDef PajePopState 13\n% Time date\n% Type string\n% Container string\n"
           "%EndEventDef\n"
           "%EventDef PajeStartLink 15\n% Time date\n% Type string\n% Container string\n"
           "% Value string\n% StartContainer string\n% Key string\n%EndEventDef\n"
           "%EventDef PajeEndLink 16\n% Time date\n% Type string\n% Container string\n"
           "% Value string\n% EndContainer string\n% Key string\n%EndEventDef\n"
           "0 1 0 MPI\n"
           "6 0.0 1 1 0 \"rank-0\"\n"
           "6 0.0 2 1 0 \"rank-1\"\n"
           "12 0.000001 2 1 PMPI_Send\n"
           "15 0.000001 3 0 PTP 1 1_2_3_1 80\n"
           "13 0.000002 2 1\n"
           "12 0.000001 2 2 PMPI_Recv\n"
           "16 0.000005 3 0 PTP 2 1_2_3_1\n"
           "13 0.000005 2 2\n" +
           extra;
}

} // namespace

class TestPajeImport : public QObject
{
    Q_OBJECT

private slots:
    void smpiTrace()
    {
        // smpi-4r.c: MPI_Send of 100 doubles 0 -> 1 (tag 7), a ring of MPI_Irecv / MPI_Send
        // of 10 doubles (tag 3) / MPI_Wait, MPI_Allreduce, MPI_Barrier.
        const Trace t = readTraceFile(data("smpi-4r.paje").toStdString());
        QCOMPARE(t.rankCount(), size_t(4));
        // pj_dump tests/data/paje/smpi-4r.paje | grep -c Link
        QCOMPARE(t.messages().size(), size_t(5));
        std::vector<std::tuple<uint32_t, uint32_t, uint64_t, int32_t>> msgs;
        for (const Message& m : t.messages()) {
            QVERIFY(m.matched());
            msgs.emplace_back(t.messageSender(m).value, t.messageReceiver(m).value, m.bytes, m.tag);
        }
        std::sort(msgs.begin(), msgs.end());
        const std::vector<std::tuple<uint32_t, uint32_t, uint64_t, int32_t>> expected = {
            {0, 1, 80, 3}, {0, 1, 800, 7}, {1, 2, 80, 3}, {2, 3, 80, 3}, {3, 0, 80, 3}};
        QVERIFY(msgs == expected);
        // Allreduce and Barrier on all four ranks.
        QCOMPARE(t.collectives().size(), size_t(2));
        for (const CollectiveInstance& c : t.collectives())
            QCOMPARE(c.memberCount, 4u);
        // Rank 0's calls (pj_dump ... | grep 'State, rank-0'): Init, Send, Irecv, Send, Wait,
        // Allreduce, Barrier, Finalize; the blocking receive of 800 bytes on rank 1 lies in
        // MPI_Recv ([0, 6294] ns: lines 138 and 166 of the file), the ring's receive in
        // MPI_Wait (a non-blocking receive completed there).
        const auto calls = callsOf(t);
        QStringList names;
        for (const QString& c : calls[0])
            names << c.section(QLatin1Char(' '), 0, 0);
        QCOMPARE(names, QStringList({"MPI_Init", "MPI_Send", "MPI_Irecv", "MPI_Send", "MPI_Wait",
                                     "MPI_Allreduce", "MPI_Barrier", "MPI_Finalize"}));
        const QString recv = QString::number(int(EventKind::MpiRecv));
        const QString irecv = QString::number(int(EventKind::MpiIrecv));
        QVERIFY(calls[1].filter(QRegularExpression("^MPI_Recv 0 6294: " + recv + "$")).size() == 1);
        QVERIFY(calls[1].filter(QRegularExpression("^MPI_Wait .*: " + irecv + "$")).size() == 1);
        // SimGrid's trace does not say which MPI_Irecv posted each of the four ring receives.
        QCOMPARE(t.diagnostics().warnings.size(), size_t(1));
        QVERIFY2(hasWarning(t, "4 request completion/test record(s) name a request that was "
                               "never posted"),
                 t.diagnostics().warnings.front().c_str());
    }

    void smpiReplayTrace()
    {
        // A 4-rank TI replay: isend to the right, irecv from the left, allreduce, bcast.
        const Trace t = readPaje(data("smpi-replay-4r.paje").toStdString());
        QCOMPARE(t.rankCount(), size_t(4));
        QCOMPARE(t.messages().size(), size_t(4));
        for (const Message& m : t.messages()) {
            QCOMPARE(m.bytes, uint64_t(1000));
            QCOMPARE(m.tag, 5);
            QCOMPARE((t.messageSender(m).value + 1) % 4, t.messageReceiver(m).value);
        }
        QCOMPARE(t.collectives().size(), size_t(2));
        QCOMPARE(int(t.collectives()[0].op) + int(t.collectives()[1].op),
                 int(CollectiveOp::Allreduce) + int(CollectiveOp::Bcast));
        // The run ends with the last MPI_Finalize, when smpirun printed "Simulated time:
        // 3.28709e-05 seconds" (the file's last lines: 0.000032871).
        QCOMPARE(t.endTime(), int64_t(32'871));
    }

    void generatedRoundTrip_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::newRow("pingpong") << "pingpong" << 2u;
        QTest::newRow("stencil2d") << "stencil2d" << 9u;
        QTest::newRow("alltoall") << "alltoall" << 5u;
    }

    void generatedRoundTrip()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        GeneratorOptions o;
        o.pattern = pattern.toStdString();
        o.ranks = ranks;
        o.iterations = 3;
        QTemporaryDir dir;
        checkRoundTrip(generateTrace(o), dir);
    }

    void realRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n :
             {"casita-mpi-late-sender-barrier-4r", "casita-mpi-tags-10r", "pipit-ping-pong-2r",
              "tracer-stencil4d-32r", "tracer-stencil4d-64r", "casita-cloverleaf-mpi-openacc-2r",
              "scorep84-npb-mg-W-4", "scorep84-npb-lu-S-4", "scorep84-npb-cg-S-4",
              "scorep84-cloverleaf-4"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    void realRoundTrip()
    {
        QFETCH(QString, name);
        const QString anchor = test::traceAnchor(name);
        if (anchor.isEmpty()) QSKIP("the shared trace is not present");
        QTemporaryDir dir;
        checkRoundTrip(readOtf2(anchor.toStdString()), dir);
    }

    void byExtension()
    {
        QVERIFY(isPajePath("a.paje"));
        QVERIFY(isPajePath("dir/B.PAJE"));
        QVERIFY(!isPajePath("a.paje.gz"));
        QVERIFY(!isPajePath("paje"));
        const auto r =
            runCli({QStringLiteral("info"), data("smpi-4r.paje"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("\"ranks\": 4"));
    }

    void unknownEventsAreCounted()
    {
        QTemporaryDir dir;
        const Trace t = readPaje(writeFile(dir, "u.paje", smallFile("99 1.0 x y\n99 2 z\n")));
        QCOMPARE(t.messages().size(), size_t(1));
        QVERIFY(hasWarning(t, ": 2 line(s) with an event number no %EventDef defines"));
    }

    /// A state pushed at -5 s and popped at -4.5 s (lines 49 and 50, after the 48 lines of
    /// smallFile): the span reaches back to them, and a warning says so with the earliest time
    /// and its line.
    void eventsBeforeTimeZeroAreReported()
    {
        QTemporaryDir dir;
        const std::string path =
            writeFile(dir, "neg.paje", smallFile("12 -5.0 2 1 PMPI_Barrier\n13 -4.5 2 1\n"));
        const Trace t = readPaje(path);
        QVERIFY(hasWarning(t, (path + ":49: 2 event(s) before time 0 (the earliest at "
                                      "-5.000000000 s)")
                                  .c_str()));
        QVERIFY(!hasWarning(readPaje(writeFile(dir, "pos.paje", smallFile())), "before time 0"));
    }

    void linkWithoutStateOrPartner()
    {
        QTemporaryDir dir;
        // A second link that never ends, and one whose end lies in no MPI state.
        const Trace t =
            readPaje(writeFile(dir, "l.paje",
                               smallFile("15 0.000006 3 0 PTP 1 k9 8\n15 0.000007 3 0 PTP 1 k10 8\n"
                                         "16 0.000009 3 0 PTP 2 k10\n")));
        QCOMPARE(t.messages().size(), size_t(2));
        QVERIFY(hasWarning(t, ": 1 link end(s) without their other end"));
        QVERIFY(hasWarning(t, ": 2 link end(s) outside any MPI state"));
    }

    void linksOfTwoTypesMatchApart()
    {
        // One key used by links of two types at once: each end finds the start of its own type
        // (pending links are keyed by type and key). Worked by hand:
        // the base file's 80-byte message, 8 bytes rank 0 -> 1 (type 3), 16 bytes 1 -> 0 (4).
        QTemporaryDir dir;
        const Trace t =
            readPaje(writeFile(dir, "t.paje",
                               smallFile("15 0.000006 3 0 PTP 1 kx 8\n15 0.000006 4 0 PTP 2 kx 16\n"
                                         "16 0.000008 4 0 PTP 1 kx\n16 0.000009 3 0 PTP 2 kx\n")));
        QCOMPARE(t.messages().size(), size_t(3));
        std::multiset<std::tuple<uint64_t, uint32_t, uint32_t>> got; // bytes, from, to
        for (size_t m = 0; m < t.messages().size(); ++m)
            got.insert({t.messages()[m].bytes, t.messageSender(t.messages()[m]).value,
                        t.messageReceiver(t.messages()[m]).value});
        const std::multiset<std::tuple<uint64_t, uint32_t, uint32_t>> expected{
            {80, 0, 1}, {8, 0, 1}, {16, 1, 0}};
        QVERIFY(got == expected);
        QVERIFY(!hasWarning(t, "without their other end"));
        QVERIFY(!hasWarning(t, "reusing the key"));
    }

    void nonUtf8NamesAreReplaced()
    {
        QTemporaryDir dir;
        QByteArray text = smallFile();
        text.replace("\"rank-1\"", "\"rank-1\"\n6 0.0 9 1 0 \"bad\xff\xfename\"\n12 0.1 2 9 x");
        const Trace t = readPaje(writeFile(dir, "n.paje", text));
        QVERIFY(hasWarning(t, ": 2 byte(s) of names that are not UTF-8"));
    }

    void truncatedFile()
    {
        QTemporaryDir dir;
        const QByteArray whole = smallFile();
        const QByteArray last = QByteArray::number(whole.count('\n')); // the last line's number
        // Cut after the last event, before its newline: read, with a warning naming the line.
        QByteArray text = whole.chopped(1);
        const Trace t = readPaje(writeFile(dir, "t.paje", text));
        QCOMPARE(t.messages().size(), size_t(1));
        QVERIFY(hasWarning(t, "t.paje:" + last + ": the last line has no newline"));
        // Cut inside the last event ("13 0.000005 2 2" -> "13 0.000005 2"): too few fields.
        const auto error = [&](const char* name, const QByteArray& content) -> QByteArray {
            try {
                readPaje(writeFile(dir, name, content));
            } catch (const TraceError& e) {
                return e.what();
            }
            return "no error";
        };
        QByteArray e = error("c.paje", whole.chopped(3));
        QVERIFY2(e.contains("c.paje:" + last + ": event 13 has 2 field(s), its definition 3"),
                 e.constData());
        // Cut inside the header: an error naming the file and its last line.
        const QByteArray header = whole.left(whole.indexOf("% Value string"));
        e = error("h.paje", header);
        QVERIFY2(e.contains("h.paje:" + QByteArray::number(header.count('\n')) +
                            ": the file ends inside %EventDef"),
                 e.constData());
        // Inside a definition: a blank line is skipped, a line without '%' is an error on its
        // line (4 here), not a crash (found by fuzz_pajeimport).
        e = error("d.paje", "%EventDef PajeDefineContainerType 0\n\n\nx\n");
        QVERIFY2(e.contains("d.paje:4: a line inside %EventDef does not start with %"),
                 e.constData());
    }

    void badLines()
    {
        QTemporaryDir dir;
        const QByteArray line = "l.paje:" + QByteArray::number(smallFile().count('\n') + 1);
        for (const auto& [extra, message] :
             std::initializer_list<std::pair<const char*, const char*>>{
                 {"12 0.1 2 1 \"open\n", ": a double quote is not closed"},
                 {"12 abc 2 1 x\n", ": \"abc\" is no time"},
                 {"x1 0.1\n", ": \"x1\" is no event number"}}) {
            try {
                readPaje(writeFile(dir, "l.paje", smallFile(extra)));
                QFAIL(extra);
            } catch (const TraceError& e) {
                QVERIFY2(QByteArray(e.what()).contains(line + message), e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(TraceError,
                                 readPaje(writeFile(dir, "e.paje", "just text\nno header\n")));
        QVERIFY_THROWS_EXCEPTION(TraceError, readPaje(dir.filePath("none.paje").toStdString()));
    }

    void seconds()
    {
        int64_t ns = 0;
        for (const auto& [text, value] : std::initializer_list<std::pair<const char*, int64_t>>{
                 {"0", 0},
                 {"1.5", 1'500'000'000},
                 {"0.000001500", 1500},
                 {"-0.000001500", -1500},
                 {"12.3456789014", 12'345'678'901},
                 {"12.3456789016", 12'345'678'902},
                 {"3.3e-05", 33'000},
                 {".25", 250'000'000}}) {
            QVERIFY2(paje::parseSeconds(text, ns), text);
            QCOMPARE(ns, value);
        }
        for (const char* bad : {"", "-", "1.2.3", "abc", "1e", "0x10"})
            QVERIFY2(!paje::parseSeconds(bad, ns), bad);
    }
};

QTEST_GUILESS_MAIN(TestPajeImport)
#include "tst_pajeimport.moc"
