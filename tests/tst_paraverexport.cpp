// The Paraver export (importers/paraver/paraverexport) and round trips through it: a trace
// written as .prv and read back has the same MPI calls (name, times, what they did), messages
// (count, bytes, partners, tags), collectives and region times per rank as the trace it came
// from; tested on generated traces, on the hand-written Paraver trace and on real Score-P traces
// (../shared/traces), whose written records are also counted against otf2-print's figures.
// Then `rankscope-cli convert --to prv` and the commands reading a .prv.

#include "importers/otf2/otf2reader.h"
#include "importers/paraver/paraverexport.h"
#include "importers/paraver/paraverreader.h"
#include "model/generator/tracegenerator.h"
#include "model/profile/profile.h"
#include "model/trace/callrecords.h"
#include "model/trace/traceerror.h"
#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>
#include <tuple>

using namespace rankscope;
using rankscope::test::runCli;

namespace {

/// What a round trip must keep, per rank: each MPI call as "name enter leave: payload kinds"
/// (times from the trace's origin; request completions and tests, which Paraver has no record
/// for, left out), and calls, inclusive and exclusive time of every region entered.
struct RankView
{
    QStringList calls;
    std::map<std::string, std::tuple<uint64_t, int64_t, int64_t>> regions;
    int64_t mpiTime = 0;
    bool operator==(const RankView&) const = default;
};

std::vector<RankView> viewOf(const Trace& t)
{
    const int64_t origin = std::min<int64_t>(0, t.beginTime());
    const Profile p = computeProfile(t);
    std::vector<RankView> out(t.rankCount());
    CallSiteTable sites;
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        const RankCallRecords records = mpiCallRecords(t, RankId(r), sites);
        for (const CallRecord& c : records.calls) {
            QString s =
                QString::fromStdString(std::string(t.regionName(c.region))) +
                QStringLiteral(" %1 %2:").arg(c.enterTime - origin).arg(c.leaveTime - origin);
            for (const CallPayload& pl : records.payloadOf(c))
                if (pl.kind != EventKind::MpiIsendComplete &&
                    pl.kind != EventKind::MpiRequestTest &&
                    pl.kind != EventKind::MpiRequestCancelled)
                    s += QLatin1Char(' ') + QString::number(int(pl.kind));
            out[r].calls << s;
        }
        for (size_t g = 0; g < p.ranks[r].regions.size(); ++g) {
            const RegionTimes& rt = p.ranks[r].regions[g];
            if (rt.calls == 0) continue;
            out[r].regions[std::string(t.regionName(RegionId(uint32_t(g))))] = {
                rt.calls, rt.inclusive, rt.exclusive};
        }
        out[r].mpiTime = p.ranks[r].mpiTime;
    }
    return out;
}

/// Messages as sorted (sender, receiver, bytes, tag).
std::vector<std::tuple<uint32_t, uint32_t, uint64_t, int32_t>> messagesOf(const Trace& t)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t, int32_t>> out;
    for (const Message& m : t.messages())
        if (m.matched())
            out.emplace_back(t.messageSender(m).value, t.messageReceiver(m).value, m.bytes, m.tag);
    std::sort(out.begin(), out.end());
    return out;
}

/// Collectives as sorted (op, members, root).
std::vector<std::tuple<int, uint32_t, uint32_t>> collectivesOf(const Trace& t)
{
    std::vector<std::tuple<int, uint32_t, uint32_t>> out;
    for (const CollectiveInstance& c : t.collectives())
        out.emplace_back(int(c.op), c.memberCount, c.root.valid() ? c.root.value : 0xFFFFFFFFu);
    std::sort(out.begin(), out.end());
    return out;
}

/// Writes `a` as Paraver into `dir`, reads it back and checks what must survive.
void checkRoundTrip(const Trace& a, const QTemporaryDir& dir, const char* name)
{
    const std::string path = dir.filePath(QLatin1String(name)).toStdString();
    const ParaverExportReport report = writeParaverTrace(a, path);
    QCOMPARE(report.unmatchedMessages, uint64_t(0));
    const Trace b = readParaver(path);
    // A clean trace reads back without a warning (a damaged one keeps its own: unclosed
    // regions, stray Leaves).
    if (a.diagnostics().warnings.empty())
        QVERIFY2(b.diagnostics().warnings.empty(),
                 b.diagnostics().warnings.empty() ? "" : b.diagnostics().warnings[0].c_str());
    QCOMPARE(b.rankCount(), a.rankCount());
    for (uint32_t r = 0; r < a.rankCount(); ++r) { // hosts travel in the .row
        const StringId ha = a.rank(RankId(r)).host;
        const StringId hb = b.rank(RankId(r)).host;
        QCOMPARE(hb.valid() ? b.str(hb) : "", ha.valid() ? a.str(ha) : "");
    }
    const std::vector<RankView> va = viewOf(a);
    const std::vector<RankView> vb = viewOf(b);
    for (size_t r = 0; r < va.size(); ++r) {
        QCOMPARE(vb[r].calls, va[r].calls);
        if (vb[r].regions != va[r].regions)
            for (const auto& [region, v] : va[r].regions) {
                const auto it = vb[r].regions.find(region);
                if (it == vb[r].regions.end() || it->second != v)
                    qWarning("rank %zu %s: %llu %lld %lld vs %llu %lld %lld", r, region.c_str(),
                             (unsigned long long)std::get<0>(v), (long long)std::get<1>(v),
                             (long long)std::get<2>(v),
                             it == vb[r].regions.end()
                                 ? 0ull
                                 : (unsigned long long)std::get<0>(it->second),
                             it == vb[r].regions.end() ? 0ll : (long long)std::get<1>(it->second),
                             it == vb[r].regions.end() ? 0ll : (long long)std::get<2>(it->second));
            }
        QVERIFY(vb[r].regions == va[r].regions);
        QCOMPARE(vb[r].mpiTime, va[r].mpiTime);
    }
    QCOMPARE(b.messages().size(), a.messages().size());
    QVERIFY(messagesOf(b) == messagesOf(a));
    QVERIFY(collectivesOf(b) == collectivesOf(a));
}

/// Lines of `path` starting with `prefix`.
int countLines(const QString& path, const QByteArray& prefix)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return -1;
    int n = 0;
    while (!f.atEnd())
        if (f.readLine().startsWith(prefix)) ++n;
    return n;
}

/// A state location's events as "name time kind".
QStringList statesOf(const Trace& t, LocationId loc)
{
    QStringList out;
    const EventStream& es = t.events(loc);
    for (size_t i = 0; i < es.size(); ++i)
        out << QStringLiteral("%1 %2 %3")
                   .arg(QString::fromStdString(std::string(t.regionName(es.region(i)))))
                   .arg(es.time(i))
                   .arg(int(es.kind(i)));
    return out;
}

QString hand()
{
    return test::testData(QStringLiteral("paraver/hand.prv"));
}

} // namespace

class TestParaverExport : public QObject
{
    Q_OBJECT

private slots:
    void generated_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::newRow("pingpong") << "pingpong" << 2u;
        QTest::newRow("stencil2d") << "stencil2d" << 9u;
        QTest::newRow("stencil3d") << "stencil3d" << 8u;
        QTest::newRow("alltoall") << "alltoall" << 5u;
    }

    void generated()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        GeneratorOptions o;
        o.pattern = pattern.toStdString();
        o.ranks = ranks;
        o.iterations = 4;
        const Trace a = generateTrace(o);
        QVERIFY(!a.messages().empty() || !a.collectives().empty());
        QTemporaryDir dir;
        checkRoundTrip(a, dir, "gen.prv");
    }

    void handWrittenTrace()
    {
        // Paraver -> model -> Paraver -> model keeps the calls, messages and states (the PAPI
        // event, a misc event, is not written).
        const Trace a = readParaver(hand().toStdString());
        QTemporaryDir dir;
        checkRoundTrip(a, dir, "again.prv");
        const Trace b = readParaver(dir.filePath(QStringLiteral("again.prv")).toStdString());
        const LocationId sa = a.rank(RankId(1)).locations.back();
        const LocationId sb = b.rank(RankId(1)).locations.back();
        QCOMPARE(statesOf(b, sb), statesOf(a, sa));
        // The state values: Running 1 and Waiting a message 3, as Extrae numbers them.
        const QString prv = dir.filePath(QStringLiteral("again.prv"));
        QCOMPARE(countLines(prv, "1:3:1:2:1:1000:2000:3"), 1);
        QCOMPARE(countLines(prv, "1:"), 3);
    }

    void statesFollowTheirThread()
    {
        // Task 1's thread 2 has no record, so the export leaves it out: thread 3 becomes
        // thread 2 (CPU 2), and its states, [0,50] Running, go with it.
        QTemporaryDir dir;
        const QString in = dir.filePath(QStringLiteral("in.prv"));
        QFile f(in);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#Paraver (01/01/24 at 12:00):100_ns:1(3):1:1(3:1),0\n"
                "2:1:1:1:1:0:50000003:31\n"
                "1:3:1:1:3:0:50:1\n"
                "2:3:1:1:3:5:60000019:1\n"
                "2:1:1:1:1:10:50000003:0\n"
                "2:3:1:1:3:20:60000019:0\n");
        f.close();
        const Trace a = readParaver(in.toStdString());
        QCOMPARE(a.locations().size(), size_t(4)); // threads 1-3 and the states of thread 3
        const QString out = dir.filePath(QStringLiteral("out.prv"));
        const ParaverExportReport r = writeParaverTrace(a, out.toStdString());
        QCOMPARE(r.skippedLocations, uint64_t(1));
        QCOMPARE(countLines(out, "1:2:1:1:2:0:50:1"), 1);
        QCOMPARE(countLines(out, "2:2:1:1:2:5:60000019:1"), 1);
        const Trace b = readParaver(out.toStdString());
        QCOMPARE(b.locations().size(), size_t(3));
        QCOMPARE(statesOf(b, b.rank(RankId(0)).locations.back()),
                 statesOf(a, a.rank(RankId(0)).locations.back()));
    }

    void realTraces_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("casita-mpi-tags-10r") << "casita-mpi-tags-10r";
        QTest::newRow("casita-mpi-late-sender-barrier-4r") << "casita-mpi-late-sender-barrier-4r";
        QTest::newRow("tracer-stencil4d-32r") << "tracer-stencil4d-32r";
    }

    void realTraces()
    {
        QFETCH(QString, name);
        const QString anchor = test::traceAnchor(name);
        if (anchor.isEmpty()) QSKIP("the shared trace is not present");
        const Trace a = readOtf2(anchor.toStdString());
        QTemporaryDir dir;
        checkRoundTrip(a, dir, "real.prv");
    }

    void recordsOfTagsTrace()
    {
        // otf2-print on casita-mpi-tags-10r lists 196 ENTER, 196 LEAVE and 18 MPI_SEND
        // records on 10 locations: as many event and communication records.
        const QString anchor = test::traceAnchor(QStringLiteral("casita-mpi-tags-10r"));
        if (anchor.isEmpty()) QSKIP("the shared trace is not present");
        QTemporaryDir dir;
        const QString prv = dir.filePath(QStringLiteral("tags.prv"));
        writeParaverTrace(readOtf2(anchor.toStdString()), prv.toStdString());
        QCOMPARE(countLines(prv, "2:"), 392);
        QCOMPARE(countLines(prv, "3:"), 18);
        QCOMPARE(countLines(prv, "#Paraver ("), 1);
        QCOMPARE(countLines(dir.filePath(QStringLiteral("tags.row")), "LEVEL THREAD SIZE 10"), 1);
        QCOMPARE(countLines(dir.filePath(QStringLiteral("tags.pcf")), "1   MPI_Send"), 1);
    }

    void convertCommand()
    {
        QTemporaryDir dir;
        const QString byExtension = dir.filePath(QStringLiteral("a.prv"));
        auto r = runCli({QStringLiteral("convert"), hand(), QStringLiteral("-o"), byExtension});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("Paraver trace"));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("a.pcf"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("a.row"))));

        // --to prv, gzipped by the name; every command reads the result.
        const QString gz = dir.filePath(QStringLiteral("b.prv.gz"));
        r = runCli({QStringLiteral("convert"), hand(), QStringLiteral("--to"),
                    QStringLiteral("prv"), QStringLiteral("-o"), gz});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(gz);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(2), QByteArray("\x1f\x8b")); // the gzip magic
        for (const QString& command :
             {QStringLiteral("info"), QStringLiteral("profile"), QStringLiteral("waitstates"),
              QStringLiteral("intervals"), QStringLiteral("rootcause")}) {
            r = runCli({command, gz, QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, qPrintable(command + QLatin1String(": ") + r.err));
        }
        r = runCli({QStringLiteral("info"), gz, QStringLiteral("--json")});
        // hand.prv's 52 events less the PAPI event, which is not written.
        QCOMPARE(test::jsonOf(r).value(QStringLiteral("events")).toInt(), 51);

        // An unknown format and an unwritable output.
        r = runCli({QStringLiteral("convert"), hand(), QStringLiteral("--to"),
                    QStringLiteral("vtf"), QStringLiteral("-o"), byExtension});
        QVERIFY(r.exitCode != 0);
        QVERIFY(r.err.contains("otf2, chrome, paje, prv or ti"));
        const QString bad = dir.filePath(QStringLiteral("no/such/dir/c.prv"));
        r = runCli({QStringLiteral("convert"), hand(), QStringLiteral("-o"), bad});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(bad.toUtf8() + ": cannot write the Paraver trace"),
                 r.err.constData());
    }

    void otf2ToPrvAndBack()
    {
        // OTF2 -> prv -> OTF2 through the command line: the MPI call counts stay.
        const QString anchor = test::traceAnchor(QStringLiteral("casita-mpi-tags-10r"));
        if (anchor.isEmpty()) QSKIP("the shared trace is not present");
        QTemporaryDir dir;
        const QString prv = dir.filePath(QStringLiteral("t.prv"));
        auto r = runCli({QStringLiteral("convert"), anchor, QStringLiteral("-o"), prv});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString otf2 = dir.filePath(QStringLiteral("back"));
        r = runCli({QStringLiteral("convert"), prv, QStringLiteral("-o"), otf2});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject a = test::jsonOf(runCli({QStringLiteral("info"), anchor, "--json"}));
        const QJsonObject b = test::jsonOf(runCli({QStringLiteral("info"), otf2, "--json"}));
        QCOMPARE(b.value(QStringLiteral("mpi_calls")), a.value(QStringLiteral("mpi_calls")));
        QCOMPARE(b.value(QStringLiteral("messages")), a.value(QStringLiteral("messages")));
        QCOMPARE(b.value(QStringLiteral("bytes_sent")), a.value(QStringLiteral("bytes_sent")));
    }
};

QTEST_GUILESS_MAIN(TestParaverExport)
#include "tst_paraverexport.moc"
