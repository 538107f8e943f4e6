// Bad input that used to give a wrong answer with exit 0 (no crash, no hang, but a wrong number
// or a silent choice): each must now give exit 1 naming what is wrong, or a correct answer.
// - a region name that is not valid UTF-8 (OTF2 allows any bytes) in --json output;
// - NaN and infinities for generate's numbers, an existing archive under -o without --force;
// - network values outside physical ranges and a replay that would overflow int64 ns.

#include "importers/otf2/otf2writer.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

test::CliResult runCli(const QStringList& args)
{
    return test::runProgram(QStringLiteral(RANKSCOPE_CLI), args);
}

} // namespace

class TestCliBadInput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void jsonWithInvalidUtf8()
    {
        // A user region named "solve\xff\xfe" (invalid UTF-8).
        const QString out = oneRegionTrace("solve\xff\xfe", "utf8");
        for (const char* command : {"profile", "info"}) {
            const test::CliResult r = runCli({command, out, "--json"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(test::jsonOf(r).size() > 0); // parsed as JSON
        }
        // The region keeps its valid part; each invalid byte reads U+FFFD.
        const test::CliResult p = runCli({"profile", out, "--json"});
        QVERIFY2(QString::fromUtf8(p.out).contains(QStringLiteral("solve\uFFFD\uFFFD")),
                 p.out.constData());
    }

    void csvQuotesNames()
    {
        // A user region named `solve, "fast"` (a comma and quotes): profile --csv quotes it as
        // RFC 4180 says, as "solve, ""fast""", so every row keeps its eight fields.
        const QString out = oneRegionTrace("solve, \"fast\"", "comma");
        const test::CliResult r = runCli({"profile", out, "--csv"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4); // header, MPI_Init, the region, MPI_Finalize
        bool found = false;
        for (const QByteArray& line : lines) {
            if (!line.startsWith("\"solve")) continue;
            found = true;
            // One call of 100 ns on the one rank: inclusive = exclusive = min = mean = max.
            QCOMPARE(line, QByteArray("\"solve, \"\"fast\"\"\",function,1,100,100,100,100.0,100"));
        }
        QVERIFY2(found, r.out.constData());
    }

    void generateRefusesNonFiniteNumbers_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        for (const char* o :
             {"--message-bytes", "--latency-ns", "--bandwidth", "--imbalance", "--noise"})
            for (const char* v : {"nan", "inf", "-inf"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(o, v))) << QString(o) << QString(v);
    }

    void generateRefusesNonFiniteNumbers()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        const test::CliResult r =
            runCli({"generate", "--pattern", "pingpong", "--ranks", "2", "--iterations", "2",
                    option, value, "-q", "-o", dir_.filePath("never")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(option.toUtf8()), r.err.constData());
        QVERIFY(!QDir(dir_.filePath("never")).exists());
    }

    void generateKeepsAnExistingArchiveUnlessForced()
    {
        const QString out = dir_.filePath("twice");
        const QStringList base = {"generate", "--pattern", "pingpong", "--ranks",
                                  "2",        "-q",        "-o",       out};
        QCOMPARE(runCli(base + QStringList{"--iterations", "2"}).exitCode, 0);
        const auto events = [&] {
            return test::jsonOf(runCli({"info", out, "--json"})).value("events").toInt();
        };
        const int two = events();
        QVERIFY(two > 0);
        const test::CliResult again = runCli(base + QStringList{"--iterations", "3"});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("--force"), again.err.constData());
        QCOMPARE(events(), two); // untouched
        QCOMPARE(runCli(base + QStringList{"--iterations", "3", "--force"}).exitCode, 0);
        QVERIFY(events() > two); // the 3-iteration run replaced it
    }

    void simulateRefusesUnphysicalValues_data()
    {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("expected");
        QTest::newRow("latency 1e9 s") << "links.hdr.latency=1e9s"
                                       << "links.hdr.latency";
        QTest::newRow("bandwidth 1e-9 bps") << "links.hdr.bandwidth=1e-9bps"
                                            << "links.hdr.bandwidth";
        QTest::newRow("nodes") << "nodes=16777217"
                               << "nodes";
    }

    void simulateRefusesUnphysicalValues()
    {
        QFETCH(QString, set);
        QFETCH(QString, expected);
        const QString trace = dir_.filePath("ping");
        if (!QFile::exists(trace + "/traces.otf2"))
            QCOMPARE(runCli({"generate", "--pattern", "pingpong", "--ranks", "2", "--iterations",
                             "2", "-q", "-o", trace})
                         .exitCode,
                     0);
        const test::CliResult r =
            runCli({"simulate", trace, "--network", spec(), "--set", set, "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QVERIFY(!r.out.contains("-9223372036854775808"));
    }

    void replayOverflowRefused()
    {
        // 1 GB messages at 1 bit/s take 8e9 s = 8e18 ns each, past 2^62 ns: refused, never a
        // negative run time.
        const QString trace = dir_.filePath("big");
        QCOMPARE(runCli({"generate", "--pattern", "pingpong", "--ranks", "2", "--iterations", "2",
                         "--message-bytes", "1e9", "-q", "-o", trace})
                     .exitCode,
                 0);
        const test::CliResult r = runCli({"simulate", trace, "--network", spec(), "--set",
                                          "links.hdr.bandwidth=1bps", "--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("2^62"), r.err.constData());
    }

    void sweepEmptyValueBlamesTheValues()
    {
        const QString trace = dir_.filePath("ping");
        if (!QFile::exists(trace + "/traces.otf2"))
            QCOMPARE(runCli({"generate", "--pattern", "pingpong", "--ranks", "2", "--iterations",
                             "2", "-q", "-o", trace})
                         .exitCode,
                     0);
        for (const char* values : {""}) {
            const test::CliResult r = runCli({"sweep", trace, "--network", spec(), "--param",
                                              "links.hdr.latency", "--values", values});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--values"), r.err.constData());
            QVERIFY2(!r.err.contains("ib-switch.yaml"), r.err.constData()); // not the spec's fault
        }
    }

private:
    static QString spec()
    {
        return QStringLiteral(RANKSCOPE_SOURCE_DIR) +
               QStringLiteral("/resources/networks/ib-switch.yaml");
    }

    /// One rank: MPI_Init [0, 10], the user region `name` [20, 120], MPI_Finalize [200, 210],
    /// written as the OTF2 archive `folder` in dir_.
    QString oneRegionTrace(const char* name, const char* folder) const
    {
        test::HandTrace h;
        const LocationId l = h.addRank();
        h.addWorld();
        h.call(l, h.mpi("MPI_Init"), 0, 10);
        h.call(l, h.user(name), 20, 120);
        h.call(l, h.mpi("MPI_Finalize"), 200, 210);
        const QString out = dir_.filePath(folder);
        writeOtf2(h.finish(), QFile::encodeName(out).toStdString());
        return out;
    }

    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliBadInput)
#include "tst_clibadinput.moc"
