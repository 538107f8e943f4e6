// Tests of the OTF2 reader against the real Score-P traces and against damaged copies of them.
// The traces checked in under resources/demo/traces (casita-mpi-late-sender-barrier-4r and
// tracer-stencil4d-64r, the same files as the shared ones, and stencil2d-*, written by
// Rankscope's generator) are found without ../shared, so their rows always run.
//
// Expected numbers come from the independent `otf2-print` tool (OTF2 3.0.2), hard-coded here:
// ranks = PROCESS location groups and locations from `otf2-print -G`, event counts per location
// and per record type counted from the event listing of `otf2-print`, regions = REGION
// definitions, MPI Enter counts = ENTER records whose region name starts with "MPI_".
// Timestamps in ns were computed by hand from otf2-print's tick values, offset and resolution.

// moc (Qt 6.4) cannot parse GCC 12's <concepts>, which <compare> in the model headers pulls
// in; the test class itself needs none of them.
#ifndef Q_MOC_RUN
#include "importers/otf2/otf2reader.h"
#include "model/trace/traceerror.h"
#endif
#include "testsupport/expecterror.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace rankscope;

// OTF2 3.0.2 leaks a file handle when OTF2_Reader_Open rejects a truncated anchor file (the
// badInput test does that on purpose). Tell LeakSanitizer in sanitizer builds; the hook is
// inert otherwise.
extern "C" const char* __lsan_default_suppressions()
{
    return "leak:otf2_archive_open\nleak:otf2_file_posix_open\n";
}

namespace {

/// "a=1,b=2" -> {a: 1, b: 2}
std::map<QString, quint64> parseCounts(const QString& s)
{
    std::map<QString, quint64> m;
    const auto items = s.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        const auto parts =
            item.split(item.contains(QLatin1Char('=')) ? QLatin1Char('=') : QLatin1Char(':'));
        m[parts.at(0)] = parts.at(1).toULongLong();
    }
    return m;
}

/// The name otf2-print gives the record behind an event.
QString recordName(const Trace& t, const EventStream& es, size_t i)
{
    static const std::map<EventKind, const char*> kEvents = {
        {EventKind::Enter, "ENTER"},
        {EventKind::Leave, "LEAVE"},
        {EventKind::MpiSend, "MPI_SEND"},
        {EventKind::MpiIsend, "MPI_ISEND"},
        {EventKind::MpiIsendComplete, "MPI_ISEND_COMPLETE"},
        {EventKind::MpiIrecvRequest, "MPI_IRECV_REQUEST"},
        {EventKind::MpiRecv, "MPI_RECV"},
        {EventKind::MpiIrecv, "MPI_IRECV"},
        {EventKind::MpiRequestTest, "MPI_REQUEST_TEST"},
        {EventKind::MpiRequestCancelled, "MPI_REQUEST_CANCELLED"},
        {EventKind::MpiCollectiveBegin, "MPI_COLLECTIVE_BEGIN"},
        {EventKind::MpiCollectiveEnd, "MPI_COLLECTIVE_END"}};
    static const std::map<MiscKind, const char*> kMisc = {
        {MiscKind::ProgramBegin, "PROGRAM_BEGIN"},
        {MiscKind::ProgramEnd, "PROGRAM_END"},
        {MiscKind::MeasurementOn, "MEASUREMENT_ON_OFF"},
        {MiscKind::MeasurementOff, "MEASUREMENT_ON_OFF"},
        {MiscKind::CommCreate, "COMM_CREATE"},
        {MiscKind::CommDestroy, "COMM_DESTROY"}};
    if (const auto e = kEvents.find(es.kind(i)); e != kEvents.end())
        return QString::fromLatin1(e->second);
    const MiscEvent& m = t.miscEvents().at(es.ref(i));
    if (const auto k = kMisc.find(m.kind); k != kMisc.end()) return QString::fromLatin1(k->second);
    const std::string_view name = t.str(StringId(m.detail));
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

Trace read(const QString& path, const Otf2ReadOptions& options = {})
{
    return readOtf2(path.toStdString(), options);
}

QString copyTrace(const QString& name, const QTemporaryDir& dir)
{
    return test::copyTrace(name, dir.path()); // shared, or checked in
}

void truncateToHalf(const QString& file)
{
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.resize(f.size() / 2));
}

} // namespace

class TestOtf2Reader : public QObject
{
    Q_OBJECT

private slots:
    void countsMatchOtf2Print_data();
    void countsMatchOtf2Print();
    void messagesAndSendsAgree_data() { countsMatchOtf2Print_data(); }
    void messagesAndSendsAgree();
    void parallelReadIsIdentical_data() { countsMatchOtf2Print_data(); }
    void parallelReadIsIdentical();
    void clockConversion_data();
    void clockConversion();
    void progressAndCancel_data();
    void progressAndCancel();
    void badInput_data();
    void badInput();
    void partialKeepsEventsBeforeDamage_data();
    void partialKeepsEventsBeforeDamage();
    void partialMissingEventFile_data() { partialKeepsEventsBeforeDamage_data(); }
    void partialMissingEventFile();
    void partialWarningsInLocationOrder();
};

// A table of otf2-print figures, one row per trace: kept as written (long strings unbroken).
// clang-format off
void TestOtf2Reader::countsMatchOtf2Print_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("locations");
    QTest::addColumn<quint64>("events");
    QTest::addColumn<int>("regions");
    QTest::addColumn<QString>("perLocation"); // otf2 location id : events
    QTest::addColumn<QString>("records");     // record type = count
    QTest::addColumn<QString>("mpiEnters");   // MPI function = Enter count
    // Numbers from otf2-print (see the note at the top of the file).
    QTest::newRow("casita-cloverleaf-mpi-openacc-2r") << QStringLiteral("casita-cloverleaf-mpi-openacc-2r") << 2 << 6 << Q_UINT64_C(137954) << 662
                         << QStringLiteral("0:57980,4294967296:61,8589934592:10890,1:58072,4294967297:61,8589934593:10890")
                         << QStringLiteral("ENTER=64822,LEAVE=64822,METRIC=122,MPI_COLLECTIVE_BEGIN=208,MPI_COLLECTIVE_END=208,MPI_IRECV=302,MPI_IRECV_REQUEST=302,MPI_ISEND=302,MPI_ISEND_COMPLETE=302,RMA_GET=1800,RMA_OP_COMPLETE_BLOCKING=3278,RMA_PUT=1478,RMA_WIN_CREATE=4,RMA_WIN_DESTROY=4")
                         << QStringLiteral("MPI_Allreduce=150,MPI_Barrier=18,MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Irecv=302,MPI_Isend=302,MPI_Reduce=40,MPI_Waitall=604");
    QTest::newRow("casita-jacobi-mpi-cuda-2r") << QStringLiteral("casita-jacobi-mpi-cuda-2r") << 2 << 10 << Q_UINT64_C(300816) << 281
                         << QStringLiteral("0:72418,4294967296:22038,8589934592:22038,12884901888:22038,17179869184:11892,1:72404,4294967297:22032,8589934593:22032,12884901889:22032,17179869185:11892")
                         << QStringLiteral("ENTER=110425,LEAVE=110425,MPI_COLLECTIVE_BEGIN=2004,MPI_COLLECTIVE_END=2004,MPI_RECV=2000,MPI_SEND=2000,RMA_GET=3966,RMA_OP_COMPLETE_BLOCKING=7930,RMA_PUT=3964,RMA_WIN_CREATE=4,RMA_WIN_DESTROY=4,THREAD_ACQUIRE_LOCK=8000,THREAD_FORK=4009,THREAD_JOIN=4009,THREAD_RELEASE_LOCK=8000,THREAD_TEAM_BEGIN=16036,THREAD_TEAM_END=16036")
                         << QStringLiteral("MPI_Allreduce=2000,MPI_Barrier=4,MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Sendrecv=2000");
    QTest::newRow("casita-mpi-late-sender-barrier-4r") << QStringLiteral("casita-mpi-late-sender-barrier-4r") << 4 << 4 << Q_UINT64_C(110) << 212
                         << QStringLiteral("0:25,1:30,2:30,3:25")
                         << QStringLiteral("ENTER=48,LEAVE=48,MPI_COLLECTIVE_BEGIN=4,MPI_COLLECTIVE_END=4,MPI_RECV=3,MPI_SEND=3")
                         << QStringLiteral("MPI_Barrier=4,MPI_Comm_rank=4,MPI_Comm_size=4,MPI_Finalize=4,MPI_Init=4,MPI_Recv=3,MPI_Send=3");
    QTest::newRow("casita-mpi-tags-10r") << QStringLiteral("casita-mpi-tags-10r") << 10 << 10 << Q_UINT64_C(428) << 220
                         << QStringLiteral("0:86,1:38,2:38,3:38,4:38,5:38,6:38,7:38,8:38,9:38")
                         << QStringLiteral("ENTER=196,LEAVE=196,MPI_RECV=18,MPI_SEND=18")
                         << QStringLiteral("MPI_Comm_rank=10,MPI_Comm_size=10,MPI_Finalize=10,MPI_Init=10,MPI_Initialized=20,MPI_Recv=18,MPI_Send=18");
    QTest::newRow("pipit-ping-pong-2r") << QStringLiteral("pipit-ping-pong-2r") << 2 << 2 << Q_UINT64_C(120) << 235
                         << QStringLiteral("0:60,1:60")
                         << QStringLiteral("ENTER=42,LEAVE=42,MPI_RECV=16,MPI_SEND=16,PROGRAM_BEGIN=2,PROGRAM_END=2")
                         << QStringLiteral("MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Recv=16,MPI_Send=16");
    QTest::newRow("pipit-ping-pong-papi-2r") << QStringLiteral("pipit-ping-pong-papi-2r") << 2 << 2 << Q_UINT64_C(204) << 235
                         << QStringLiteral("0:102,1:102")
                         << QStringLiteral("ENTER=42,LEAVE=42,METRIC=84,MPI_RECV=16,MPI_SEND=16,PROGRAM_BEGIN=2,PROGRAM_END=2")
                         << QStringLiteral("MPI_Comm_rank=2,MPI_Comm_size=2,MPI_Finalize=2,MPI_Init=2,MPI_Recv=16,MPI_Send=16");
    QTest::newRow("scorep84-npb-cg-S-16") << QStringLiteral("scorep84-npb-cg-S-16") << 16 << 16 << Q_UINT64_C(425156) << 244
                         << QStringLiteral("0:26576,1:26572,2:26572,3:26572,4:26572,5:26572,6:26572,7:26572,8:26572,9:26572,10:26572,11:26572,12:26572,13:26572,14:26572,15:26572")
                         << QStringLiteral("COMM_CREATE=32,COMM_DESTROY=32,ENTER=141794,LEAVE=141794,MPI_COLLECTIVE_BEGIN=80,MPI_COLLECTIVE_END=80,MPI_IRECV=47104,MPI_IRECV_REQUEST=47104,MPI_SEND=47104,PROGRAM_BEGIN=16,PROGRAM_END=16")
                         << QStringLiteral("MPI_Barrier=16,MPI_Bcast=16,MPI_Comm_rank=16,MPI_Comm_size=16,MPI_Finalize=16,MPI_Init=16,MPI_Irecv=47104,MPI_Reduce=16,MPI_Send=47104,MPI_Wait=47104");
    QTest::newRow("scorep84-npb-cg-S-4") << QStringLiteral("scorep84-npb-cg-S-4") << 4 << 4 << Q_UINT64_C(60788) << 244
                         << QStringLiteral("0:15200,1:15196,2:15196,3:15196")
                         << QStringLiteral("COMM_CREATE=8,COMM_DESTROY=8,ENTER=20282,LEAVE=20282,MPI_COLLECTIVE_BEGIN=20,MPI_COLLECTIVE_END=20,MPI_IRECV=6720,MPI_IRECV_REQUEST=6720,MPI_SEND=6720,PROGRAM_BEGIN=4,PROGRAM_END=4")
                         << QStringLiteral("MPI_Barrier=4,MPI_Bcast=4,MPI_Comm_rank=4,MPI_Comm_size=4,MPI_Finalize=4,MPI_Init=4,MPI_Irecv=6720,MPI_Reduce=4,MPI_Send=6720,MPI_Wait=6720");
    QTest::newRow("scorep84-npb-cg-S-8") << QStringLiteral("scorep84-npb-cg-S-8") << 8 << 8 << Q_UINT64_C(212580) << 244
                         << QStringLiteral("0:26576,1:26572,2:26572,3:26572,4:26572,5:26572,6:26572,7:26572")
                         << QStringLiteral("COMM_CREATE=16,COMM_DESTROY=16,ENTER=70898,LEAVE=70898,MPI_COLLECTIVE_BEGIN=40,MPI_COLLECTIVE_END=40,MPI_IRECV=23552,MPI_IRECV_REQUEST=23552,MPI_SEND=23552,PROGRAM_BEGIN=8,PROGRAM_END=8")
                         << QStringLiteral("MPI_Barrier=8,MPI_Bcast=8,MPI_Comm_rank=8,MPI_Comm_size=8,MPI_Finalize=8,MPI_Init=8,MPI_Irecv=23552,MPI_Reduce=8,MPI_Send=23552,MPI_Wait=23552");
    QTest::newRow("scorep84-npb-mg-W-16") << QStringLiteral("scorep84-npb-mg-W-16") << 16 << 16 << Q_UINT64_C(174460) << 262
                         << QStringLiteral("0:10465,1:10521,2:10401,3:10513,4:11307,5:11403,6:11359,7:11287,8:10513,9:10417,10:10445,11:10509,12:11347,13:11307,14:11403,15:11263")
                         << QStringLiteral("COMM_CREATE=48,COMM_DESTROY=32,ENTER=71118,LEAVE=71118,MPI_COLLECTIVE_BEGIN=1680,MPI_COLLECTIVE_END=1680,MPI_IRECV=9584,MPI_IRECV_REQUEST=9584,MPI_SEND=9584,PROGRAM_BEGIN=16,PROGRAM_END=16")
                         << QStringLiteral("MPI_Allreduce=1408,MPI_Barrier=96,MPI_Bcast=112,MPI_Comm_rank=16,MPI_Comm_size=16,MPI_Comm_split=16,MPI_Finalize=16,MPI_Init=16,MPI_Irecv=9584,MPI_Reduce=16,MPI_Send=9584,MPI_Wait=9584");
    QTest::newRow("scorep84-npb-mg-W-32") << QStringLiteral("scorep84-npb-mg-W-32") << 32 << 32 << Q_UINT64_C(342736) << 262
                         << QStringLiteral("0:10509,1:10561,2:10487,3:10551,4:10469,5:10553,6:10563,7:10479,8:10503,9:10615,10:11353,11:11377,12:10499,13:10463,14:11337,15:11349,16:10521,17:10493,18:10443,19:10403,20:10477,21:10533,22:10507,23:10471,24:10539,25:10479,26:11289,27:11261,28:10531,29:10459,30:11377,31:11285")
                         << QStringLiteral("COMM_CREATE=96,COMM_DESTROY=64,ENTER=139624,LEAVE=139624,MPI_COLLECTIVE_BEGIN=3360,MPI_COLLECTIVE_END=3360,MPI_IRECV=18848,MPI_IRECV_REQUEST=18848,MPI_SEND=18848,PROGRAM_BEGIN=32,PROGRAM_END=32")
                         << QStringLiteral("MPI_Allreduce=2816,MPI_Barrier=192,MPI_Bcast=224,MPI_Comm_rank=32,MPI_Comm_size=32,MPI_Comm_split=32,MPI_Finalize=32,MPI_Init=32,MPI_Irecv=18848,MPI_Reduce=32,MPI_Send=18848,MPI_Wait=18848");
    QTest::newRow("scorep84-npb-mg-W-4") << QStringLiteral("scorep84-npb-mg-W-4") << 4 << 4 << Q_UINT64_C(45352) << 262
                         << QStringLiteral("0:11353,1:11333,2:11341,3:11325")
                         << QStringLiteral("COMM_CREATE=12,COMM_DESTROY=8,ENTER=18498,LEAVE=18498,MPI_COLLECTIVE_BEGIN=420,MPI_COLLECTIVE_END=420,MPI_IRECV=2496,MPI_IRECV_REQUEST=2496,MPI_SEND=2496,PROGRAM_BEGIN=4,PROGRAM_END=4")
                         << QStringLiteral("MPI_Allreduce=352,MPI_Barrier=24,MPI_Bcast=28,MPI_Comm_rank=4,MPI_Comm_size=4,MPI_Comm_split=4,MPI_Finalize=4,MPI_Init=4,MPI_Irecv=2496,MPI_Reduce=4,MPI_Send=2496,MPI_Wait=2496");
    QTest::newRow("scorep84-npb-mg-W-8") << QStringLiteral("scorep84-npb-mg-W-8") << 8 << 8 << Q_UINT64_C(90480) << 262
                         << QStringLiteral("0:11297,1:11341,2:11245,3:11381,4:11337,5:11241,6:11297,7:11341")
                         << QStringLiteral("COMM_CREATE=24,COMM_DESTROY=16,ENTER=36884,LEAVE=36884,MPI_COLLECTIVE_BEGIN=840,MPI_COLLECTIVE_END=840,MPI_IRECV=4992,MPI_IRECV_REQUEST=4992,MPI_SEND=4992,PROGRAM_BEGIN=8,PROGRAM_END=8")
                         << QStringLiteral("MPI_Allreduce=704,MPI_Barrier=48,MPI_Bcast=56,MPI_Comm_rank=8,MPI_Comm_size=8,MPI_Comm_split=8,MPI_Finalize=8,MPI_Init=8,MPI_Irecv=4992,MPI_Reduce=8,MPI_Send=4992,MPI_Wait=4992");
    QTest::newRow("tracer-stencil4d-32r") << QStringLiteral("tracer-stencil4d-32r") << 32 << 32 << Q_UINT64_C(4324) << 85
                         << QStringLiteral("0:139,1:135,2:135,3:135,4:135,5:135,6:135,7:135,8:135,9:135,10:135,11:135,12:135,13:135,14:135,15:135,16:135,17:135,18:135,19:135,20:135,21:135,22:135,23:135,24:135,25:135,26:135,27:135,28:135,29:135,30:135,31:135")
                         << QStringLiteral("ENTER=1251,LEAVE=1249,MEASUREMENT_ON_OFF=96,MPI_COLLECTIVE_BEGIN=96,MPI_COLLECTIVE_END=96,MPI_IRECV=512,MPI_IRECV_REQUEST=512,MPI_SEND=512")
                         << QStringLiteral("MPI_Barrier=96,MPI_Init=32,MPI_Irecv=512,MPI_Send=512,MPI_Waitall=64");
    QTest::newRow("tracer-stencil4d-64r") << QStringLiteral("tracer-stencil4d-64r") << 64 << 64 << Q_UINT64_C(8644) << 85
                         << QStringLiteral("0:139,1:135,2:135,3:135,4:135,5:135,6:135,7:135,8:135,9:135,10:135,11:135,12:135,13:135,14:135,15:135,16:135,17:135,18:135,19:135,20:135,21:135,22:135,23:135,24:135,25:135,26:135,27:135,28:135,29:135,30:135,31:135,32:135,33:135,34:135,35:135,36:135,37:135,38:135,39:135,40:135,41:135,42:135,43:135,44:135,45:135,46:135,47:135,48:135,49:135,50:135,51:135,52:135,53:135,54:135,55:135,56:135,57:135,58:135,59:135,60:135,61:135,62:135,63:135")
                         << QStringLiteral("ENTER=2499,LEAVE=2497,MEASUREMENT_ON_OFF=192,MPI_COLLECTIVE_BEGIN=192,MPI_COLLECTIVE_END=192,MPI_IRECV=1024,MPI_IRECV_REQUEST=1024,MPI_SEND=1024")
                         << QStringLiteral("MPI_Barrier=192,MPI_Init=64,MPI_Irecv=1024,MPI_Send=1024,MPI_Waitall=128");
    // Checked in, generated: otf2-print resources/demo/traces/stencil2d-9/traces.otf2.
    QTest::newRow("stencil2d-9") << QStringLiteral("stencil2d-9") << 9 << 9 << Q_UINT64_C(4158) << 12
                         << QStringLiteral("0:398,1:494,2:398,3:494,4:590,5:494,6:398,7:494,8:398")
                         << QStringLiteral("COMM_CREATE=9,COMM_DESTROY=9,ENTER=1359,LEAVE=1359,MPI_COLLECTIVE_BEGIN=126,MPI_COLLECTIVE_END=126,MPI_IRECV=288,MPI_IRECV_REQUEST=288,MPI_ISEND=288,MPI_ISEND_COMPLETE=288,PROGRAM_BEGIN=9,PROGRAM_END=9")
                         << QStringLiteral("MPI_Allreduce=108,MPI_Finalize=9,MPI_Init=9,MPI_Irecv=288,MPI_Isend=288,MPI_Waitall=108");
}
// clang-format on

void TestOtf2Reader::countsMatchOtf2Print()
{
    QFETCH(QString, name);
    QFETCH(int, ranks);
    QFETCH(int, locations);
    QFETCH(quint64, events);
    QFETCH(int, regions);
    QFETCH(QString, perLocation);
    QFETCH(QString, records);
    QFETCH(QString, mpiEnters);
    const QString anchor = test::traceAnchor(name); // shared, or checked in
    if (anchor.isEmpty()) QSKIP("shared trace not available");

    const Trace t = read(anchor);
    QCOMPARE(int(t.rankCount()), ranks);
    QCOMPARE(int(t.locations().size()), locations);
    QCOMPARE(quint64(t.eventCount()), events);
    QCOMPARE(int(t.regions().size()), regions);
    QVERIFY(!t.diagnostics().partial);
    // otf2-print -A: stencil2d-* have the anchor property RANKSCOPE::PROVENANCE_KIND
    // "generated"; the Score-P traces have none.
    const bool generated = name.startsWith(QLatin1String("stencil2d-"));
    QCOMPARE(t.provenance().kind, std::string(generated ? "generated" : "measured"));

    std::map<QString, quint64> perLoc, rec, enters;
    for (size_t l = 0; l < t.locations().size(); ++l) {
        const LocationId id(static_cast<uint32_t>(l));
        const EventStream& es = t.events(id);
        // Metric records are columns, not events, but otf2-print lists them with the events.
        perLoc[QString::number(t.location(id).otf2Id)] = es.size() + t.metricRecords(id);
        if (t.metricRecords(id) > 0) rec[QStringLiteral("METRIC")] += t.metricRecords(id);
        for (size_t i = 0; i < es.size(); ++i) {
            ++rec[recordName(t, es, i)];
            if (i > 0) QVERIFY(es.time(i - 1) <= es.time(i));
            if (es.kind(i) == EventKind::Enter) {
                const auto rn = t.regionName(es.region(i));
                if (rn.substr(0, 4) == "MPI_")
                    ++enters[QString::fromUtf8(rn.data(), qsizetype(rn.size()))];
            }
        }
    }
    QCOMPARE(perLoc, parseCounts(perLocation));
    QCOMPARE(rec, parseCounts(records));
    QCOMPARE(enters, parseCounts(mpiEnters));

    // Every rank has a CPU thread as its main location, and ranks are not device streams.
    for (const Rank& r : t.ranks()) {
        QVERIFY(r.mainLocation.valid());
        QCOMPARE(t.location(r.mainLocation).type, LocationType::CpuThread);
    }
    QVERIFY(t.worldCommunicator().valid());
    QCOMPARE(t.str(t.communicator(t.worldCommunicator()).name), std::string_view("MPI_COMM_WORLD"));
}

void TestOtf2Reader::messagesAndSendsAgree()
{
    QFETCH(QString, name);
    QFETCH(QString, records);
    const QString anchor = test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    const auto rec = parseCounts(records);
    auto count = [&](const char* k) {
        auto it = rec.find(QLatin1String(k));
        return it == rec.end() ? 0 : it->second;
    };
    quint64 matched = 0;
    for (const Message& m : t.messages())
        matched += m.matched() ? 1 : 0;
    // otf2-print: MPI_SEND + MPI_ISEND records = matched messages + unmatched sends.
    QCOMPARE(count("MPI_SEND") + count("MPI_ISEND"), matched + t.diagnostics().unmatchedSends);
    QCOMPARE(count("MPI_RECV") + count("MPI_IRECV"), matched + t.diagnostics().unmatchedReceives);
}

void TestOtf2Reader::parallelReadIsIdentical()
{
    QFETCH(QString, name);
    const QString anchor = test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace serial = read(anchor);
    Otf2ReadOptions options;
    options.threads = 3;
    const Trace parallel = read(anchor, options);
    QVERIFY(parallel.sameContent(serial));
    QCOMPARE(parallel.diagnostics(), serial.diagnostics());
}

void TestOtf2Reader::clockConversion_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<quint64>("ticksPerSecond");
    QTest::addColumn<int>("eventIndex"); // on location 0
    QTest::addColumn<qint64>("ns");
    // otf2-print: ENTER at 2196266275791954 ticks, offset 2196266275661973, 2095147102 ticks/s:
    // 129981 ticks * 1e9 / 2095147102 = 62039.98 -> 62039 ns (truncated).
    QTest::newRow("stencil4d first") << QStringLiteral("tracer-stencil4d-32r")
                                     << Q_UINT64_C(2095147102) << 0 << Q_INT64_C(62039);
    // LEAVE at 2196269522997348: 3247335375 ticks -> 1549931922.6 ns.
    QTest::newRow("stencil4d second") << QStringLiteral("tracer-stencil4d-32r")
                                      << Q_UINT64_C(2095147102) << 1 << Q_INT64_C(1549931922);
    // 1 GHz: ENTER at 106106757389565, offset 106106710787758 -> 46601807 ns.
    QTest::newRow("late-sender 1 GHz") << QStringLiteral("casita-mpi-late-sender-barrier-4r")
                                       << Q_UINT64_C(1000000000) << 0 << Q_INT64_C(46601807);
    // 2.3 GHz: PROGRAM_BEGIN exactly at the offset -> 0; ENTER 38326 ticks later -> 16663.4 ns.
    QTest::newRow("mg-W-4 at offset")
        << QStringLiteral("scorep84-npb-mg-W-4") << Q_UINT64_C(2300009703) << 0 << Q_INT64_C(0);
    QTest::newRow("mg-W-4 second")
        << QStringLiteral("scorep84-npb-mg-W-4") << Q_UINT64_C(2300009703) << 1 << Q_INT64_C(16663);
    // Checked in. otf2-print -L 0 resources/demo/traces/tracer-stencil4d-64r/traces.otf2:
    // ENTER at 2196324995865489 ticks, offset 2196324995813222, 2095146805 ticks/s:
    // 52267 ticks * 1e9 / 2095146805 = 24946.70 -> 24946 ns (truncated).
    QTest::newRow("stencil4d-64r first") << QStringLiteral("tracer-stencil4d-64r")
                                         << Q_UINT64_C(2095146805) << 0 << Q_INT64_C(24946);
    // LEAVE at 2196328257223809: 3261410587 ticks -> 1556650149.39 ns.
    QTest::newRow("stencil4d-64r second") << QStringLiteral("tracer-stencil4d-64r")
                                          << Q_UINT64_C(2095146805) << 1 << Q_INT64_C(1556650149);
}

void TestOtf2Reader::clockConversion()
{
    QFETCH(QString, name);
    QFETCH(quint64, ticksPerSecond);
    QFETCH(int, eventIndex);
    QFETCH(qint64, ns);
    const QString anchor = test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    const Trace t = read(anchor);
    QCOMPARE(quint64(t.clock().sourceTicksPerSecond), ticksPerSecond);
    LocationId loc;
    for (size_t l = 0; l < t.locations().size(); ++l)
        if (t.locations()[l].otf2Id == 0) loc = LocationId(static_cast<uint32_t>(l));
    QVERIFY(loc.valid());
    QCOMPARE(qint64(t.events(loc).time(size_t(eventIndex))), ns);
    if (name == QLatin1String("tracer-stencil4d-32r")) // offset 2196266275661973 ticks, by hand
        QCOMPARE(qint64(t.clock().offsetNs), Q_INT64_C(1048263519809872));
    // 2196324995813222 * 1e9 / 2095146805 = 1048291695155567.87, truncated.
    if (name == QLatin1String("tracer-stencil4d-64r"))
        QCOMPARE(qint64(t.clock().offsetNs), Q_INT64_C(1048291695155567));
}

void TestOtf2Reader::progressAndCancel_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("scorep84-npb-cg-S-16 (425,156 events)")
        << QStringLiteral("scorep84-npb-cg-S-16");
    QTest::newRow("checked in: stencil2d-144 (80,352 events)") << QStringLiteral("stencil2d-144");
}

void TestOtf2Reader::progressAndCancel()
{
    QFETCH(QString, name);
    const QString anchor = test::traceAnchor(name);
    if (anchor.isEmpty()) QSKIP("shared trace not available");
    for (unsigned threads : {1u, 4u}) {
        std::vector<double> seen;
        Otf2ReadOptions options;
        options.threads = threads;
        options.progress = [&](double f) {
            seen.push_back(f);
            return true;
        };
        read(anchor, options);
        QVERIFY(!seen.empty());
        QVERIFY(seen.size() <= 102);
        QCOMPARE(seen.back(), 1.0);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));

        int calls = 0;
        options.progress = [&](double f) {
            ++calls;
            return f < 0.3;
        };
        EXPECT_TRACE_ERROR(read(anchor, options), QStringLiteral("cancelled"));
        QVERIFY(calls >= 1);
    }
}

void TestOtf2Reader::badInput_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("needle"); // the file the message must name
    QTest::addColumn<QString>("trace");  // the trace a copy of which is damaged
    const QString tags = QStringLiteral("casita-mpi-tags-10r");
    const QString lateSender = QStringLiteral("casita-mpi-late-sender-barrier-4r"); // checked in
    QTest::newRow("nonexistent path")
        << QStringLiteral("nonexistent") << QStringLiteral("does-not-exist") << QString();
    QTest::newRow("folder without anchor")
        << QStringLiteral("empty folder") << QStringLiteral("empty") << QString();
    QTest::newRow("text renamed .otf2")
        << QStringLiteral("text") << QStringLiteral("notes.otf2") << QString();
    // Each damage of a copy on the shared casita-mpi-tags-10r and on the checked-in
    // casita-mpi-late-sender-barrier-4r (4 locations; traces.def has 8820 bytes; otf2-print
    // rejects its copies with the corrupt traces.def and the truncated traces/2.def too).
    for (const QString& trace : {tags, lateSender}) {
        const char* suffix = trace == tags ? "" : ", checked-in trace";
        const auto row = [&](const char* name, const char* damage, const char* needle) {
            QTest::addRow("%s%s", name, suffix)
                << QString::fromLatin1(damage) << QString::fromLatin1(needle) << trace;
        };
        row("truncated .evt", "truncate evt", "traces/3.evt");
        row("missing .evt", "delete evt", "traces/3.evt");
        row("corrupt .def", "corrupt def", "traces.def");
        row("missing .def", "delete def", "traces.def");
        row("truncated local .def", "truncate local def", "traces/2.def");
        row("truncated anchor", "truncate anchor", "traces.otf2");
    }
}

void TestOtf2Reader::badInput()
{
    QFETCH(QString, damage);
    QFETCH(QString, needle);
    QFETCH(QString, trace);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QString path;
    if (damage == QLatin1String("nonexistent")) {
        path = tmp.filePath(QStringLiteral("does-not-exist/traces.otf2"));
    } else if (damage == QLatin1String("empty folder")) {
        path = tmp.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(path));
    } else if (damage == QLatin1String("text")) {
        path = tmp.filePath(QStringLiteral("notes.otf2"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("This is a text file, not an OTF2 anchor.\n");
    } else {
        if (test::traceAnchor(trace).isEmpty()) QSKIP("shared trace not available");
        path = copyTrace(trace, tmp);
        const QString dir = QFileInfo(path).absolutePath();
        if (damage == QLatin1String("truncate evt")) {
            truncateToHalf(dir + QStringLiteral("/traces/3.evt"));
        } else if (damage == QLatin1String("delete evt")) {
            QVERIFY(QFile::remove(dir + QStringLiteral("/traces/3.evt")));
        } else if (damage == QLatin1String("corrupt def")) {
            QFile f(dir + QStringLiteral("/traces.def"));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(3000));
            f.write(QByteArray(64, '\x7f'));
        } else if (damage == QLatin1String("delete def")) {
            QVERIFY(QFile::remove(dir + QStringLiteral("/traces.def")));
        } else if (damage == QLatin1String("truncate local def")) {
            truncateToHalf(dir + QStringLiteral("/traces/2.def"));
        } else if (damage == QLatin1String("truncate anchor")) {
            truncateToHalf(path);
        }
    }
    // The corrupt traces.def of the late-sender copy: OTF2 skips the overwritten records as
    // records of unknown type, which OTF2 1.4.0 (its writer) does not have: an error, as
    // otf2-print -G's "INTEGRITY_FAULT Number of global definitions read and defined in anchor
    // file do not match!" (446 of 481).
    EXPECT_TRACE_ERROR(read(path), needle);
    Otf2ReadOptions parallel;
    parallel.threads = 4;
    EXPECT_TRACE_ERROR(read(path, parallel), needle);
}

void TestOtf2Reader::partialKeepsEventsBeforeDamage_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<quint64>("events");    // otf2-print: all events
    QTest::addColumn<quint64>("location3"); // otf2-print -L 3: events of location 3
    QTest::newRow("casita-mpi-tags-10r")
        << QStringLiteral("casita-mpi-tags-10r") << quint64(428) << quint64(38);
    QTest::newRow("checked in: casita-mpi-late-sender-barrier-4r")
        << QStringLiteral("casita-mpi-late-sender-barrier-4r") << quint64(110) << quint64(25);
}

void TestOtf2Reader::partialKeepsEventsBeforeDamage()
{
    QFETCH(QString, name);
    QFETCH(quint64, events);
    QFETCH(quint64, location3);
    if (test::traceAnchor(name).isEmpty()) QSKIP("shared trace not available");
    QTemporaryDir tmp;
    const QString anchor = copyTrace(name, tmp);
    truncateToHalf(QFileInfo(anchor).absolutePath() + QStringLiteral("/traces/3.evt"));
    Otf2ReadOptions options;
    options.allowPartial = true;
    for (unsigned threads : {1u, 3u}) {
        options.threads = threads;
        const Trace t = read(anchor, options);
        QVERIFY(t.diagnostics().partial);
        QVERIFY(!t.diagnostics().warnings.empty());
        const QString warning = QString::fromStdString(t.diagnostics().warnings.front());
        QVERIFY2(warning.contains(QLatin1String("traces/3.evt")), qPrintable(warning));
        // Location 3 loses events; the other locations are complete.
        size_t damaged = 0;
        quint64 others = 0;
        for (size_t l = 0; l < t.locations().size(); ++l) {
            const auto& loc = t.locations()[l];
            const size_t n = t.events(LocationId(static_cast<uint32_t>(l))).size();
            if (loc.otf2Id == 3)
                damaged = n;
            else
                others += n;
        }
        QVERIFY(damaged > 0 && damaged < location3);
        QCOMPARE(others, events - location3);
    }
}

void TestOtf2Reader::partialMissingEventFile()
{
    QFETCH(QString, name);
    QFETCH(quint64, events);
    QFETCH(quint64, location3);
    if (test::traceAnchor(name).isEmpty()) QSKIP("shared trace not available");
    QTemporaryDir tmp;
    const QString anchor = copyTrace(name, tmp);
    QVERIFY(QFile::remove(QFileInfo(anchor).absolutePath() + QStringLiteral("/traces/3.evt")));
    Otf2ReadOptions options;
    options.allowPartial = true;
    const Trace t = read(anchor, options);
    QVERIFY(t.diagnostics().partial);
    QCOMPARE(t.eventCount(), events - location3);
    bool named = false;
    for (const auto& w : t.diagnostics().warnings)
        named = named || QString::fromStdString(w).contains(QLatin1String("traces/3.evt"));
    QVERIFY(named);
}

/// Threads take locations one at a time as they finish, so which thread reads which location
/// varies from run to run; the order of the warnings must not. Location 0's events are cut and
/// location 2's local definitions removed: the warnings name 0.evt before 2.def on every thread
/// count (in order of location; a warning about local definitions once came before all others).
/// Only the files named are compared: what OTF2 reports past the cut of a truncated chunk varies
/// between runs ("a record of unknown type" or "cannot read beyond event 11").
void TestOtf2Reader::partialWarningsInLocationOrder()
{
    QTemporaryDir tmp;
    const QString anchor = copyTrace(QStringLiteral("casita-mpi-late-sender-barrier-4r"), tmp);
    const QString dir = QFileInfo(anchor).absolutePath();
    truncateToHalf(dir + QStringLiteral("/traces/0.evt"));
    QVERIFY(QFile::remove(dir + QStringLiteral("/traces/2.def")));
    Otf2ReadOptions options;
    options.allowPartial = true;
    for (unsigned threads : {1u, 2u, 3u, 4u}) {
        options.threads = threads;
        const Trace t = read(anchor, options);
        std::vector<std::string> files; // the file each reader warning names, in order
        for (const std::string& w : t.diagnostics().warnings)
            for (const char* file : {"traces/0.evt", "traces/2.def"})
                if (w.find(file) != std::string::npos) files.emplace_back(file);
        QCOMPARE(files, (std::vector<std::string>{"traces/0.evt", "traces/2.def"}));
    }
}

QTEST_GUILESS_MAIN(TestOtf2Reader)
#include "tst_otf2reader.moc"
