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

} // namespace

class TestOtf2Damage : public QObject
{
    Q_OBJECT

private slots:
    void globalDefinitionsEndingEarly()
    {
        QTemporaryDir dir;
        const QString anchor =
            test::copySharedTrace(QStringLiteral("tracer-stencil4d-64r"), dir.path());
        if (anchor.isEmpty()) QSKIP("shared traces not available");
        QCOMPARE(readOtf2(anchor.toStdString()).rankCount(), size_t(64)); // undamaged
        damage(QFileInfo(anchor).absolutePath() + "/traces.def", 2805, 37);
        try {
            readOtf2(anchor.toStdString());
            QFAIL("damaged definitions were read as a trace");
        } catch (const TraceError& e) {
            QVERIFY2(
                QString(e.what()).contains("traces.def defines 0 of the 64 locations the anchor "
                                           "file lists"),
                e.what());
        }
        const Trace t = readOtf2(anchor.toStdString(), partial());
        QVERIFY(t.diagnostics().partial);
        QVERIFY(!t.diagnostics().warnings.empty());
        QVERIFY(QString::fromStdString(t.diagnostics().warnings.front())
                    .contains("0 of the 64 locations"));
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
        try {
            readOtf2(anchor.toStdString());
            QFAIL("a timestamp years after the run was accepted");
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
};

QTEST_GUILESS_MAIN(TestOtf2Damage)
#include "tst_otf2damage.moc"
