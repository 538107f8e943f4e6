// Damage to real Score-P traces that used to import as a wrong trace with no word said:
// - one byte of a String record's length in the global definitions (traces.def) ended the
//   definitions early: 0 ranks and 0 events, exit 0, although the anchor lists 64 locations;
// - high bytes of the last timestamp of an event file: a run of 0.4 s read as 126 years;
// - the type byte of a Leave record changed to a type no OTF2 version has: OTF2 skips it as an
//   unknown record, and the trace read with a call that never returns and fewer MPI calls;
// - one byte of a send's length: the trace read with other bytes sent and no word said.
// Each must now be an error naming the file, or with --allow-partial a trace with a warning.
// The damaged bytes were found by flipping every byte of the files and comparing the import
// with the undamaged one (the offsets are of these exact files, which do not change).
// Each case also runs on a trace checked in under resources/demo/traces (tracer-stencil4d-64r
// is the shared file itself; the others have a sibling on a checked-in trace, its damaged byte
// found by reading the record layout and checked with otf2-print on the damaged copy), so
// they run without ../shared too.

#include "importers/otf2/otf2reader.h"
#include "model/trace/trace.h"
#include "model/trace/traceerror.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

/// Adds `delta` (mod 256) to the byte at `offset` of `file` (from the end when negative).
void damage(const QString& file, qint64 offset, int delta)
{
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadWrite));
    if (offset < 0) offset += f.size();
    QVERIFY(f.seek(offset));
    char c = 0;
    QVERIFY(f.getChar(&c));
    QVERIFY(f.seek(offset));
    QVERIFY(f.putChar(char((unsigned char)c + delta)));
}

Otf2ReadOptions partial()
{
    Otf2ReadOptions o;
    o.allowPartial = true;
    return o;
}

/// `anchor`'s traces/0.evt has a timestamp far outside the clock range: refused naming the file,
/// read partially with a warning under --allow-partial.
void expectClockRangeRefusal(const QString& anchor)
{
    try {
        readOtf2(anchor.toStdString());
        QFAIL("a timestamp far outside the run was accepted");
    } catch (const TraceError& e) {
        const QString m = e.what();
        QVERIFY2(m.contains("traces/0.evt") && m.contains("outside the trace's clock range"),
                 e.what());
    }
    const Trace t = readOtf2(anchor.toStdString(), partial());
    QVERIFY(t.diagnostics().partial);
    bool said = false;
    for (const std::string& w : t.diagnostics().warnings)
        said = said || w.find("clock range") != std::string::npos;
    QVERIFY(said);
}

} // namespace

class TestOtf2Damage : public QObject
{
    Q_OBJECT

private slots:
    void globalDefinitionsEndingEarly()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copyTrace(QStringLiteral("tracer-stencil4d-64r"), dir.path()); // checked in
        QVERIFY(!anchor.isEmpty());
        QCOMPARE(readOtf2(anchor.toStdString()).rankCount(), size_t(64)); // undamaged
        damage(QFileInfo(anchor).absolutePath() + "/traces.def", 2805, 37);
        try {
            readOtf2(anchor.toStdString());
            QFAIL("damaged definitions were read as a trace");
        } catch (const TraceError& e) {
            // OTF2 2.0.0 wrote the archive and this OTF2 knows all its record types: the
            // changed byte makes a record of unknown type, a damaged one.
            QVERIFY2(QString(e.what()).contains("traces.def: a definition record of unknown type"),
                     e.what());
        }
        // --allow-partial reads on: OTF2 skips past the damage, and the rest of the definitions
        // define none of the 64 locations the anchor file lists.
        const Trace t = readOtf2(anchor.toStdString(), partial());
        QVERIFY(t.diagnostics().partial);
        QStringList warnings;
        for (const std::string& w : t.diagnostics().warnings)
            warnings << QString::fromStdString(w);
        QVERIFY2(warnings.filter("0 of the 64 locations").size() == 1,
                 qPrintable(warnings.join('\n')));
        QVERIFY2(warnings.filter("unknown to this OTF2").size() == 1,
                 qPrintable(warnings.join('\n')));
    }

    void timestampFarOutsideTheClockRange()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copySharedTrace(QStringLiteral("scorep84-npb-cg-S-4"), dir.path());
        if (anchor.isEmpty()) QSKIP("shared traces not available");
        const Trace good = readOtf2(anchor.toStdString());
        // otf2-print: the run lasts 0.401 s (clock properties: trace length 401170973 ticks of 1
        // ns).
        QVERIFY(good.endTime() - good.beginTime() < 1'000'000'000);
        damage(QFileInfo(anchor).absolutePath() + "/traces/0.evt", -14,
               0x40); // a high byte of the last timestamp
        expectClockRangeRefusal(anchor);
    }

    void timestampFarOutsideTheClockRangeCheckedIn()
    {
        QTemporaryDir dir;
        const QString anchor = test::copyTrace(QStringLiteral("stencil2d-9"), dir.path());
        QVERIFY(!anchor.isEmpty()); // checked in
        const Trace good = readOtf2(anchor.toStdString());
        // otf2-print -G: 1 GHz, offset 0, trace length 139390093 (0.14 s); otf2-print -L 0:
        // the last event of location 0 is PROGRAM_END at 139390093.
        QVERIFY(good.endTime() - good.beginTime() < 1'000'000'000);
        // traces/0.evt (3518 bytes) ends with that event: a timestamp record at byte 3504 (type
        // 5, then the 8 bytes of 139390093 little-endian), then the PROGRAM_END record. Byte
        // 3511 is byte 6 of the timestamp (0): plus 0x40 makes it 139390093 + 2^54 =
        // 18014398648872077 (otf2-print -L 0 of the damaged copy), 208 days after the start.
        damage(QFileInfo(anchor).absolutePath() + "/traces/0.evt", 3511, 0x40);
        expectClockRangeRefusal(anchor);
    }

    void recordOfUnknownTypeInAnArchiveOfAKnownVersion()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copySharedTrace(QStringLiteral("pipit-ping-pong-2r"), dir.path());
        if (anchor.isEmpty()) QSKIP("shared traces not available");
        // otf2-print: the archive was written by OTF2 2.3.0; location 0 has 60 events; the 47th
        // record of location 1 is the LEAVE of MPI_Recv at 7397467387922534, whose type byte
        // (13, OTF2_EVENT_LEAVE) is byte 678 of traces/1.evt. 13 xor 0x95 = 152: no record type.
        damage(QFileInfo(anchor).absolutePath() + "/traces/1.evt", 678, 0x98 - 0x0d);
        try {
            readOtf2(anchor.toStdString());
            QFAIL("a record of unknown type from OTF2 2.3.0 was skipped");
        } catch (const TraceError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("traces/1.evt") && m.contains("unknown type") &&
                         m.contains("2.3.0"),
                     e.what());
        }
        const Trace t = readOtf2(anchor.toStdString(), partial());
        QVERIFY(t.diagnostics().partial);
        QCOMPARE(t.eventCount(), uint64_t(60 + 46)); // location 1 up to the damaged record
        bool said = false;
        for (const std::string& w : t.diagnostics().warnings)
            said = said || w.find("kept the 46 events before it") != std::string::npos;
        QVERIFY(said);
    }

    void recordOfUnknownTypeCheckedIn()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copyTrace(QStringLiteral("casita-mpi-late-sender-barrier-4r"), dir.path());
        QVERIFY(!anchor.isEmpty()); // checked in
        // otf2-print -A: the archive was written by OTF2 1.4.0 (Score-P 1.3). otf2-print -L 1:
        // the 13th record of location 1 is the LEAVE of MPI_Recv at 106116946954511; in
        // traces/1.evt it is the record after the timestamp record at byte 166, so its type
        // byte (13, OTF2_EVENT_LEAVE) is byte 175. 13 + 0x8b = 152: no record type
        // (otf2-print -L 1 of the damaged copy lists it as UNKNOWN). Locations 0-3 hold 25, 30,
        // 30 and 25 events (`otf2-print -L R traces.otf2 | awk '$2 == R' | wc -l`), 110 in all.
        damage(QFileInfo(anchor).absolutePath() + "/traces/1.evt", 175, 0x98 - 0x0d);
        try {
            readOtf2(anchor.toStdString());
            QFAIL("a record of unknown type from OTF2 1.4.0 was skipped");
        } catch (const TraceError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("traces/1.evt") && m.contains("unknown type") &&
                         m.contains("1.4.0"),
                     e.what());
        }
        const Trace t = readOtf2(anchor.toStdString(), partial());
        QVERIFY(t.diagnostics().partial);
        QCOMPARE(t.eventCount(), uint64_t(110 - 30 + 12)); // location 1 up to the damaged record
        bool said = false;
        for (const std::string& w : t.diagnostics().warnings)
            said = said || w.find("kept the 12 events before it") != std::string::npos;
        QVERIFY(said);
    }

    void sendAndReceiveSizesDiffer()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copySharedTrace(QStringLiteral("tracer-stencil4d-32r"), dir.path());
        if (anchor.isEmpty()) QSKIP("shared traces not available");
        const Trace good = readOtf2(anchor.toStdString());
        for (const std::string& w : good.diagnostics().warnings)
            QVERIFY2(w.find("another size") == std::string::npos, w.c_str());
        // otf2-print: byte 1366 of traces/14.evt is in the length of the MPI_SEND from location
        // 14 to 12 with tag 3 at 2196269529084380: 131072 bytes, 159744 with 0x70 in it. Its
        // MPI_RECV on location 12 still says 131072.
        damage(QFileInfo(anchor).absolutePath() + "/traces/14.evt", 1366, 0x70); // the byte is 0
        const Trace t = readOtf2(anchor.toStdString());
        bool said = false;
        for (const std::string& w : t.diagnostics().warnings)
            said = said || w.find("1 matched message(s) record another size at the receive than "
                                  "at the send") != std::string::npos;
        QVERIFY(said);
    }

    void sendAndReceiveSizesDifferCheckedIn()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copyTrace(QStringLiteral("tracer-stencil4d-64r"), dir.path()); // checked in
        QVERIFY(!anchor.isEmpty());
        const Trace good = readOtf2(anchor.toStdString());
        for (const std::string& w : good.diagnostics().warnings)
            QVERIFY2(w.find("another size") == std::string::npos, w.c_str());
        // otf2-print -L 14: the first MPI_SEND from location 14 to 12 with tag 3 (at
        // 2196328263182352) sends 262144 bytes; its MPI_IRECV on location 12 says 262144 too.
        // In traces/14.evt that record (type 14) is at byte 475: length byte, then receiver
        // 12 (01 0c), communicator 0 (00), tag 3 (01 03), length (03 00 00 04: 0x040000).
        // Byte 484 is the length's second byte (0): plus 0x70 makes it 290816 (otf2-print of
        // the damaged copy).
        damage(QFileInfo(anchor).absolutePath() + "/traces/14.evt", 484, 0x70);
        const Trace t = readOtf2(anchor.toStdString());
        bool said = false;
        for (const std::string& w : t.diagnostics().warnings)
            said = said || w.find("1 matched message(s) record another size at the receive than "
                                  "at the send") != std::string::npos;
        QVERIFY(said);
    }
};

QTEST_GUILESS_MAIN(TestOtf2Damage)
#include "tst_otf2damage.moc"
