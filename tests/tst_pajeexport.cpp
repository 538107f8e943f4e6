// The Paje export (importers/paje/) and `rankscope-cli convert --to paje`: a hand-built trace
// written and read back by PajeNG's pj_dump, against figures worked out by hand from its
// timestamps; a name with a quote and a newline; the demo trace against otf2-print's counts of
// ENTER and MPI_SEND records. The pj_dump checks are skipped when it is not installed.

#include "importers/paje/pajeexport.h"
#include "testsupport/clirunner.h"
#include "testsupport/handworld.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <sstream>

using namespace rankscope;
using rankscope::test::CliResult;
using rankscope::test::runCli;

namespace {

/// A double quote, a newline, a control character and a byte that is not UTF-8.
const char kOddName[] = "say \"hi\"\nnext\x01 \xff!";

/// rank 0: MPI_Init [0,1000], the user region "phase" [1200,2600] holding the user region
///         kOddName [1500,2500], MPI_Send to 1 [5000,5200] (the message leaves at 5000),
///         MPI_Barrier [7000,7600], MPI_Finalize [9000,9100];
/// rank 1: MPI_Init [0,1000], MPI_Recv from 0 [2001,6123] (arrives at 6123),
///         MPI_Barrier [6500,7600], MPI_Finalize [9000,9100].
Trace handTrace()
{
    test::HandWorld w(2);
    w.bytes = 4096;
    w.call(0, "MPI_Init", 0, 1000);
    const RegionId phase = w.h.user("phase");
    w.h.enter(w.loc[0], 1200, phase);
    w.h.call(w.loc[0], w.h.user(kOddName), 1500, 2500);
    w.h.leave(w.loc[0], 2600, phase);
    w.send(0, 5000, 5200, 1);
    w.barrier(0, 7000, 7600);
    w.call(0, "MPI_Finalize", 9000, 9100);
    w.call(1, "MPI_Init", 0, 1000);
    w.recv(1, 2001, 6123, 0);
    w.barrier(1, 6500, 7600);
    w.call(1, "MPI_Finalize", 9000, 9100);
    return w.h.finish();
}

/// pj_dump's lines (-l 9: times with 9 decimals, -u: the user field Size of links), each split
/// at ", ". Skips the test when pj_dump is not installed; fails when it does not exit with 0.
struct Dump
{
    bool ran = false;
    int exitCode = -1;
    QByteArray err;
    QList<QStringList> lines;

    QList<QStringList> select(const QString& kind, const QString& container = {}) const
    {
        QList<QStringList> out;
        for (const QStringList& l : lines)
            if (l.value(0) == kind && (container.isEmpty() || l.value(1) == container)) out << l;
        return out;
    }
};

Dump pjDump(const QString& path)
{
    Dump d;
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("pj_dump"));
    if (exe.isEmpty()) return d;
    QProcess p;
    p.start(exe, {QStringLiteral("-l"), QStringLiteral("9"), QStringLiteral("-u"), path});
    if (!p.waitForFinished(120000)) return d;
    d.ran = true;
    d.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    d.err = p.readAllStandardError();
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (!line.isEmpty()) d.lines << QString::fromUtf8(line).split(QStringLiteral(", "));
    return d;
}

#define PJ_DUMP(var, path)                                                                         \
    const Dump var = pjDump(path);                                                                 \
    if (!var.ran) QSKIP("pj_dump (PajeNG) not installed: the Paje file was not read back");        \
    QVERIFY2(var.exitCode == 0, var.err.constData())

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString demoTrace()
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR) +
           QStringLiteral("/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
}

} // namespace

class TestPajeExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        std::ostringstream text;
        const PajeExportReport r = writePajeTrace(handTrace(), text);
        paje_ = QByteArray::fromStdString(text.str());
        QCOMPARE(r.states, uint64_t(10));
        QCOMPARE(r.unclosedStates, uint64_t(0));
        QCOMPARE(r.links, uint64_t(1));
        QCOMPARE(r.bytes, uint64_t(paje_.size()));
        path_ = dir_.filePath(QStringLiteral("hand.paje"));
        writePajeTraceFile(handTrace(), path_.toStdString());
    }

    void fileAndStreamAgree()
    {
        QCOMPARE(readAll(path_), paje_);
        // Nothing but the file is left in the folder (the temporary file was renamed).
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("hand.paje")});
        QVERIFY(paje_.startsWith("# "));
        QVERIFY(paje_.contains("%EventDef PajePushState 6\n"));
    }

    void statesPerRank()
    {
        PJ_DUMP(dump, path_);
        // Rank 0: Init, phase, the odd region, Send, Barrier, Finalize; rank 1: Init, Recv,
        // Barrier, Finalize.
        QCOMPARE(dump.select("State", "rank 0").size(), 6);
        QCOMPARE(dump.select("State", "rank 1").size(), 4);
        // State, container, type, start, end, duration, imbrication, value.
        // MPI_Recv on rank 1: [2001, 6123] ns, outermost.
        QList<QStringList> recv;
        for (const QStringList& s : dump.select("State", "rank 1"))
            if (s.value(7) == QLatin1String("MPI_Recv")) recv << s;
        QCOMPARE(recv.size(), 1);
        QCOMPARE(recv[0].mid(2, 5), QStringList({"Region", "0.000002001", "0.000006123",
                                                 "0.000004122", "0.000000000"}));
        // The odd region [1500, 2500] on rank 0 lies inside "phase": imbrication 1; its quotes
        // became single quotes and the control characters blanks.
        QList<QStringList> odd;
        for (const QStringList& s : dump.select("State", "rank 0"))
            if (s.value(3) == QLatin1String("0.000001500")) odd << s;
        QCOMPARE(odd.size(), 1);
        QCOMPARE(odd[0].mid(4, 3), QStringList({"0.000002500", "0.000001000", "1.000000000"}));
        QVERIFY2(odd[0].value(7).startsWith(QLatin1String("say 'hi' next  ")),
                 qPrintable(odd[0].value(7)));
    }

    void messageLink()
    {
        PJ_DUMP(dump, path_);
        // Link, container, type, start, end, duration, value, startContainer, endContainer, key,
        // Size, Tag, Comm, Post: sent at 5000 by rank 0, received at 6123 by rank 1, 4096 bytes,
        // tag 0 on the world (communicator 0), a blocking receive (no posting: "-").
        const QList<QStringList> links = dump.select("Link");
        QCOMPARE(links.size(), 1);
        QCOMPARE(links[0].mid(1),
                 QStringList({"MPI run", "Message", "0.000005000", "0.000006123", "0.000001123",
                              "message", "rank 0", "rank 1", "m0", "4096", "0", "0", "-"}));
    }

    void quotedNames()
    {
        std::string s;
        paje::appendQuoted(s, "a \"b\"\r\nc\t#d");
        QCOMPARE(QByteArray::fromStdString(s), QByteArray("\"a 'b'  c #d\""));
        for (const auto& [ns, text] : std::initializer_list<std::pair<int64_t, const char*>>{
                 {0, "0.000000000"},
                 {1500, "0.000001500"},
                 {-1500, "-0.000001500"},
                 {12'345'678'901, "12.345678901"}}) {
            s.clear();
            paje::appendSeconds(s, ns);
            QCOMPARE(QString::fromStdString(s), QString::fromLatin1(text));
        }
    }

    void demoTraceReadBack()
    {
        const QString out = dir_.filePath(QStringLiteral("demo.paje"));
        const CliResult c = runCli({QStringLiteral("convert"), demoTrace(), "-o", out});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY2(c.err.contains("Paje"), c.err.constData());
        PJ_DUMP(dump, out);
        // otf2-print resources/demo/traces/casita-mpi-late-sender-barrier-4r/traces.otf2 |
        //   grep -c '^ENTER'
        QCOMPARE(dump.select("State").size(), 48);
        // otf2-print resources/demo/traces/casita-mpi-late-sender-barrier-4r/traces.otf2 |
        //   grep -c '^MPI_SEND\|^MPI_ISEND'     (all three are matched)
        QCOMPARE(dump.select("Link").size(), 3);
        // Container, parent, type, start, end, duration, name: one per rank in the run.
        QStringList ranks;
        for (const QStringList& l : dump.select("Container", "MPI run"))
            if (l.value(2) == QLatin1String("Rank")) ranks << l.value(6);
        ranks.sort();
        QCOMPARE(ranks, QStringList({"rank 0", "rank 1", "rank 2", "rank 3"}));
    }

    void cliFormatChoice()
    {
        // --to paje writes Paje whatever the name.
        const QString named = dir_.filePath(QStringLiteral("trace-out"));
        CliResult c = runCli({"convert", demoTrace(), "-o", named, "--to", "paje"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY(readAll(named).contains("%EventDef PajeStartLink"));
        // --to otf2 writes an archive even into a folder named .paje.
        const QString folder = dir_.filePath(QStringLiteral("archive.paje"));
        c = runCli({"convert", demoTrace(), "-o", folder, "--to", "otf2"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/traces.otf2")));
        // An unknown format is a usage error that lists paje.
        c = runCli({"convert", demoTrace(), "-o", dir_.filePath("x.paje"), "--to", "vite"});
        QCOMPARE(c.exitCode, 2);
        QVERIFY2(c.err.contains("vite") && c.err.contains("paje"), c.err.constData());
        QVERIFY(!QFileInfo::exists(dir_.filePath("x.paje")));
    }

    void cliUnwritableOutput()
    {
        // A folder that does not exist, and a path that is a folder.
        QDir().mkpath(dir_.filePath(QStringLiteral("folder.paje")));
        for (const QString& out : {dir_.filePath(QStringLiteral("no/such/dir/out.paje")),
                                   dir_.filePath(QStringLiteral("folder.paje"))}) {
            const CliResult c = runCli({"convert", demoTrace(), "-o", out});
            QCOMPARE(c.exitCode, 1);
            QVERIFY2(c.err.contains(out.toUtf8()) && c.err.contains("Paje trace"),
                     c.err.constData());
        }
    }

private:
    QTemporaryDir dir_;
    QByteArray paje_;
    QString path_;
};

QTEST_GUILESS_MAIN(TestPajeExport)
#include "tst_pajeexport.moc"
