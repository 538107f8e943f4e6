// End-to-end tests of rankscope-cli: the real binary run with QProcess on the shared Score-P
// traces (when ../shared is present), on the traces checked in under resources/demo/traces
// (casita-mpi-late-sender-barrier-4r and tracer-stencil4d-64r, the same files as the shared
// ones, and the generated stencil2d-*) and on generated traces.
//
// Every expected number comes from outside Rankscope:
// - `info`: from `otf2-print` (OTF2 3.0.2) output, hard-coded in infoMatchesOtf2Print_data
//   (how each number was obtained is said there);
// - `intervals` and `profile`: computed by hand from the timestamps otf2-print lists for
//   casita-mpi-late-sender-barrier-4r (1 GHz clock, so ticks are ns; the arithmetic is in the
//   comments);
// - `generate`: from the documented structure of the stencil2d pattern on its 4 x 3 grid.
// Exit codes and damaged input are tested in tst_cliusage.cpp.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <iterator>
#include <map>

namespace {

using rankscope::test::CliResult;
using rankscope::test::runCli;

/// Runs the rankscope-cli built with these tests.

/// Large traces (the slowest under the sanitizers) are left out when RANKSCOPE_TEST_QUICK is set.
bool quick()
{
    return !qEnvironmentVariableIsEmpty("RANKSCOPE_TEST_QUICK");
}

/// "a=1,b=2" -> {a: 1, b: 2}
std::map<QString, qint64> parseCounts(const QString& s)
{
    std::map<QString, qint64> m;
    for (const QString& item : s.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto parts = item.split(QLatin1Char('='));
        m[parts.at(0)] = parts.at(1).toLongLong();
    }
    return m;
}

std::map<QString, qint64> countsOf(const QJsonObject& o)
{
    std::map<QString, qint64> m;
    for (auto it = o.begin(); it != o.end(); ++it)
        m[it.key()] = it.value().toInteger();
    return m;
}

using rankscope::test::jsonOf;

/// `info PATH --json`, checked to succeed.
QJsonObject infoJson(const QString& path, CliResult* result = nullptr)
{
    const CliResult r = runCli({QStringLiteral("info"), path, QStringLiteral("--json")});
    if (result) *result = r;
    return r.exitCode == 0 ? jsonOf(r) : QJsonObject();
}

/// One row of `intervals --csv` / `--json`, with the numbers as integers (mean as double).
struct IntervalRow
{
    qint64 occurrences = 0;
    qint64 total = 0;
    double mean = 0;
    qint64 min = 0;
    qint64 max = 0;
};

/// The hand-computed intervals of casita-mpi-late-sender-barrier-4r (see intervalsCsv).
struct ExpectedInterval
{
    const char* name;
    qint64 occurrences, total, min, max;
};

// From otf2-print's per-location listing (otf2-print -L r); every delta is the Enter timestamp
// of an MPI call minus the Leave timestamp of the MPI call before it on the same location
// (1 GHz: ticks = ns). Call sites: the user regions on the stack joined with '>' plus ':' and
// the MPI function.
//   rank 0: Init L ..850400526, Comm_size E ..850404406 L ..850406467, Comm_rank E ..850407066
//           L ..850407969, Send (in late_sender) E 106116946908054 L 106116946929357,
//           Barrier (in barrier) E 106126796092142 L ..138187, Finalize E ..144557
//   rank 1: Init L ..850396620, Comm_size E ..850402044 L ..850405004, Comm_rank E ..850405726
//           L ..850406981, Recv E 106107922094015 L 106116946954511, Send E 106117924094517
//           L 106117924135447, Barrier E 106118960929793 L ..138981, Finalize E ..149817
//   rank 2: Init L ..850400262, Comm_size E ..850405021 L ..850406899, Comm_rank E ..850407703
//           L ..850408585, Recv E 106107918769568 L 106117924165104, Send E 106118975541798
//           L 106118975565335, Barrier E 106119952296334 L ..148942, Finalize E ..156797
//   rank 3: Init L ..850396785, Comm_size E ..850402207 L ..850404990, Comm_rank E ..850405716
//           L ..850407152, Recv E 106107985107808 L 106118976173888, Barrier
//           E 106120065783752 L ..195079, Finalize E ..202409
const ExpectedInterval kLateSenderIntervals[] = {
    // 3880 (r0) + 5424 (r1) + 4759 (r2) + 5422 (r3)
    {"main:MPI_Init - main:MPI_Comm_size", 4, 19485, 3880, 5424},
    // 599 + 722 + 804 + 726
    {"main:MPI_Comm_size - main:MPI_Comm_rank", 4, 2851, 599, 804},
    // r0 only: 106116946908054 - 106106850407969
    {"main:MPI_Comm_rank - main>late_sender:MPI_Send", 1, 10096500085, 10096500085, 10096500085},
    // r1 1071687034 + r2 1068360983 + r3 1134700656
    {"main:MPI_Comm_rank - main>late_sender:MPI_Recv", 3, 3274748673, 1068360983, 1134700656},
    // r1 977140006 + r2 1051376694
    {"main>late_sender:MPI_Recv - main>late_sender:MPI_Send", 2, 2028516700, 977140006, 1051376694},
    // r0 9849162785 + r1 1036794346 + r2 976730999
    {"main>late_sender:MPI_Send - main>barrier:MPI_Barrier", 3, 11862688130, 976730999, 9849162785},
    // r3 only: 106120065783752 - 106118976173888
    {"main>late_sender:MPI_Recv - main>barrier:MPI_Barrier", 1, 1089609864, 1089609864, 1089609864},
    // 6370 + 10836 + 7855 + 7330
    {"main>barrier:MPI_Barrier - main:MPI_Finalize", 4, 32391, 6370, 10836},
};
// S(r) = sum of rank r's deltas: r0 3880 + 599 + 10096500085 + 9849162785 + 6370 = 19945673719,
// r1 3085638368, r2 3096482094, r3 2224323998; the maximum is rank 0's.
constexpr qint64 kLateSenderMaxDeltaSum = 19945673719;

void compareIntervals(const std::map<QString, IntervalRow>& rows)
{
    QCOMPARE(rows.size(), std::size(kLateSenderIntervals));
    for (const ExpectedInterval& e : kLateSenderIntervals) {
        const QString name = QString::fromLatin1(e.name);
        const auto it = rows.find(name);
        QVERIFY2(it != rows.end(), qPrintable(QStringLiteral("missing interval ") + name));
        QCOMPARE(it->second.occurrences, e.occurrences);
        QCOMPARE(it->second.total, e.total);
        QCOMPARE(it->second.min, e.min);
        QCOMPARE(it->second.max, e.max);
        // The CSV prints the mean with one decimal: within 0.05 (plus float slack).
        QVERIFY(qAbs(it->second.mean - double(e.total) / double(e.occurrences)) <= 0.0501);
    }
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void infoMatchesOtf2Print_data();
    void infoMatchesOtf2Print();
    void infoJsonContract_data();
    void infoJsonContract();
    void intervalsCsv();
    void intervalsJson();
    void profileExclusiveTime();
    void convertRoundTrip_data();
    void convertRoundTrip();
    void generateStencil2d();
};

void TestCli::infoMatchesOtf2Print_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("ranks");
    QTest::addColumn<qint64>("events");
    QTest::addColumn<qint64>("regions");
    QTest::addColumn<qint64>("sends");    // MPI_SEND + MPI_ISEND records
    QTest::addColumn<qint64>("receives"); // MPI_RECV + MPI_IRECV records
    QTest::addColumn<qint64>("matched");
    QTest::addColumn<qint64>("collectives");
    QTest::addColumn<qint64>("durationNs");
    QTest::addColumn<QString>("mpiCalls");
    QTest::addColumn<bool>("large");

    // All from otf2-print 3.0.2 (`otf2-print -G` for definitions, `otf2-print` for events):
    // - ranks: LOCATION_GROUP definitions of Type PROCESS; regions: REGION definitions;
    // - events: lines of the event listing (every record type);
    // - mpiCalls: ENTER records whose region name starts with "MPI_", counted per name over all
    //   locations (`otf2-print T | awk '$1=="ENTER"' | grep -o 'Region: "MPI_[A-Za-z_]*"' |
    //   sort | uniq -c`). Keeping a stack of open regions per location over the listing shows
    //   that no MPI region is ever entered inside another one in these traces, and that only
    //   the ranks' master threads enter MPI regions, so every such Enter is one outermost call;
    // - sends / receives: MPI_SEND + MPI_ISEND and MPI_RECV + MPI_IRECV records;
    // - matched: for each key (communicator, sender's rank in it, receiver's rank, tag) the
    //   smaller of its send and receive counts, summed (MPI non-overtaking: the k-th send of a
    //   key matches the k-th receive). Equal to sends and receives here: nothing is unmatched;
    // - collectives: MPI_COLLECTIVE_END records per communicator divided by the size of the
    //   communicator (its COMM_GROUP's member count; every member ends every instance),
    //   summed over communicators; the counts/size are in the comment of each row;
    // - durationNs: (last - offset) * 1e9 / resolution - (first - offset) * 1e9 / resolution,
    //   each term truncated, with first/last the smallest/largest timestamp of the listing and
    //   resolution, offset from CLOCK_PROPERTIES (checked to +-1 ns for rounding).
    auto row = [](const char* name, qint64 ranks, qint64 events, qint64 regions, qint64 sends,
                  qint64 receives, qint64 matched, qint64 collectives, qint64 durationNs,
                  const char* mpiCalls, bool large = false) {
        QTest::newRow(name) << QString::fromLatin1(name) << ranks << events << regions << sends
                            << receives << matched << collectives << durationNs
                            << QString::fromLatin1(mpiCalls) << large;
    };
    // COMM 1 MPI_COMM_WORLD (2 ranks): 208 / 2. Clock 2500001159 Hz, offset 69081993528873368,
    // first 69081993529138347, last 69082010225037615.
    row("casita-cloverleaf-mpi-openacc-2r", 2, 137954, 662, 302, 302, 302, 104, 6678356611,
        "MPI_Allreduce=150,MPI_Barrier=18,MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,"
        "MPI_Init=2,MPI_Irecv=302,MPI_Isend=302,MPI_Reduce=40,MPI_Waitall=604");
    // COMM 4 MPI_COMM_WORLD (2 ranks): 2004 / 2. 1 GHz, offset 689314002440753,
    // first 689314002443206, last 689320568559034.
    row("casita-jacobi-mpi-cuda-2r", 2, 300816, 281, 2000, 2000, 2000, 1002, 6566115828,
        "MPI_Allreduce=2000,MPI_Barrier=4,MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,"
        "MPI_Init=2,MPI_Sendrecv=2000",
        true);
    // COMM 0 MPI_COMM_WORLD (4 ranks): 4 / 4. 1 GHz, offset 106106710787758,
    // first 106106710797152, last 106126796221779.
    row("casita-mpi-late-sender-barrier-4r", 4, 110, 212, 3, 3, 3, 1, 20085424627,
        "MPI_Barrier=4,MPI_Comm_rank=4,MPI_Comm_size=4,MPI_Finalize=4,MPI_Init=4,MPI_Recv=3,"
        "MPI_Send=3");
    // No MPI_COLLECTIVE_END. 1 GHz, offset 5781693167530, first 5781693222851,
    // last 5782340647336.
    row("casita-mpi-tags-10r", 10, 428, 220, 18, 18, 18, 0, 647424485,
        "MPI_Comm_rank=10,MPI_Comm_size=10,MPI_Finalize=10,MPI_Init=10,MPI_Initialized=20,"
        "MPI_Recv=18,MPI_Send=18");
    // No MPI_COLLECTIVE_END. 2095197216 Hz, first = offset 7397466976977800,
    // last 7397467395188508.
    row("pipit-ping-pong-2r", 2, 120, 235, 16, 16, 16, 0, 199604459,
        "MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Recv=16,MPI_Send=16");
    // No MPI_COLLECTIVE_END. 2095191439 Hz, first = offset 7396895680097484,
    // last 7396896131708018.
    row("pipit-ping-pong-papi-2r", 2, 204, 235, 16, 16, 16, 0, 215546190,
        "MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Recv=16,MPI_Send=16");
    // COMM 1 MPI_COMM_WORLD (16 ranks): 80 / 16. 2300007397 Hz, first = offset 2942710349824,
    // last 2946790290667.
    row("scorep84-npb-cg-S-16", 16, 425156, 244, 47104, 47104, 47104, 5, 1773881618,
        "MPI_Barrier=16,MPI_Bcast=16,MPI_Comm_rank=16,MPI_Comm_size=16,MPI_Finalize=16,"
        "MPI_Init=16,MPI_Irecv=47104,MPI_Reduce=16,MPI_Send=47104,MPI_Wait=47104",
        true);
    // COMM 1 MPI_COMM_WORLD (4 ranks): 20 / 4. 2300026460 Hz, first = offset 2937806850742,
    // last 2938729554597.
    row("scorep84-npb-cg-S-4", 4, 60788, 244, 6720, 6720, 6720, 5, 401170973,
        "MPI_Barrier=4,MPI_Bcast=4,MPI_Comm_rank=4,MPI_Comm_size=4,MPI_Finalize=4,MPI_Init=4,"
        "MPI_Irecv=6720,MPI_Reduce=4,MPI_Send=6720,MPI_Wait=6720");
    // COMM 1 MPI_COMM_WORLD (8 ranks): 40 / 8. 2300020540 Hz, first = offset 2939658550289,
    // last 2941133408493.
    row("scorep84-npb-cg-S-8", 8, 212580, 244, 23552, 23552, 23552, 5, 641236970,
        "MPI_Barrier=8,MPI_Bcast=8,MPI_Comm_rank=8,MPI_Comm_size=8,MPI_Finalize=8,MPI_Init=8,"
        "MPI_Irecv=23552,MPI_Reduce=8,MPI_Send=23552,MPI_Wait=23552");
    // COMM 1 MPI_COMM_WORLD (16 ranks): 48 / 16 = 3, COMM 2 "" (a duplicate of the world
    // group, 16 ranks): 1632 / 16 = 102. 2300006662 Hz, first = offset 3043019152508,
    // last 3045839308972.
    row("scorep84-npb-mg-W-16", 16, 174460, 262, 9584, 9584, 9584, 105, 1226151432,
        "MPI_Allreduce=1408,MPI_Barrier=96,MPI_Bcast=112,MPI_Comm_rank=16,MPI_Comm_size=16,"
        "MPI_Comm_split=16,MPI_Finalize=16,MPI_Init=16,MPI_Irecv=9584,MPI_Reduce=16,"
        "MPI_Send=9584,MPI_Wait=9584");
    // COMM 1 (32 ranks): 96 / 32 = 3, COMM 2 (32 ranks): 3264 / 32 = 102. 2300002641 Hz,
    // first = offset 3047316674061, last 3053555172140.
    row("scorep84-npb-mg-W-32", 32, 342736, 262, 18848, 18848, 18848, 105, 2712387354,
        "MPI_Allreduce=2816,MPI_Barrier=192,MPI_Bcast=224,MPI_Comm_rank=32,MPI_Comm_size=32,"
        "MPI_Comm_split=32,MPI_Finalize=32,MPI_Init=32,MPI_Irecv=18848,MPI_Reduce=32,"
        "MPI_Send=18848,MPI_Wait=18848",
        true);
    // COMM 1 (4 ranks): 12 / 4 = 3, COMM 2 (4 ranks): 408 / 4 = 102. 2300009703 Hz,
    // first = offset 3037342195468, last 3039031732626.
    row("scorep84-npb-mg-W-4", 4, 45352, 262, 2496, 2496, 2496, 105, 734578274,
        "MPI_Allreduce=352,MPI_Barrier=24,MPI_Bcast=28,MPI_Comm_rank=4,MPI_Comm_size=4,"
        "MPI_Comm_split=4,MPI_Finalize=4,MPI_Init=4,MPI_Irecv=2496,MPI_Reduce=4,MPI_Send=2496,"
        "MPI_Wait=2496");
    // COMM 1 (8 ranks): 24 / 8 = 3, COMM 2 (8 ranks): 816 / 8 = 102. 2300010295 Hz,
    // first = offset 3039871349150, last 3042011138019.
    row("scorep84-npb-mg-W-8", 8, 90480, 262, 4992, 4992, 4992, 105, 930338822,
        "MPI_Allreduce=704,MPI_Barrier=48,MPI_Bcast=56,MPI_Comm_rank=8,MPI_Comm_size=8,"
        "MPI_Comm_split=8,MPI_Finalize=8,MPI_Init=8,MPI_Irecv=4992,MPI_Reduce=8,MPI_Send=4992,"
        "MPI_Wait=4992");
    // COMM 0 MPI_COMM_WORLD (32 ranks): 96 / 32. 2095147102 Hz, offset 2196266275661973,
    // first 2196266275680859, last 2196269530315314.
    row("tracer-stencil4d-32r", 32, 4324, 85, 512, 512, 512, 3, 1553415725,
        "MPI_Barrier=96,MPI_Init=32,MPI_Irecv=512,MPI_Send=512,MPI_Waitall=64");
    // COMM 0 MPI_COMM_WORLD (64 ranks): 192 / 64. 2095146805 Hz, offset 2196324995813222,
    // first 2196324995830685, last 2196328276066530.
    row("tracer-stencil4d-64r", 64, 8644, 85, 1024, 1024, 1024, 3, 1565635324,
        "MPI_Barrier=192,MPI_Init=64,MPI_Irecv=1024,MPI_Send=1024,MPI_Waitall=128");
    // Generated by Rankscope, checked in (resources/demo/traces/stencil2d-9), the same
    // otf2-print counts: COMM 0 MPI_COMM_WORLD (9 ranks): 126 / 9 = 14 (108 ALLREDUCE,
    // 9 CREATE_HANDLE, 9 DESTROY_HANDLE). 1 GHz, offset 0, first 4873, last 139390093.
    row("stencil2d-9", 9, 4158, 12, 288, 288, 288, 14, 139385220,
        "MPI_Allreduce=108,MPI_Finalize=9,MPI_Init=9,MPI_Irecv=288,MPI_Isend=288,"
        "MPI_Waitall=108");
}

void TestCli::infoMatchesOtf2Print()
{
    QFETCH(QString, name);
    QFETCH(qint64, ranks);
    QFETCH(qint64, events);
    QFETCH(qint64, regions);
    QFETCH(qint64, sends);
    QFETCH(qint64, receives);
    QFETCH(qint64, matched);
    QFETCH(qint64, collectives);
    QFETCH(qint64, durationNs);
    QFETCH(QString, mpiCalls);
    QFETCH(bool, large);
    const QString anchor = rankscope::test::traceAnchor(name); // shared, or checked in
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    if (large && quick()) QSKIP("large trace skipped (RANKSCOPE_TEST_QUICK)");

    CliResult r;
    const QJsonObject j = infoJson(anchor, &r);
    QVERIFY2(!j.isEmpty(), r.err.constData());
    QCOMPARE(j.value(QLatin1String("ranks")).toInteger(), ranks);
    QCOMPARE(j.value(QLatin1String("events")).toInteger(), events);
    QCOMPARE(j.value(QLatin1String("regions")).toInteger(), regions);
    QCOMPARE(countsOf(j.value(QLatin1String("mpi_calls")).toObject()), parseCounts(mpiCalls));
    const qint64 messages = j.value(QLatin1String("messages")).toInteger();
    const qint64 unmatchedSends = j.value(QLatin1String("unmatched_sends")).toInteger();
    const qint64 unmatchedReceives = j.value(QLatin1String("unmatched_receives")).toInteger();
    QCOMPARE(messages + unmatchedSends, sends);
    QCOMPARE(messages + unmatchedReceives, receives);
    QCOMPARE(j.value(QLatin1String("unmatched_messages")).toInteger(),
             unmatchedSends + unmatchedReceives);
    QCOMPARE(messages, matched);
    QCOMPARE(j.value(QLatin1String("unmatched_messages")).toInteger(),
             sends + receives - 2 * matched);
    QCOMPARE(j.value(QLatin1String("collectives")).toInteger(), collectives);
    const qint64 duration = j.value(QLatin1String("duration_ns")).toInteger();
    QVERIFY2(qAbs(duration - durationNs) <= 1,
             qPrintable(
                 QStringLiteral("duration_ns %1, expected %2 +-1").arg(duration).arg(durationNs)));
    QCOMPARE(j.value(QLatin1String("partial")).toBool(true), false);
}

void TestCli::infoJsonContract_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("events"); // otf2-print, as in infoMatchesOtf2Print_data
    QTest::newRow("casita-mpi-tags-10r") << QStringLiteral("casita-mpi-tags-10r") << qint64(428);
    QTest::newRow("checked in: casita-mpi-late-sender-barrier-4r")
        << QStringLiteral("casita-mpi-late-sender-barrier-4r") << qint64(110);
}

void TestCli::infoJsonContract()
{
    QFETCH(QString, name);
    QFETCH(qint64, events);
    const QString anchor = rankscope::test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    // The folder works as well as the anchor file.
    CliResult r;
    const QJsonObject j = infoJson(QFileInfo(anchor).absolutePath(), &r);
    QVERIFY2(!j.isEmpty(), r.err.constData());
    for (const char* key : {"ranks", "events", "duration_ns", "regions", "messages", "collectives",
                            "unmatched_messages"}) {
        QVERIFY2(j.contains(QLatin1String(key)), key);
        QVERIFY2(j.value(QLatin1String(key)).isDouble(), key); // JSON numbers
    }
    QVERIFY(j.value(QLatin1String("mpi_calls")).isObject());
    QCOMPARE(j.value(QLatin1String("events")).toInteger(), events);

    // Without --json: human-readable text, not JSON, exit 0.
    const CliResult text = runCli({QStringLiteral("info"), anchor});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(!text.out.trimmed().startsWith('{'));
    QVERIFY(text.out.contains(QByteArray::number(events)));
}

void TestCli::intervalsCsv()
{
    const QString anchor =
        rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
    const CliResult r = runCli({QStringLiteral("intervals"), anchor, QStringLiteral("--csv")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    QCOMPARE(lines.front(), QStringLiteral("interval,occurrences,total_ns,mean_ns,min_ns,max_ns"));
    std::map<QString, IntervalRow> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].split(QLatin1Char(',')); // no commas in these names
        QCOMPARE(f.size(), 6);
        bool ok[5];
        rows[f[0]] = {f[1].toLongLong(&ok[0]), f[2].toLongLong(&ok[1]), f[3].toDouble(&ok[2]),
                      f[4].toLongLong(&ok[3]), f[5].toLongLong(&ok[4])};
        for (bool b : ok)
            QVERIFY2(b, qPrintable(lines[i]));
    }
    compareIntervals(rows);
}

void TestCli::intervalsJson()
{
    const QString anchor =
        rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
    const CliResult r = runCli({QStringLiteral("intervals"), anchor, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = jsonOf(r);
    QVERIFY(j.value(QLatin1String("intervals")).isArray());
    QCOMPARE(j.value(QLatin1String("max_rank_delta_sum_ns")).toInteger(), kLateSenderMaxDeltaSum);
    std::map<QString, IntervalRow> rows;
    for (const QJsonValue& v : j.value(QLatin1String("intervals")).toArray()) {
        const QJsonObject o = v.toObject();
        for (const char* key :
             {"interval", "occurrences", "total_ns", "mean_ns", "min_ns", "max_ns"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        rows[o.value(QLatin1String("interval")).toString()] = {
            o.value(QLatin1String("occurrences")).toInteger(),
            o.value(QLatin1String("total_ns")).toInteger(),
            o.value(QLatin1String("mean_ns")).toDouble(),
            o.value(QLatin1String("min_ns")).toInteger(),
            o.value(QLatin1String("max_ns")).toInteger()};
    }
    compareIntervals(rows);
}

void TestCli::profileExclusiveTime()
{
    const QString anchor =
        rankscope::test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
    QVERIFY(!anchor.isEmpty()); // checked in under resources/demo/traces
    const CliResult r = runCli({QStringLiteral("profile"), anchor, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = jsonOf(r);
    QCOMPARE(j.value(QLatin1String("ranks")).toInteger(), 4);
    // "foo" encloses no other region, so its exclusive time is the sum of its Leave - Enter
    // over its 10 calls (otf2-print -L r, 1 GHz):
    //   r0: 106116946770357 - 106106850417947 = 10096352410,
    //       106126795980477 - 106116946940710 = 9849039767
    //   r1: 106107922050698 - 106106850417133 = 1071633565,
    //       106117924063839 - 106116946957369 = 977106470,
    //       106118960890248 - 106117924146284 = 1036743964
    //   r2: 106107918701778 - 106106850417832 = 1068283946,
    //       106118975469152 - 106117924167332 = 1051301820,
    //       106119952268106 - 106118975581546 = 976686560
    //   r3: 106107985044823 - 106106850416987 = 1134627836,
    //       106120065750070 - 106118976184390 = 1089565680
    //   sum = 28351342018
    QJsonObject foo;
    for (const QJsonValue& v : j.value(QLatin1String("regions")).toArray())
        if (v.toObject().value(QLatin1String("region")).toString() == QLatin1String("foo"))
            foo = v.toObject();
    QVERIFY(!foo.isEmpty());
    QCOMPARE(foo.value(QLatin1String("calls")).toInteger(), 10);
    QCOMPARE(foo.value(QLatin1String("exclusive_ns")).toInteger(), Q_INT64_C(28351342018));
    QCOMPARE(foo.value(QLatin1String("inclusive_ns")).toInteger(), Q_INT64_C(28351342018));
}

void TestCli::convertRoundTrip_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("events"); // otf2-print, as in infoMatchesOtf2Print_data
    QTest::newRow("casita-mpi-tags-10r") << QStringLiteral("casita-mpi-tags-10r") << qint64(428);
    QTest::newRow("scorep84-npb-mg-W-4") << QStringLiteral("scorep84-npb-mg-W-4") << qint64(45352);
    // Checked in under resources/demo/traces.
    QTest::newRow("casita-mpi-late-sender-barrier-4r")
        << QStringLiteral("casita-mpi-late-sender-barrier-4r") << qint64(110);
    QTest::newRow("stencil2d-9") << QStringLiteral("stencil2d-9") << qint64(4158);
}

void TestCli::convertRoundTrip()
{
    QFETCH(QString, name);
    QFETCH(qint64, events);
    const QString anchor = rankscope::test::traceAnchor(name); // shared, or checked in
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString out = tmp.filePath(QStringLiteral("converted"));
    const CliResult c = runCli({QStringLiteral("convert"), anchor, QStringLiteral("-o"), out});
    QVERIFY2(c.exitCode == 0, c.err.constData());
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/traces.otf2")));

    const QJsonObject before = infoJson(anchor);
    const QJsonObject after = infoJson(out);
    QVERIFY(!before.isEmpty());
    QVERIFY(!after.isEmpty());
    QCOMPARE(before.value(QLatin1String("events")).toInteger(), events);
    for (const char* key : {"events", "messages", "collectives", "ranks", "unmatched_messages"})
        QVERIFY2(after.value(QLatin1String(key)) == before.value(QLatin1String(key)), key);
    QCOMPARE(countsOf(after.value(QLatin1String("mpi_calls")).toObject()),
             countsOf(before.value(QLatin1String("mpi_calls")).toObject()));

    // The independent OTF2 tool accepts what we wrote.
    const QString otf2Print = QStandardPaths::findExecutable(QStringLiteral("otf2-print"));
    if (otf2Print.isEmpty())
        QSKIP("otf2-print not installed: the converted archive was not validated by it");
    QProcess p;
    p.start(otf2Print, {QStringLiteral("--silent"), out + QStringLiteral("/traces.otf2")});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             p.readAllStandardError().constData());
}

void TestCli::generateStencil2d()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QJsonObject info[2];
    for (int k = 0; k < 2; ++k) {
        const QString dir = tmp.filePath(QStringLiteral("run%1").arg(k));
        const CliResult g =
            runCli({QStringLiteral("generate"), QStringLiteral("--pattern"),
                    QStringLiteral("stencil2d"), QStringLiteral("--ranks"), QStringLiteral("12"),
                    QStringLiteral("--iterations"), QStringLiteral("3"), QStringLiteral("--seed"),
                    QStringLiteral("5"), QStringLiteral("-o"), dir});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        CliResult r;
        info[k] = infoJson(dir, &r);
        QVERIFY2(!info[k].isEmpty(), r.err.constData());
        // The one legitimate difference: where the trace was read from.
        QJsonObject provenance = info[k].value(QLatin1String("provenance")).toObject();
        QVERIFY(provenance.value(QLatin1String("source")).toString().contains(dir));
        provenance.remove(QLatin1String("source"));
        info[k].insert(QLatin1String("provenance"), provenance);
        // and the envelope's path of the input
        QCOMPARE(info[k].value(QLatin1String("inputs")).toArray().at(0).toObject().value("path"),
                 QJsonValue(dir));
        info[k].remove(QLatin1String("inputs"));
    }
    // Same options and seed: the same trace.
    QCOMPARE(QJsonDocument(info[1]).toJson(), QJsonDocument(info[0]).toJson());
    const QJsonObject& j = info[0];

    // MPI_Dims_create(12, 2) = 4 x 3 (model/generator/processgrid.h): 4 rows of 3 ranks, row-major,
    // not periodic. Face neighbour pairs: along the rows 4 * (3 - 1) = 8, along the columns
    // (4 - 1) * 3 = 9, so 17 pairs, each exchanging one message in each direction: 34 Isends
    // (and 34 Irecvs) per iteration, 102 messages in 3 iterations, all matched.
    // Per rank: 4 corner ranks have 2 neighbours, 6 edge ranks 3, 2 inner ranks 4
    // (4*2 + 6*3 + 2*4 = 34, the same count).
    QCOMPARE(j.value(QLatin1String("ranks")).toInteger(), 12);
    QCOMPARE(j.value(QLatin1String("messages")).toInteger(), 102);
    QCOMPARE(j.value(QLatin1String("unmatched_messages")).toInteger(), 0);
    // One MPI_Allreduce per iteration (model/generator/halopattern.h) plus the communicator
    // creation in MPI_Init and its destruction in MPI_Finalize, which Score-P records as
    // collectives on MPI_COMM_WORLD (as in the scorep84 traces): 3 + 2.
    QCOMPARE(j.value(QLatin1String("collectives")).toInteger(), 5);
    // Per iteration and rank with k neighbours: k MPI_Irecv, k MPI_Isend, one MPI_Waitall,
    // one MPI_Allreduce (model/generator/halopattern.h); MPI_Init and MPI_Finalize once per rank.
    const std::map<QString, qint64> calls{
        {QStringLiteral("MPI_Allreduce"), 3 * 12}, {QStringLiteral("MPI_Finalize"), 12},
        {QStringLiteral("MPI_Init"), 12},          {QStringLiteral("MPI_Irecv"), 3 * 34},
        {QStringLiteral("MPI_Isend"), 3 * 34},     {QStringLiteral("MPI_Waitall"), 3 * 12}};
    QCOMPARE(countsOf(j.value(QLatin1String("mpi_calls")).toObject()), calls);
    // Events: 16 + 8k per rank and iteration (model/generator/halopattern.h), plus 7 + 7 per rank
    // for Score-P's frame (PROGRAM_BEGIN, Enter main, Enter MPI_Init, collective begin,
    // COMM_CREATE, collective end, Leave MPI_Init; the mirror image around MPI_Finalize):
    // 12 * 14 + 3 * (12 * 16 + 8 * 34) = 168 + 1392 = 1560.
    QCOMPARE(j.value(QLatin1String("events")).toInteger(), 1560);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
