// Analysis > Correct Clocks and File > Export Trace as OTF2 in the main window (offscreen), on a
// hand-built trace with one message received 30 ns before it was sent. The corrected times are
// worked out by hand from the rules in model/matching/clockcorrection.h with the default options
// (minimal latency 100 ns, decay 0.01, backward amortisation), in the comments beside them.

#include "app/clockswitch.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "model/matching/clockviolations.h"
#include "testsupport/clirunner.h"
#include "testsupport/clockfixture.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// Rank 1 as recorded, and corrected: the receive goes to 110 + 100 = 210 (a jump of 130); the
// Enter of MPI_Recv at 50 moves floor(130 * 50 / 80) = 81 to 131 (amortised back to main's
// Enter at 0, which stays); then each interval keeps all but 1% (rounded down) while the clock
// is ahead: Leave 210 + 10 - 0 = 220, foo 220 + 110 - 1 = 329 and 329 + 100 - 1 = 428, main's
// Leave max(1000, 428 + 700 - 7) = 1121. Rank 0 does not move.
const std::vector<int64_t> kRecorded{0, 50, 80, 90, 200, 300, 1000};
const std::vector<int64_t> kCorrected{0, 131, 210, 220, 329, 428, 1121};

bool waitIdle(MainWindow& w)
{
    if (!w.isLoading()) return true;
    QSignalSpy idle(w.loader(), &TraceLoader::idle);
    return idle.wait(20000);
}

} // namespace

class TestClockSwitch : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir dir_;

    void open(MainWindow& w)
    {
        w.setInteractive(false);
        w.show();
        QVERIFY(w.openTrace(dir_.path()));
        QVERIFY(waitIdle(w));
        QVERIFY(w.document(0));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        writeOtf2(lateReceiveTrace(), dir_.path().toStdString());
    }

    void correctAndBack()
    {
        MainWindow w;
        open(w);
        QAction* action = w.actions()->correctClocks();
        QVERIFY(action->isEnabled());
        QVERIFY(!action->isChecked());
        const QString name = w.tabs()->tabText(0);
        QCOMPARE(eventTimes(*w.document(0)->data().trace, LocationId(1)), kRecorded);
        // As recorded: rank 1 waits in MPI_Recv from 50 until the send starts at 100.
        QCOMPARE(w.document(0)->data().waits->waits.size(), size_t(1));

        action->trigger();
        QVERIFY(waitIdle(w));
        const TraceDocument* doc = w.document(0);
        QVERIFY(doc->data().clockCorrection);
        QCOMPARE(eventTimes(*doc->data().trace, LocationId(1)), kCorrected);
        QCOMPARE(eventTimes(*doc->data().trace, LocationId(0)),
                 (std::vector<int64_t>{0, 100, 110, 120, 1000}));
        const ClockCorrection& c = *doc->data().clockCorrection;
        QCOMPARE(c.before.messages, uint64_t(1));
        QCOMPARE(c.before.worstOffsetNs, int64_t(30));
        QCOMPARE(c.after.count(), uint64_t(0));
        QCOMPARE(c.eventsMoved, uint64_t(6)); // the Enter at 50 and the five from the receive on
        QCOMPARE(c.maxShiftNs, int64_t(130));
        // Every view is over the corrected trace: the timeline, the analyses, the headline.
        QCOMPARE(doc->timeline()->trace().get(), doc->data().trace.get());
        QCOMPARE(doc->data().headline.durationNs, int64_t(1121));
        // Now the receive starts at 131, after the send began at 100: no late sender left.
        QCOMPARE(doc->data().waits->waits.size(), size_t(0));
        QCOMPARE(doc->data().criticalPath->lengthNs, int64_t(1121));
        QCOMPARE(w.tabs()->tabText(0), name + QStringLiteral(" (corrected clocks)"));
        QVERIFY(action->isChecked());
        QVERIFY(w.statusText().contains(QStringLiteral("corrected clocks")));
        // The trace as loaded is kept for switching back.
        QCOMPARE(eventTimes(*doc->data().uncorrected->trace, LocationId(1)), kRecorded);

        action->trigger(); // unchecks: back at once, no job
        QVERIFY(!w.isLoading());
        QVERIFY(!w.document(0)->data().clockCorrection);
        QCOMPARE(eventTimes(*w.document(0)->data().trace, LocationId(1)), kRecorded);
        QCOMPARE(w.tabs()->tabText(0), name);
        QVERIFY(!action->isChecked());
        QCOMPARE(w.tabs()->count(), 1);
    }

    void cancelKeepsTheTrace()
    {
        MainWindow w;
        open(w);
        const TraceDocument* before = w.document(0);
        w.actions()->correctClocks()->trigger();
        QVERIFY(w.isLoading());
        // The status bar says what runs: a correction, not a load.
        QVERIFY(w.loader()->oldestIsCorrection());
        w.loader()->cancelAll();
        QTest::qWait(50);
        QCOMPARE(w.document(0), before);
        QVERIFY(!w.document(0)->data().clockCorrection);
        QVERIFY(!w.actions()->correctClocks()->isChecked());
    }

    void exportCorrected()
    {
        MainWindow w;
        open(w);
        w.actions()->correctClocks()->trigger();
        QVERIFY(waitIdle(w));
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString target = out.path() + QStringLiteral("/corrected");
        QSignalSpy exported(w.clockSwitch(), &ClockSwitch::exported);
        QVERIFY(w.clockSwitch()->exportTrace(0, target));
        QVERIFY(exported.wait(20000));
        QCOMPARE(exported.front().at(1).toString(), QString());
        const Trace back = readOtf2((target + QStringLiteral("/traces.otf2")).toStdString());
        QCOMPARE(eventTimes(back, LocationId(1)), kCorrected);
        QCOMPARE(findClockViolations(back).count(), uint64_t(0));

        // Writing into the same archive again is refused with the path named.
        exported.clear();
        QVERIFY(w.clockSwitch()->exportTrace(0, target));
        QVERIFY(exported.wait(20000));
        QVERIFY(exported.front().at(1).toString().contains(target));
    }

    void cliConvertWritesTheCorrectedTrace()
    {
        // The command line's counterpart: `convert --correct-clocks` writes the same corrected
        // trace (the same default options).
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString target = out.path() + QStringLiteral("/corrected");
        const CliResult r = runCli({QStringLiteral("convert"), dir_.path(), QStringLiteral("-o"),
                                    target, QStringLiteral("--correct-clocks")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Trace back = readOtf2((target + QStringLiteral("/traces.otf2")).toStdString());
        QCOMPARE(eventTimes(back, LocationId(1)), kCorrected);
        QCOMPARE(eventTimes(back, LocationId(0)), (std::vector<int64_t>{0, 100, 110, 120, 1000}));
    }
};

QTEST_MAIN(TestClockSwitch)
#include "tst_clockswitch.moc"
