// Tests of the OTF2 reader against tiny archives crafted here with the OTF2 writer API: each
// holds exactly one inconsistency that OTF2 itself accepts but that cannot form a trace, and
// readOtf2 must reject it with a TraceError naming the file and the place (location, event).
// One positive case checks that Score-P's SOURCE_CODE_LOCATION attribute becomes the call site.
// The fixture is testsupport/otf2fixture.h; expected texts come from its construction, not
// from the reader.

// moc (Qt 6.4) cannot parse GCC 12's <concepts>, which the model headers pull in.
#ifndef Q_MOC_RUN
#include "importers/otf2/otf2reader.h"
#include "model/trace/callrecords.h"
#include "model/trace/traceerror.h"
#include "testsupport/otf2fixture.h"
#endif

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <functional>
#include <string>

using namespace rankscope;
using namespace rankscope::test::otf2fixture;

namespace {

/// The fixture with one inconsistency (see rejected_data for what each one is).
Fixture faulty(const QString& fault)
{
    Fixture f;
    if (fault == QLatin1String("region")) {
        // Location 1's second record enters region 42, which no REGION defines.
        f.events = [](OTF2_EvtWriter* w, uint64_t loc) {
            if (loc == 0) return consistentEvents(w, loc);
            OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
            OTF2_EvtWriter_Enter(w, nullptr, 150, 42);
            OTF2_EvtWriter_Leave(w, nullptr, 310, 42);
            OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
        };
    } else if (fault == QLatin1String("receiver")) {
        // MPI_COMM_WORLD has the ranks 0 and 1; location 0's third record sends to rank 5.
        f.events = [](OTF2_EvtWriter* w, uint64_t loc) {
            if (loc == 1) return consistentEvents(w, loc);
            OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
            OTF2_EvtWriter_Enter(w, nullptr, 200, kRegionSend);
            OTF2_EvtWriter_MpiSend(w, nullptr, 210, 5, kWorldComm, 7, 4);
            OTF2_EvtWriter_Leave(w, nullptr, 220, kRegionSend);
            OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
        };
    } else if (fault == QLatin1String("root")) {
        // An MPI_Bcast on both ranks rooted at rank 9 of the 2-rank MPI_COMM_WORLD; the
        // collective end is each location's fourth record, and location 0 is read first.
        f.events = [](OTF2_EvtWriter* w, uint64_t) {
            OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
            OTF2_EvtWriter_Enter(w, nullptr, 200, kRegionBcast);
            OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, 200);
            OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, 250, OTF2_COLLECTIVE_OP_BCAST, kWorldComm,
                                            9, 8, 8);
            OTF2_EvtWriter_Leave(w, nullptr, 260, kRegionBcast);
            OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
        };
    } else if (fault == QLatin1String("communicator")) {
        // Only communicator 0 is defined; location 1's receive (third record) names 3.
        f.events = [](OTF2_EvtWriter* w, uint64_t loc) {
            if (loc == 0) return consistentEvents(w, loc);
            OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
            OTF2_EvtWriter_Enter(w, nullptr, 150, kRegionRecv);
            OTF2_EvtWriter_MpiRecv(w, nullptr, 300, 0, 3, 7, 4);
            OTF2_EvtWriter_Leave(w, nullptr, 310, kRegionRecv);
            OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
        };
    } else if (fault == QLatin1String("group")) {
        // Location 1 names location group 5; only the groups 0 and 1 exist.
        f.groupOfLocation1 = 5;
    }
    return f;
}

/// The message of the TraceError readOtf2 throws, or empty if it throws none.
QString readError(const QString& anchor)
{
    try {
        (void)readOtf2(anchor.toStdString());
    } catch (const TraceError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// Replaces the one occurrence of the 8-byte little-endian value `from` in `file` by `to`.
bool patchUint64(const QString& file, quint64 from, quint64 to)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadWrite)) return false;
    QByteArray bytes = f.readAll();
    const QByteArray needle(reinterpret_cast<const char*>(&from), sizeof from);
    const qsizetype at = bytes.indexOf(needle);
    if (at < 0 || bytes.indexOf(needle, at + 1) >= 0) return false;
    std::memcpy(bytes.data() + at, &to, sizeof to);
    return f.seek(0) && f.write(bytes) == bytes.size();
}

} // namespace

class TestOtf2BadInput : public QObject
{
    Q_OBJECT

private slots:
    void consistentFixtureReads();
    void rejected_data();
    void rejected();
    void timestampsGoingBackwards();
    void sourceCodeLocationNamesCallSite();
};

void TestOtf2BadInput::consistentFixtureReads()
{
    // The unmodified fixture must be a valid trace, or the cases below prove nothing.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString anchor = writeFixture(tmp.path(), {});
    QVERIFY(!anchor.isEmpty());
    const Trace t = readOtf2(anchor.toStdString());
    QCOMPARE(t.rankCount(), size_t(2));
    QCOMPARE(t.eventCount(), quint64(10)); // 5 records per location, as written above
    QCOMPARE(t.messages().size(), size_t(1));
    QVERIFY(t.messages().front().matched());
    QVERIFY(!t.diagnostics().partial);
}

void TestOtf2BadInput::rejected_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QStringList>("needles"); // the file, the place and the fault
    // Record positions are OTF2's own (1-based, as OTF2_EvtReader_Seek counts them).
    QTest::newRow("Enter of undefined region")
        << QStringLiteral("region")
        << QStringList{QStringLiteral("traces/1.evt"), QStringLiteral("location 1"),
                       QStringLiteral("event record 2"), QStringLiteral("region 42")};
    QTest::newRow("MpiSend receiver outside communicator")
        << QStringLiteral("receiver")
        << QStringList{QStringLiteral("traces/0.evt"), QStringLiteral("location 0"),
                       QStringLiteral("event record 3"), QStringLiteral("receiver"),
                       QStringLiteral("5")};
    QTest::newRow("MpiCollectiveEnd root outside communicator")
        << QStringLiteral("root")
        << QStringList{QStringLiteral("traces/0.evt"), QStringLiteral("location 0"),
                       QStringLiteral("event record 4"), QStringLiteral("root"),
                       QStringLiteral("9")};
    QTest::newRow("event on undefined communicator")
        << QStringLiteral("communicator")
        << QStringList{QStringLiteral("traces/1.evt"), QStringLiteral("location 1"),
                       QStringLiteral("event record 3"), QStringLiteral("communicator 3")};
    QTest::newRow("location of undefined group")
        << QStringLiteral("group")
        << QStringList{QStringLiteral("traces.def"), QStringLiteral("location 1"),
                       QStringLiteral("group 5")};
}

void TestOtf2BadInput::rejected()
{
    QFETCH(QString, fault);
    QFETCH(QStringList, needles);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString anchor = writeFixture(tmp.path(), faulty(fault));
    QVERIFY(!anchor.isEmpty());

    const QString message = readError(anchor);
    QVERIFY2(!message.isEmpty(), "readOtf2 accepted the inconsistent archive");
    for (const QString& needle : needles)
        QVERIFY2(message.contains(needle),
                 qPrintable(QStringLiteral("'%1' not in: %2").arg(needle, message)));
}

void TestOtf2BadInput::timestampsGoingBackwards()
{
    // OTF2's writer refuses a timestamp smaller than the previous one, so write an ordered
    // location and then patch the raw 8-byte timestamp of its third record (MpiRecv at 300)
    // to 120, which is earlier than the second record (Enter MPI_Recv at 150).
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString anchor = writeFixture(tmp.path(), {});
    QVERIFY(!anchor.isEmpty());
    QVERIFY(patchUint64(tmp.filePath(QStringLiteral("traces/1.evt")), 300, 120));

    const QString message = readError(anchor);
    QVERIFY2(!message.isEmpty(), "readOtf2 accepted timestamps going backwards");
    // 1 GHz, offset 0: 120 ticks = 120 ns, after an event at 150 ns; OTF2 record 3.
    for (const QString& needle :
         {QStringLiteral("traces/1.evt"), QStringLiteral("location 1"),
          QStringLiteral("event record 3"), QStringLiteral("120"), QStringLiteral("150")})
        QVERIFY2(message.contains(needle),
                 qPrintable(QStringLiteral("'%1' not in: %2").arg(needle, message)));
}

void TestOtf2BadInput::sourceCodeLocationNamesCallSite()
{
    // As Score-P does with source-location recording on: the Enter of MPI_Recv carries the
    // SOURCE_CODE_LOCATION attribute referring to jacobi.c line 334.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    Fixture f;
    f.sourceLocations = true;
    f.events = [](OTF2_EvtWriter* w, uint64_t loc) {
        if (loc == 0) return consistentEvents(w, loc);
        OTF2_EvtWriter_Enter(w, nullptr, 100, kRegionMain);
        OTF2_AttributeList* attributes = OTF2_AttributeList_New();
        OTF2_AttributeList_AddSourceCodeLocationRef(attributes, kSclAttribute, kJacobiLine334);
        OTF2_EvtWriter_Enter(w, attributes, 150, kRegionRecv);
        OTF2_AttributeList_Delete(attributes);
        OTF2_EvtWriter_MpiRecv(w, nullptr, 300, 0, kWorldComm, 7, 4);
        OTF2_EvtWriter_Leave(w, nullptr, 310, kRegionRecv);
        OTF2_EvtWriter_Leave(w, nullptr, 400, kRegionMain);
    };
    const QString anchor = writeFixture(tmp.path(), f);
    QVERIFY(!anchor.isEmpty());

    const Trace t = readOtf2(anchor.toStdString());
    QCOMPARE(t.rankCount(), size_t(2));
    const EventStream& es = t.events(t.rank(RankId(1)).mainLocation);
    QCOMPARE(es.size(), size_t(5));
    // Only event 1 (the Enter of MPI_Recv) carries a source location.
    QCOMPARE(es.kind(1), EventKind::Enter);
    QCOMPARE(t.regionName(es.region(1)), std::string_view("MPI_Recv"));
    const SourceLocation* where = es.sourceLocation(1);
    QVERIFY(where != nullptr);
    QCOMPARE(t.str(where->file), std::string_view("jacobi.c"));
    QCOMPARE(where->line, 334u);
    for (size_t i : {0, 2, 3, 4})
        QVERIFY(es.sourceLocation(i) == nullptr);

    // Call sites (ALGORITHMS.md §1): the explicit source location wins on rank 1; rank 0 has
    // none and falls back to its calling context "main".
    CallSiteTable sites;
    const RankCallRecords receiver = mpiCallRecords(t, RankId(1), sites);
    QCOMPARE(receiver.calls.size(), size_t(1));
    QCOMPARE(sites.name(receiver.calls.front().callSite),
             std::string_view("jacobi.c:334:MPI_Recv"));
    const RankCallRecords sender = mpiCallRecords(t, RankId(0), sites);
    QCOMPARE(sender.calls.size(), size_t(1));
    QCOMPARE(sites.name(sender.calls.front().callSite), std::string_view("main:MPI_Send"));
}

QTEST_GUILESS_MAIN(TestOtf2BadInput)
#include "tst_otf2badinput.moc"
