// An output is never an input (model/support/outputpath.h): a writer refuses a path inside, or
// equal to, a trace the same command reads. Before this, `simulate j4 --links-csv
// j4/traces.otf2`, `calibrate ... -o j4/traces.otf2` and `convert j4 -o j4/traces.otf2 --to
// chrome|paje|prv|ti` replaced the anchor file and exited 0, leaving j4 unreadable.

#include "model/support/outputpath.h"
#include "testsupport/clirunner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

using namespace rankscope;

namespace {

test::CliResult runCli(const QStringList& args)
{
    return test::runProgram(QStringLiteral(RANKSCOPE_CLI), args);
}

/// A digest of every file below `dir` (names and bytes), to see that nothing changed.
QByteArray digestOf(const QString& dir)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext())
        files << it.next();
    files.sort();
    for (const QString& f : files) {
        QFile file(f);
        if (!file.open(QIODevice::ReadOnly)) return {};
        h.addData(f.toUtf8());
        h.addData(file.readAll());
    }
    return h.result();
}

void touch(const std::string& p)
{
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    QFile f(QString::fromStdString(p));
    QVERIFY(f.open(QIODevice::WriteOnly));
}

} // namespace

class TestOutputOverInput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void coreRules()
    {
        const std::string d = dir_.path().toStdString() + "/core";
        touch(d + "/j4/traces.otf2");
        touch(d + "/j4/traces.def");
        touch(d + "/j4/traces/0.evt");
        touch(d + "/run.prv");
        touch(d + "/x/a.otf2");
        // A folder input: everything in it, under any spelling.
        QVERIFY(outputHitsInput(d + "/j4/traces.otf2", d + "/j4"));
        QVERIFY(outputHitsInput(d + "/j4/traces/0.evt", d + "/j4"));
        QVERIFY(outputHitsInput(d + "/j4/new.csv", d + "/j4"));
        QVERIFY(outputHitsInput(d + "/j4/../j4/./traces.def", d + "/j4"));
        std::filesystem::create_directory_symlink(d + "/j4", d + "/link");
        QVERIFY(outputHitsInput(d + "/link/traces.otf2", d + "/j4"));
        QVERIFY(outputHitsInput(d + "/j4/traces.otf2", d + "/link"));
        // A name that only begins like the folder is another place.
        QVERIFY(!outputHitsInput(d + "/j4-links.csv", d + "/j4"));
        QVERIFY(!outputHitsInput(d + "/j4x/traces.otf2", d + "/j4"));
        // An anchor input: its archive (anchor, .def, the event folder), not its neighbours.
        QVERIFY(outputHitsInput(d + "/x/a.otf2", d + "/x/a.otf2"));
        QVERIFY(outputHitsInput(d + "/x/a.def", d + "/x/a.otf2"));
        QVERIFY(outputHitsInput(d + "/x/a/0.evt", d + "/x/a.otf2"));
        QVERIFY(!outputHitsInput(d + "/x/links.csv", d + "/x/a.otf2"));
        // Paraver: the .pcf and .row beside the .prv are the trace too.
        QVERIFY(outputHitsInput(d + "/run.pcf", d + "/run.prv"));
        QVERIFY(outputHitsInput(d + "/run.row", d + "/run.prv"));
        QVERIFY(!outputHitsInput(d + "/run.json", d + "/run.prv"));
        // An archive folder output writes traces.otf2, traces.def and traces/ in it.
        QVERIFY(outputHitsInput(d + "/x", d + "/x/traces.otf2", true));
        QVERIFY(outputHitsInput(d + "/j4", d + "/j4", true));
        QVERIFY(outputHitsInput(d + "/j4/out", d + "/j4", true));
        QVERIFY(!outputHitsInput(d + "/x", d + "/x/a.otf2", true));
        QVERIFY(!outputHitsInput(d + "/new", d + "/j4", true));
        // The refusal names the option, the output and the trace.
        try {
            refuseOutputOverInputs("--links-csv", d + "/j4/traces.otf2", {d + "/j4"});
            QFAIL("not refused");
        } catch (const std::invalid_argument& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains("--links-csv") && m.contains("j4"), e.what());
        }
    }

    void commandsRefuseAndKeepTheTrace_data()
    {
        QTest::addColumn<QStringList>("args");
        // %1 is the trace folder. Each of these replaced a file of the trace with exit 0.
        const QList<QStringList> cases = {
            {"simulate", "%1", "--network", "ib-switch", "--links-csv", "%1/traces.otf2"},
            {"calibrate", "%1", "--network", "ib-switch", "-o", "%1/traces.otf2"},
            {"convert", "%1", "-o", "%1/traces.otf2", "--to", "chrome"},
            {"convert", "%1", "-o", "%1/traces.otf2", "--to", "paje"},
            {"convert", "%1", "-o", "%1/traces.otf2", "--to", "prv"},
            {"convert", "%1", "-o", "%1/traces.otf2", "--to", "ti"},
            {"convert", "%1", "-o", "%1/traces.def", "--to", "chrome"},
            {"convert", "%1", "-o", "%1/traces/0.evt", "--to", "paje"},
            {"convert", "%1/traces.otf2", "-o", "%1"},
            {"simulate", "%1", "--network", "ib-switch", "-o", "%1"},
            {"summarize", "%1", "-o", "%1/traces/x.rsum"},
        };
        for (const QStringList& c : cases)
            QTest::newRow(qPrintable(c.join(' '))) << c;
    }

    void commandsRefuseAndKeepTheTrace()
    {
        QFETCH(QStringList, args);
        const QString j4 = dir_.path() + "/j4";
        if (!QFile::exists(j4 + "/traces.otf2")) {
            const test::CliResult g = runCli({"generate", "--pattern", "stencil2d", "--ranks", "4",
                                              "--iterations", "3", "-o", j4});
            QVERIFY2(g.exitCode == 0, g.err.constData());
        }
        const QByteArray before = digestOf(j4);
        QStringList a;
        for (const QString& s : args)
            a << QString(s).replace("%1", j4);
        const test::CliResult r = runCli(a);
        QVERIFY2(r.exitCode == 2,
                 qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        QVERIFY2(r.err.contains("would write over the trace") && r.err.contains("j4"),
                 r.err.constData());
        QCOMPARE(digestOf(j4), before);
        const test::CliResult info = runCli({"info", j4});
        QVERIFY2(info.exitCode == 0, info.err.constData());
    }

    void outputsBesideTheTraceStillWork()
    {
        const QString j4 = dir_.path() + "/j4";
        QVERIFY(QFile::exists(j4 + "/traces.otf2"));
        const test::CliResult r =
            runCli({"convert", j4, "-o", dir_.path() + "/j4.json", "--to", "chrome"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFile::exists(dir_.path() + "/j4.json"));
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestOutputOverInput)
#include "tst_outputoverinput.moc"
