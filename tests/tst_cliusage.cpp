// End-to-end usage tests of rankscope-cli: exit codes (0 success, 1 bad input, 2 bad usage),
// what the messages name, and --allow-partial on a damaged copy of a shared trace
// (casita-mpi-tags-10r, when ../shared is present) and of a checked-in one
// (resources/demo/traces/casita-mpi-late-sender-barrier-4r). The expected event counts come
// from otf2-print: casita-mpi-tags-10r has 428 events, location 3 holds 38 of them;
// casita-mpi-late-sender-barrier-4r has 110, location 3 holds 25
// (`otf2-print -L 3 traces.otf2 | awk '$2 == "3"' | wc -l`).

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using rankscope::test::CliResult;
using rankscope::test::jsonOf;
using rankscope::test::runCli;

/// Runs the rankscope-cli built with these tests.

const QString kTags = QStringLiteral("casita-mpi-tags-10r");                     // shared
const QString kLateSender = QStringLiteral("casita-mpi-late-sender-barrier-4r"); // checked in

/// A copy of the trace `name` in `dir` whose location 3 event file is cut in half; its anchor,
/// or empty when the trace is absent.
QString truncatedCopy(const QString& name, const QTemporaryDir& dir)
{
    const QString anchor = rankscope::test::copyTrace(name, dir.path());
    if (anchor.isEmpty()) return {};
    QFile evt(QFileInfo(anchor).absolutePath() + QStringLiteral("/traces/3.evt"));
    if (!evt.open(QIODevice::ReadWrite) || !evt.resize(evt.size() / 2)) return {};
    return anchor;
}

} // namespace

class TestCliUsage : public QObject
{
    Q_OBJECT
private slots:
    void exitCodes_data();
    void exitCodes();
    void allowPartial_data();
    void allowPartial();
    void noSubcommandNamesEvery();
};

void TestCliUsage::exitCodes_data()
{
    // %TMP% is a fresh temporary folder, %TRACE% the anchor of casita-mpi-tags-10r (shared: the
    // row is skipped without it), %CHECKEDIN% that of casita-mpi-late-sender-barrier-4r.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrNeedle"); // empty: not checked

    const QString gen = QStringLiteral("generate");
    const QString out = QStringLiteral("%TMP%/out");
    QTest::newRow("no subcommand") << QStringList{} << 2 << QString();
    // A usage message should say what was wrong, here the word that is not a subcommand.
    QTest::newRow("unknown subcommand")
        << QStringList{QStringLiteral("frobnicate")} << 2 << QStringLiteral("frobnicate");
    QTest::newRow("info without trace") << QStringList{QStringLiteral("info")} << 2 << QString();
    QTest::newRow("generate without -o") << QStringList{gen,
                                                        QStringLiteral("--pattern"),
                                                        QStringLiteral("stencil2d"),
                                                        QStringLiteral("--ranks"),
                                                        QStringLiteral("4"),
                                                        QStringLiteral("--iterations"),
                                                        QStringLiteral("1")}
                                         << 2 << QString();
    QTest::newRow("convert without -o")
        << QStringList{QStringLiteral("convert"), QStringLiteral("%CHECKEDIN%")} << 2 << QString();
    QTest::newRow("intervals --json --csv")
        << QStringList{QStringLiteral("intervals"), QStringLiteral("%CHECKEDIN%"),
                       QStringLiteral("--json"), QStringLiteral("--csv")}
        << 2 << QString();
    QTest::newRow("generate unknown pattern") << QStringList{gen,
                                                             QStringLiteral("--pattern"),
                                                             QStringLiteral("nosuch"),
                                                             QStringLiteral("--ranks"),
                                                             QStringLiteral("4"),
                                                             QStringLiteral("--iterations"),
                                                             QStringLiteral("1"),
                                                             QStringLiteral("-o"),
                                                             out}
                                              << 2 << QStringLiteral("nosuch");
    QTest::newRow("stencil3d on 10 ranks (not a cube)")
        << QStringList{gen,
                       QStringLiteral("--pattern"),
                       QStringLiteral("stencil3d"),
                       QStringLiteral("--ranks"),
                       QStringLiteral("10"),
                       QStringLiteral("--iterations"),
                       QStringLiteral("1"),
                       QStringLiteral("-o"),
                       out}
        << 2 << QStringLiteral("10");
    QTest::newRow("--region without '='") << QStringList{gen,
                                                         QStringLiteral("--pattern"),
                                                         QStringLiteral("pingpong"),
                                                         QStringLiteral("--ranks"),
                                                         QStringLiteral("2"),
                                                         QStringLiteral("--iterations"),
                                                         QStringLiteral("1"),
                                                         QStringLiteral("-o"),
                                                         out,
                                                         QStringLiteral("--region"),
                                                         QStringLiteral("compute")}
                                          << 2 << QStringLiteral("--region");
    QTest::newRow("--region time not a number") << QStringList{gen,
                                                               QStringLiteral("--pattern"),
                                                               QStringLiteral("pingpong"),
                                                               QStringLiteral("--ranks"),
                                                               QStringLiteral("2"),
                                                               QStringLiteral("--iterations"),
                                                               QStringLiteral("1"),
                                                               QStringLiteral("-o"),
                                                               out,
                                                               QStringLiteral("--region"),
                                                               QStringLiteral("compute=fast:1/n")}
                                                << 2 << QStringLiteral("--region");
    QTest::newRow("--region unknown law") << QStringList{gen,
                                                         QStringLiteral("--pattern"),
                                                         QStringLiteral("pingpong"),
                                                         QStringLiteral("--ranks"),
                                                         QStringLiteral("2"),
                                                         QStringLiteral("--iterations"),
                                                         QStringLiteral("1"),
                                                         QStringLiteral("-o"),
                                                         out,
                                                         QStringLiteral("--region"),
                                                         QStringLiteral("compute=1000:n^7")}
                                          << 2 << QStringLiteral("--region");

    QTest::newRow("nonexistent trace")
        << QStringList{QStringLiteral("info"), QStringLiteral("%TMP%/does-not-exist/traces.otf2")}
        << 1 << QStringLiteral("does-not-exist/traces.otf2");
    QTest::newRow("text file named traces.otf2")
        << QStringList{QStringLiteral("info"), QStringLiteral("%TMP%/text/traces.otf2")} << 1
        << QStringLiteral("text/traces.otf2");
    QTest::newRow("truncated .evt")
        << QStringList{QStringLiteral("info"),
                       QStringLiteral("%TMP%/casita-mpi-tags-10r/traces.otf2"),
                       QStringLiteral("--json")}
        << 1 << QStringLiteral("traces/3.evt");
    QTest::newRow("truncated .evt, intervals")
        << QStringList{QStringLiteral("intervals"),
                       QStringLiteral("%TMP%/casita-mpi-tags-10r/traces.otf2")}
        << 1 << QStringLiteral("traces/3.evt");
    QTest::newRow("success") << QStringList{QStringLiteral("info"), QStringLiteral("%TRACE%")} << 0
                             << QString();
    QTest::newRow("truncated .evt, checked-in trace")
        << QStringList{QStringLiteral("info"),
                       QStringLiteral("%TMP%/casita-mpi-late-sender-barrier-4r/traces.otf2"),
                       QStringLiteral("--json")}
        << 1 << QStringLiteral("traces/3.evt");
    QTest::newRow("success, checked-in trace")
        << QStringList{QStringLiteral("info"), QStringLiteral("%CHECKEDIN%")} << 0 << QString();
}

void TestCliUsage::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrNeedle);
    const QString trace = rankscope::test::sharedTraceAnchor(kTags);
    const QString checkedIn = rankscope::test::traceAnchor(kLateSender);
    QVERIFY(!checkedIn.isEmpty());
    const QString joined = args.join(QLatin1Char(' '));
    if (trace.isEmpty() && (joined.contains(QLatin1String("%TRACE%")) || joined.contains(kTags)))
        QSKIP("shared trace not available");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // The damaged inputs: a text file renamed traces.otf2, and copies of casita-mpi-tags-10r
    // (when present) and casita-mpi-late-sender-barrier-4r whose location 3 event file is cut
    // in half.
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("text"))));
    QFile text(tmp.filePath(QStringLiteral("text/traces.otf2")));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("This is a text file, not an OTF2 anchor.\n");
    text.close();
    if (!trace.isEmpty()) QVERIFY(!truncatedCopy(kTags, tmp).isEmpty());
    QVERIFY(!truncatedCopy(kLateSender, tmp).isEmpty());

    for (QString& a : args)
        a.replace(QLatin1String("%TMP%"), tmp.path())
            .replace(QLatin1String("%TRACE%"), trace)
            .replace(QLatin1String("%CHECKEDIN%"), checkedIn);
    const CliResult r = runCli(args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1 (expected %2), stderr: %3")
                                                    .arg(r.exitCode)
                                                    .arg(exitCode)
                                                    .arg(QString::fromUtf8(r.err))));
    if (!stderrNeedle.isEmpty()) QVERIFY2(r.err.contains(stderrNeedle.toUtf8()), r.err.constData());
    if (exitCode != 0) {
        // A message on stderr, nothing on stdout for a script to mistake for a result, and no
        // output archive.
        QVERIFY(!r.err.trimmed().isEmpty());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("out"))));
    }
}

void TestCliUsage::allowPartial_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("events");    // otf2-print, see the top of the file
    QTest::addColumn<qint64>("location3"); // events of location 3
    QTest::addColumn<qint64>("ranks");
    QTest::newRow("casita-mpi-tags-10r") << kTags << qint64(428) << qint64(38) << qint64(10);
    QTest::newRow("checked in: casita-mpi-late-sender-barrier-4r")
        << kLateSender << qint64(110) << qint64(25) << qint64(4);
}

void TestCliUsage::allowPartial()
{
    QFETCH(QString, name);
    QFETCH(qint64, events);
    QFETCH(qint64, location3);
    QFETCH(qint64, ranks);
    if (rankscope::test::traceAnchor(name).isEmpty()) QSKIP("shared trace not available");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString anchor = truncatedCopy(name, tmp);
    QVERIFY(!anchor.isEmpty());

    const CliResult r = runCli({QStringLiteral("info"), anchor, QStringLiteral("--json"),
                                QStringLiteral("--allow-partial")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = jsonOf(r);
    QVERIFY(!j.isEmpty());
    QCOMPARE(j.value(QLatin1String("partial")).toBool(false), true);
    const QJsonArray warnings = j.value(QLatin1String("warnings")).toArray();
    bool named = false;
    for (const QJsonValue& w : warnings)
        named = named || w.toString().contains(QLatin1String("traces/3.evt"));
    QVERIFY2(named, QJsonDocument(warnings).toJson().constData());
    // Part of location 3's events is lost, the rest of the trace is kept.
    const qint64 kept = j.value(QLatin1String("events")).toInteger();
    QVERIFY2(kept >= events - location3 && kept < events, qPrintable(QString::number(kept)));
    QCOMPARE(j.value(QLatin1String("ranks")).toInteger(), ranks);
}

void TestCliUsage::noSubcommandNamesEvery()
{
    // The usage error lists every subcommand the README documents.
    const CliResult r = runCli({});
    QCOMPARE(r.exitCode, 2);
    for (const char* name :
         {"info", "profile", "intervals", "convert", "generate", "waitstates", "rootcause",
          "criticalpath", "metrics", "simulate", "sweep", "collective", "fit", "extrapolate",
          "predict", "calibrate", "compare", "scenario"})
        QVERIFY2(r.err.contains(QByteArray(" ") + name + ",") ||
                     r.err.contains(QByteArray("(") + name + ",") ||
                     r.err.contains(QByteArray(" ") + name + ")"),
                 qPrintable(QString::fromUtf8(r.err) + " lacks " + name));
}

QTEST_GUILESS_MAIN(TestCliUsage)
#include "tst_cliusage.moc"
