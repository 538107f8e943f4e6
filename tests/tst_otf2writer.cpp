// The OTF2 writer: a trace written and read back (readOtf2) must be the same trace, and
// otf2-print, the reference reader, must accept the archive and list the same events per
// location. Inputs: generated traces of every pattern, a hand-built trace exercising
// communicator-relative partners and roots, misc events and source locations, the real
// Score-P traces when they are present, and the traces checked in under resources/demo/traces.

// A standard header first: moc's own preprocessor fails on <concepts> when model/trace/ids.h's
// <compare> is the first header it sees.
// clang-format off
#include <map>
// clang-format on

#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/tracebuilder.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

struct Otf2Print
{
    int exitCode = -1;
    std::map<uint64_t, uint64_t> eventsPerLocation;
    QString output;
};

/// Runs otf2-print on the archive in `dir` and counts its event lines per location.
Otf2Print runOtf2Print(const QString& dir)
{
    Otf2Print result;
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("otf2-print"));
    if (exe.isEmpty()) return result;
    QProcess p;
    p.start(exe, {QDir(dir).filePath(QStringLiteral("traces.otf2"))});
    if (!p.waitForFinished(120000)) return result;
    result.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    result.output = QString::fromUtf8(p.readAllStandardOutput());
    // Event lines: RECORD_NAME  <location>  <timestamp>  attributes...
    static const QRegularExpression line(QStringLiteral("^([A-Z_]+)\\s+(\\d+)\\s+(\\d+)"));
    for (const QString& l : result.output.split(QLatin1Char('\n'))) {
        const auto m = line.match(l);
        if (m.hasMatch()) ++result.eventsPerLocation[m.captured(2).toULongLong()];
    }
    return result;
}

void compareTraces(const Trace& a, const Trace& b)
{
    QCOMPARE(b.eventCount(), a.eventCount());
    QCOMPARE(b.rankCount(), a.rankCount());
    QCOMPARE(b.locations().size(), a.locations().size());
    for (uint32_t l = 0; l < a.locations().size(); ++l)
        QCOMPARE(b.events(LocationId(l)).size(), a.events(LocationId(l)).size());
    QCOMPARE(b.messages().size(), a.messages().size());
    QVERIFY(b.messages() == a.messages());
    QVERIFY(b.collectives() == a.collectives());
    QVERIFY(b.collectiveMembers() == a.collectiveMembers());
    QCOMPARE(b.clock().offsetNs, a.clock().offsetNs);
    QCOMPARE(b.beginTime(), a.beginTime());
    QCOMPARE(b.endTime(), a.endTime());
    QVERIFY(b.sameContent(a));
}

} // namespace

class TestOtf2Writer : public QObject
{
    Q_OBJECT
private slots:
    void generatedRoundTrip_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::newRow("pingpong") << "pingpong" << 4u;
        QTest::newRow("stencil2d") << "stencil2d" << 6u;
        QTest::newRow("stencil3d") << "stencil3d" << 8u;
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
        const Trace trace = generateTrace(o);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Otf2WriteReport report = writeOtf2(trace, dir.path().toStdString());
        QCOMPARE(report.eventsWritten, trace.eventCount());
        QCOMPARE(report.skippedEvents, uint64_t(0));
        QVERIFY(report.warnings.empty());
        for (const char* f : {"traces.otf2", "traces.def", "traces/0.evt", "traces/0.def"})
            QVERIFY2(QFile::exists(QDir(dir.path()).filePath(QString::fromLatin1(f))), f);

        const Trace back = readOtf2(dir.path().toStdString());
        compareTraces(trace, back);
        // The provenance survives the file: still "generated", with the generator's options.
        QCOMPARE(back.provenance().kind, std::string("generated"));
        QCOMPARE(back.provenance().parameters, trace.provenance().parameters);
        // A generated trace records no compute nodes, and its file claims none.
        for (uint32_t r = 0; r < back.rankCount(); ++r)
            QVERIFY(!back.rank(RankId(r)).host.valid());

        const Otf2Print printed = runOtf2Print(dir.path());
        if (printed.exitCode == -1) QSKIP("otf2-print not available");
        QCOMPARE(printed.exitCode, 0);
        QCOMPARE(printed.eventsPerLocation.size(), trace.locations().size());
        for (uint32_t l = 0; l < trace.locations().size(); ++l)
            QCOMPARE(printed.eventsPerLocation.at(trace.location(LocationId(l)).otf2Id),
                     uint64_t(trace.events(LocationId(l)).size()));
    }

    void handBuiltRoundTrip()
    {
        // Three ranks; communicator "sub" = world ranks {2, 0}, so world rank 2 is sub rank 0.
        TraceBuilder b;
        b.setClock(ClockProperties{1'000'000'000, 5'000});
        const RegionId main = b.addRegion(
            {b.intern("main"), RegionRole::Function, Paradigm::User, b.intern("main.c"), 3});
        const RegionId send = b.addRegion(
            {b.intern("MPI_Send"), RegionRole::MpiPointToPoint, Paradigm::Mpi, StringId(), 0});
        const RegionId recv = b.addRegion(
            {b.intern("MPI_Recv"), RegionRole::MpiPointToPoint, Paradigm::Mpi, StringId(), 0});
        const RegionId bcast = b.addRegion(
            {b.intern("MPI_Bcast"), RegionRole::MpiCollective, Paradigm::Mpi, StringId(), 0});
        std::vector<LocationId> loc;
        for (uint32_t r = 0; r < 3; ++r) {
            const RankId rank = b.addRank(b.intern("MPI Rank " + std::to_string(r)));
            loc.push_back(
                b.addLocation(rank, b.intern("Master thread"), LocationType::CpuThread, r));
        }
        const CommId world =
            b.addCommunicator(b.intern("MPI_COMM_WORLD"), {RankId(0), RankId(1), RankId(2)});
        const CommId sub = b.addCommunicator(b.intern("sub"), {RankId(2), RankId(0)}, world);
        const StringId program = b.intern("a.out");
        const StringId file = b.intern("main.c");
        for (uint32_t r = 0; r < 3; ++r) {
            b.misc(loc[r], 0, MiscEvent{MiscKind::ProgramBegin, program.value, 0});
            b.enter(loc[r], 10, main);
        }
        for (uint32_t r : {0u, 2u})
            b.misc(loc[r], 20, MiscEvent{MiscKind::CommCreate, sub.value, 0});
        // World rank 0 sends to world rank 2 on "sub": receiver is sub rank 0, sender sub rank 1.
        b.enter(loc[0], 30, send);
        b.send(loc[0], 31, 0, sub, 7, 1024);
        b.attachSourceLocation(loc[0], SourceLocation{file, 42});
        b.leave(loc[0], 32, send);
        b.enter(loc[2], 30, recv);
        b.recv(loc[2], 40, 1, sub, 7, 1024);
        b.leave(loc[2], 41, recv);
        // Bcast on "sub" rooted at sub rank 0 (world rank 2).
        for (uint32_t r : {0u, 2u}) {
            b.enter(loc[r], 50, bcast);
            b.collectiveBegin(loc[r], 50);
            b.collectiveEnd(loc[r], 60, CollectiveOp::Bcast, sub, 0, r == 2 ? 64 : 0, 64);
            b.leave(loc[r], 61, bcast);
        }
        b.misc(loc[1], 70, MiscEvent{MiscKind::MeasurementOff, 0, 0});
        b.misc(loc[1], 80, MiscEvent{MiscKind::MeasurementOn, 0, 0});
        b.misc(loc[1], 85, MiscEvent{MiscKind::Other, b.intern("RMA_GET").value, 0});
        for (uint32_t r = 0; r < 3; ++r) {
            b.leave(loc[r], 90, main);
            b.misc(loc[r], 95, MiscEvent{MiscKind::ProgramEnd, 0, 3});
        }
        const Trace trace = b.finish();
        QCOMPARE(trace.collective(CollectiveId(0)).root, RankId(2));

        QTemporaryDir dir;
        const Otf2WriteReport report = writeOtf2(trace, dir.path().toStdString());
        // The MiscKind::Other record cannot be written: skipped, counted and explained.
        QCOMPARE(report.skippedEvents, uint64_t(1));
        QCOMPARE(report.eventsWritten, trace.eventCount() - 1);
        QCOMPARE(report.warnings.size(), size_t(1));

        const Trace back = readOtf2(dir.path().toStdString());
        QCOMPARE(back.eventCount(), trace.eventCount() - 1);
        QVERIFY(back.messages() == trace.messages());
        QVERIFY(back.collectives() == trace.collectives());
        QVERIFY(back.collectiveMembers() == trace.collectiveMembers());
        QCOMPARE(back.clock().offsetNs, int64_t(5'000));
        QCOMPARE(back.communicator(CommId(1)).members, (std::vector<RankId>{RankId(2), RankId(0)}));
        QCOMPARE(back.communicator(CommId(1)).parent, world);
        // Rank 0: PROGRAM_BEGIN, Enter main, COMM_CREATE, Enter MPI_Send, the send (event 4).
        QVERIFY(trace.events(loc[0]).sourceLocation(4));
        const SourceLocation* where = back.events(loc[0]).sourceLocation(4);
        QVERIFY(where);
        QCOMPARE(back.str(where->file), std::string_view("main.c"));
        QCOMPARE(where->line, 42u);
        uint64_t misc = 0;
        for (const MiscEvent& e : back.miscEvents())
            misc += e.kind != MiscKind::Other;
        QCOMPARE(misc, uint64_t(3 + 2 + 2 + 3));

        const Otf2Print printed = runOtf2Print(dir.path());
        if (printed.exitCode == -1) QSKIP("otf2-print not available");
        QCOMPARE(printed.exitCode, 0);
        // Partner and root are communicator ranks in the file.
        QVERIFY(printed.output.contains(QStringLiteral("Receiver: 0 ")));
        QVERIFY(printed.output.contains(QStringLiteral("Sender: 1 ")));
        QVERIFY(printed.output.contains(QStringLiteral("Operation: BCAST, Communicator: \"sub\"")));
        QVERIFY(printed.output.contains(QStringLiteral("Root: 0 ")));
        QVERIFY(printed.output.contains(QStringLiteral("Exit status: 3")));
        QCOMPARE(printed.eventsPerLocation.at(1), uint64_t(6)); // 7 minus the skipped one
    }

    void unmatchedMessagesRoundTrip()
    {
        // Rank 0 sends twice to rank 1 with tag 3, rank 1 receives once; rank 1 also receives
        // a message from rank 0 with tag 4 that was never sent. Unmatched messages must survive
        // a write and a read with their partner ranks (2 unmatched: one send, one receive).
        TraceBuilder b;
        const RegionId send = b.addRegion(
            {b.intern("MPI_Send"), RegionRole::MpiPointToPoint, Paradigm::Mpi, StringId(), 0});
        const RegionId recv = b.addRegion(
            {b.intern("MPI_Recv"), RegionRole::MpiPointToPoint, Paradigm::Mpi, StringId(), 0});
        std::vector<LocationId> loc;
        for (uint32_t r = 0; r < 2; ++r)
            loc.push_back(b.addLocation(b.addRank(b.intern("MPI Rank " + std::to_string(r))),
                                        b.intern("Master thread"), LocationType::CpuThread, r));
        const CommId world = b.addCommunicator(b.intern("MPI_COMM_WORLD"), {RankId(0), RankId(1)});
        for (int64_t t : {10, 20}) {
            b.enter(loc[0], t, send);
            b.send(loc[0], t + 1, 1, world, 3, 100);
            b.leave(loc[0], t + 2, send);
        }
        b.enter(loc[1], 30, recv);
        b.recv(loc[1], 31, 0, world, 3, 100);
        b.leave(loc[1], 32, recv);
        b.enter(loc[1], 40, recv);
        b.recv(loc[1], 41, 0, world, 4, 8);
        b.leave(loc[1], 42, recv);
        const Trace trace = b.finish();
        QCOMPARE(trace.diagnostics().unmatchedSends, uint64_t(1));
        QCOMPARE(trace.diagnostics().unmatchedReceives, uint64_t(1));

        QTemporaryDir dir;
        const Otf2WriteReport report = writeOtf2(trace, dir.path().toStdString());
        QCOMPARE(report.skippedEvents, uint64_t(0));
        const Trace back = readOtf2(dir.path().toStdString());
        compareTraces(trace, back);
        QCOMPARE(back.diagnostics().unmatchedSends, uint64_t(1));
        QCOMPARE(back.diagnostics().unmatchedReceives, uint64_t(1));
    }

    void scorepRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("npb mg (comm split, Bcast/Reduce roots)") << "scorep84-npb-mg-W-4";
        QTest::newRow("late sender, Score-P 1.3") << "casita-mpi-late-sender-barrier-4r";
        QTest::newRow("2.095 GHz timer") << "tracer-stencil4d-32r";
        QTest::newRow("metric events (skipped)") << "pipit-ping-pong-papi-2r";
        // Checked in under resources/demo/traces (late sender above is as well).
        QTest::newRow("2.095 GHz timer, 64 ranks") << "tracer-stencil4d-64r";
        QTest::newRow("written by Rankscope") << "stencil2d-9";
    }
    void scorepRoundTrip()
    {
        QFETCH(QString, name);
        const QString anchor = test::traceAnchor(name); // shared, or checked in
        if (anchor.isEmpty()) QSKIP("shared trace not present");
        const Trace trace = readOtf2(anchor.toStdString());
        uint64_t others = 0;
        for (uint32_t l = 0; l < trace.locations().size(); ++l) {
            const EventStream& es = trace.events(LocationId(l));
            for (size_t i = 0; i < es.size(); ++i)
                others += es.kind(i) == EventKind::Misc &&
                          trace.miscEvents()[es.ref(i)].kind == MiscKind::Other;
        }
        others += trace.metricRecords(); // counters are not written back
        QTemporaryDir dir;
        const Otf2WriteReport report = writeOtf2(trace, dir.path().toStdString());
        QCOMPARE(report.skippedEvents, others);
        QCOMPARE(report.eventsWritten, trace.eventCount() - others);
        const Trace back = readOtf2(dir.path().toStdString());
        // The compute node of every rank survives (Score-P's system tree: class "node").
        for (uint32_t r = 0; r < trace.rankCount(); ++r) {
            const StringId a = trace.rank(RankId(r)).host, b = back.rank(RankId(r)).host;
            QCOMPARE(b.valid(), a.valid());
            if (a.valid()) QCOMPARE(std::string(back.str(b)), std::string(trace.str(a)));
        }
        if (others == 0) {
            compareTraces(trace, back);
        } else {
            QCOMPARE(back.eventCount(), trace.eventCount() - others);
            QVERIFY(back.messages().size() == trace.messages().size());
            QVERIFY(!report.warnings.empty());
        }
        const Otf2Print printed = runOtf2Print(dir.path());
        if (printed.exitCode != -1) QCOMPARE(printed.exitCode, 0);
    }

    void badTargets()
    {
        GeneratorOptions o;
        o.ranks = 2;
        o.iterations = 1;
        const Trace trace = generateTrace(o);
        QTemporaryDir dir;
        const QString file = QDir(dir.path()).filePath(QStringLiteral("plain-file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const QString below = QDir(file).filePath(QStringLiteral("sub"));
        for (const QString& target : {file, below}) {
            try {
                writeOtf2(trace, target.toStdString());
                QFAIL("no error");
            } catch (const TraceError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(target), e.what());
            }
        }
        // A folder that already holds an archive is not overwritten.
        writeOtf2(trace, dir.path().toStdString());
        try {
            writeOtf2(trace, dir.path().toStdString());
            QFAIL("no error");
        } catch (const TraceError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(dir.path()), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("already exists")),
                     e.what());
        }
        // A folder we may not write into (meaningless when running as root: skipped then).
        const QString locked = QDir(dir.path()).filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkdir(locked));
        QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner);
        QFile probe(QDir(locked).filePath(QStringLiteral("probe")));
        if (probe.open(QIODevice::WriteOnly)) {
            probe.close();
            probe.remove();
            QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QSKIP("permissions are not enforced for this user");
        }
        try {
            writeOtf2(trace, locked.toStdString());
            QFAIL("no error");
        } catch (const TraceError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(locked), e.what());
        }
        QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void progressAndCancel()
    {
        GeneratorOptions o;
        o.ranks = 4;
        o.iterations = 5;
        const Trace trace = generateTrace(o);
        QTemporaryDir dir;
        std::vector<double> seen;
        Otf2WriteOptions options;
        options.progress = [&](double f) {
            seen.push_back(f);
            return true;
        };
        writeOtf2(trace, QDir(dir.path()).filePath(QStringLiteral("a")).toStdString(), options);
        QVERIFY(!seen.empty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);

        options.progress = [](double) { return false; };
        const QString target = QDir(dir.path()).filePath(QStringLiteral("b"));
        try {
            writeOtf2(trace, target.toStdString(), options);
            QFAIL("not cancelled");
        } catch (const TraceError& e) {
            QCOMPARE(std::string(e.what()), std::string("cancelled"));
        }
        QVERIFY(!QFile::exists(QDir(target).filePath(QStringLiteral("traces.otf2"))));
    }
};

QTEST_GUILESS_MAIN(TestOtf2Writer)
#include "tst_otf2writer.moc"
