// The SimGrid peer engine's core call (importers/simgrid/simgridengine.h), without the CLI: on a
// ping-pong whose times are worked out by hand, both engines' predicted run times; smpirun
// missing from PATH; smpirun failing (its output's tail in the message); and a cancel while
// smpirun runs (the process is killed, the temporary folder removed). Tests that need SimGrid
// are skipped when smpirun is not installed; the others put a stand-in smpirun on PATH.

#include "importers/simgrid/simgridengine.h"
#include "importers/tracefile.h"
#include "model/trace/traceerror.h"
#include "testsupport/simgridfixture.h"
#include "testsupport/twonodespec.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace rankscope;
using namespace rankscope::bench;

namespace {

// test::kTwoNodeSpec: two nodes on one crossbar, every node link 1 us and 8 bytes/ns, no CPU
// overheads, eager up to 64 KiB: a message of B bytes between the nodes takes 2 x 1 us (the
// sender's and the receiver's link) + B / 8 ns, and its sender goes on at once. The ping-pong is
// test::writeSimGridPingPong.

SimGridEngineRequest crossbarRequest()
{
    SimGridEngineRequest r;
    r.spec = netsim::NetworkSpec::fromString(test::kTwoNodeSpec, "xbar");
    r.source = "pp.ti";
    return r;
}

/// Folders this process's runs left in the temporary folder.
QStringList leftovers()
{
    const QString prefix =
        QStringLiteral("rankscope-simgrid-%1-").arg(QCoreApplication::applicationPid());
    return QDir(QDir::tempPath()).entryList({prefix + "*"}, QDir::Dirs | QDir::NoDotAndDotDot);
}

/// True when `pid` no longer runs (gone, or a zombie waiting for its parent).
bool gone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return true;
    const QByteArray text = stat.readAll();
    const qsizetype paren = text.lastIndexOf(')');
    return paren < 0 || text.mid(paren + 2, 1) == "Z";
}

/// Puts `dir` first on PATH for the life of the object.
struct PathFirst
{
    QByteArray old = qgetenv("PATH");
    explicit PathFirst(const QString& dir) { qputenv("PATH", dir.toUtf8() + ":" + old); }
    ~PathFirst() { qputenv("PATH", old); }
};

} // namespace

class TestSimGridEngineCore : public QObject
{
    Q_OBJECT

private slots:
    void pingPongByHand()
    {
        if (!test::haveSmpirun()) QSKIP("smpirun (libsimgrid-dev) not installed");
        QTemporaryDir dir;
        const Trace trace = readTraceFile(test::writeSimGridPingPong(dir.path()).toStdString());
        const SimGridEngineResult r = runSimGridEngine(trace, crossbarRequest());
        // By hand: rank 0 sends at 1000 ns; the 800 bytes arrive at 1000 + 2000 + 100 = 3100,
        // where rank 1's receive ends; it computes until 3300 and sends 1600 bytes, which arrive
        // at 3300 + 2000 + 200 = 5500, where rank 0's receive and the run end.
        QCOMPARE(r.rankscopeNs, int64_t(5500));
        QCOMPARE(r.model, std::string("loggp"));
        // SimGrid's own model, configured to the spec (simgridexport.cpp: latency and bandwidth
        // factors 1, detached sends up to the eager limit), gives the same figure up to its
        // rounding of link sharing (a few ns measured with smpirun 3.32): within 1 %.
        QVERIFY2(std::abs(double(r.simgridNs) - 5500.0) <= 55.0,
                 qPrintable(QStringLiteral("SimGrid: %1 ns").arg(r.simgridNs)));
        // What smpirun printed ("Simulated time", six significant digits) agrees with the end
        // of the Paje trace it wrote.
        QVERIFY(std::abs(r.simgridReportedSeconds * 1e9 - double(r.simgridNs)) <=
                1e-5 * double(r.simgridNs));
        QCOMPARE(r.differencePercent, 100.0 * double(r.simgridNs - 5500) / 5500.0);
        QVERIFY(r.smpirunSeconds > 0 && r.simgridWallSeconds() >= r.smpirunSeconds);
        QCOMPARE(r.exported.ranks, 2u);
        QCOMPARE(r.exported.isends, uint64_t(2));
        // SimGrid's trace: two ranks, the two messages of the ping-pong, by size.
        QVERIFY(r.simgridTrace);
        QCOMPARE(r.simgridTrace->rankCount(), size_t(2));
        QCOMPARE(r.simgridTrace->messages().size(), size_t(2));
        std::vector<uint64_t> sizes;
        for (const Message& m : r.simgridTrace->messages())
            sizes.push_back(m.bytes);
        std::sort(sizes.begin(), sizes.end());
        QCOMPARE(sizes, (std::vector<uint64_t>{800, 1600}));
        // A temporary export is gone; a work folder is kept with SimGrid's Paje trace.
        QVERIFY(r.pajeFile.empty() && r.exported.dir.empty());
        QVERIFY(leftovers().isEmpty());
        SimGridEngineRequest keep = crossbarRequest();
        keep.workDir = dir.filePath("sg").toStdString();
        const SimGridEngineResult kept = runSimGridEngine(trace, keep);
        QCOMPARE(kept.pajeFile, keep.workDir + "/simgrid.paje");
        QVERIFY(QFile::exists(QString::fromStdString(kept.pajeFile)));
        QCOMPARE(kept.simgridNs, r.simgridNs); // deterministic
    }

    void withoutSmpirun()
    {
        QTemporaryDir empty;
        const QByteArray old = qgetenv("PATH");
        qputenv("PATH", empty.path().toUtf8());
        const Trace trace = readTraceFile(test::writeSimGridPingPong(empty.path()).toStdString());
        QString message;
        try {
            runSimGridEngine(trace, crossbarRequest());
        } catch (const SimGridUnavailable& e) {
            message = QString::fromUtf8(e.what());
        }
        qputenv("PATH", old);
        QVERIFY2(message.contains("smpirun") && message.contains("apt-get install libsimgrid-dev"),
                 qPrintable(message));
        QVERIFY(leftovers().isEmpty());
    }

    void smpirunFails()
    {
        // A stand-in smpirun that prints 20 lines and exits with 3.
        QTemporaryDir bin;
        test::writeTestFile(bin.filePath("smpirun"),
                            "#!/bin/sh\nfor i in $(seq 1 20); do echo \"line $i\"; done\n"
                            "echo 'platform.xml: unknown host' >&2\nexit 3\n",
                            true);
        PathFirst path(bin.path());
        QTemporaryDir dir;
        const Trace trace = readTraceFile(test::writeSimGridPingPong(dir.path()).toStdString());
        QString message;
        try {
            runSimGridEngine(trace, crossbarRequest());
        } catch (const TraceError& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.contains("smpirun failed (exit code 3)"), qPrintable(message));
        // The tail of its output (the last 12 lines), not all of it.
        QVERIFY2(message.contains("platform.xml: unknown host") && message.contains("line 20") &&
                     !message.contains("line 5\n"),
                 qPrintable(message));
        QVERIFY(leftovers().isEmpty());
    }

    void cancelWhileSmpirunRuns()
    {
        // A stand-in smpirun that notes its process id and folder, then runs for a minute.
        QTemporaryDir bin;
        const QString mark = bin.filePath("mark");
        test::writeTestFile(bin.filePath("smpirun"),
                            QStringLiteral("#!/bin/sh\necho \"$$ $(pwd)\" > %1.tmp\nmv %1.tmp %1\n"
                                           "exec sleep 60\n")
                                .arg(mark)
                                .toUtf8(),
                            true);
        PathFirst path(bin.path());
        QTemporaryDir dir;
        const Trace trace = readTraceFile(test::writeSimGridPingPong(dir.path()).toStdString());
        SimGridEngineRequest r = crossbarRequest();
        // Cancel once the stand-in runs.
        r.cancelled = [&] { return QFile::exists(mark); };
        QElapsedTimer clock;
        clock.start();
        bool cancelled = false;
        try {
            runSimGridEngine(trace, r);
        } catch (const Cancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
        QVERIFY2(clock.elapsed() < 10000, "the cancel waited for smpirun to end");
        QFile f(mark);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> fields = f.readAll().trimmed().split(' ');
        QCOMPARE(fields.size(), 2);
        const qint64 pid = fields[0].toLongLong();
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(gone(pid), 5000);
        // It ran in the temporary export folder, which is removed.
        QVERIFY(fields[1].contains("rankscope-simgrid-"));
        QVERIFY(!QFileInfo::exists(QString::fromUtf8(fields[1])));
        QVERIFY(leftovers().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSimGridEngineCore)
#include "tst_simgridenginecore.moc"
