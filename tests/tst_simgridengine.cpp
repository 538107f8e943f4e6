// `simulate --engine simgrid`: without smpirun it says how to install SimGrid; with it (skipped
// when libsimgrid-dev is not installed) SimGrid's predicted run time, read from the Paje trace
// its replay wrote, equals the "Simulated time" smpirun printed, the kept Paje trace opens in
// every command, and specs SimGrid cannot model are refused by name; `scenario run` on a
// scenario with `engine: simgrid` compares both engines as the what-if panel does.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace rankscope::test;

namespace {

QString demo()
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR) +
           QStringLiteral("/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
}

QString spec(const char* name)
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR) + QStringLiteral("/resources/networks/") +
           QLatin1String(name) + QStringLiteral(".yaml");
}

bool haveSimGrid()
{
    return !QStandardPaths::findExecutable(QStringLiteral("smpirun")).isEmpty();
}

} // namespace

class TestSimGridEngine : public QObject
{
    Q_OBJECT

private slots:
    void withoutSmpirun()
    {
        QTemporaryDir empty;
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", empty.path().toUtf8());
        const CliResult r =
            runCli({"simulate", demo(), "--network", spec("ib-switch"), "--engine", "simgrid"});
        qputenv("PATH", path);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("smpirun") && r.err.contains("apt-get install libsimgrid-dev"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void unknownEngine()
    {
        const CliResult r =
            runCli({"simulate", demo(), "--network", spec("ib-switch"), "--engine", "dimemas"});
        QCOMPARE(r.exitCode, 2);
    }

    void bothEngines()
    {
        if (!haveSimGrid()) QSKIP("smpirun (libsimgrid-dev) not installed");
        QTemporaryDir dir;
        const QString keep = dir.filePath(QStringLiteral("sg"));
        const CliResult r = runCli({"simulate", demo(), "--network", spec("ib-switch"), "--engine",
                                    "simgrid", "--model", "flow", "--simgrid-dir", keep, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = jsonOf(r);
        const QJsonObject own = j.value(QLatin1String("rankscope")).toObject();
        const QJsonObject sg = j.value(QLatin1String("simgrid")).toObject();
        QCOMPARE(own.value(QLatin1String("model")).toString(), QStringLiteral("flow"));
        QVERIFY(own.value(QLatin1String("predicted_runtime_ns")).toDouble() > 0);
        // smpirun prints the simulated time with 6 significant digits; the Paje trace's end
        // (9 decimals) must round to it.
        const double ns = sg.value(QLatin1String("predicted_runtime_ns")).toDouble();
        const double reported = sg.value(QLatin1String("reported_seconds")).toDouble() * 1e9;
        QVERIFY2(std::abs(ns - reported) <= 1e-5 * reported,
                 qPrintable(QStringLiteral("%1 vs %2").arg(ns).arg(reported)));
        // The demo's three messages and its barrier's ranks (SimGrid's replay names the barrier
        // "kernel", so it is not taken for a collective).
        QCOMPARE(sg.value(QLatin1String("messages")).toInt(), 3);
        QCOMPARE(j.value(QLatin1String("exported")).toObject().value("ranks").toInt(), 4);
        const double difference = j.value(QLatin1String("difference_percent")).toDouble();
        const double own_ns = own.value(QLatin1String("predicted_runtime_ns")).toDouble();
        QVERIFY(std::abs(difference - 100.0 * (ns - own_ns) / own_ns) < 1e-6);
        // The kept Paje trace is a trace like any other.
        const QString paje = keep + QStringLiteral("/simgrid.paje");
        QVERIFY(QFileInfo::exists(paje));
        const CliResult info = runCli({"info", paje, "--json"});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        QCOMPARE(jsonOf(info).value(QLatin1String("ranks")).toInt(), 4);
    }

    void refusedSpecs()
    {
        if (!haveSimGrid()) QSKIP("smpirun (libsimgrid-dev) not installed");
        // fat-tree.yaml: node links 0.3 us, switch links 0.2 us; SimGrid's fat tree has one
        // link class.
        CliResult r =
            runCli({"simulate", demo(), "--network", spec("fat-tree"), "--engine", "simgrid"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("one link class"), r.err.constData());
        // The same fat tree with equal classes runs.
        r = runCli({"simulate", demo(), "--network", spec("fat-tree"), "--set",
                    "links.core.latency=0.3us", "--engine", "simgrid"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"simulate", demo(), "--network", spec("torus-3d"), "--engine", "simgrid"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("crossbar, fat-tree or clusters") && r.err.contains("torus"),
                 r.err.constData());
    }

    void scenarioWithSimGridEngine()
    {
        if (!haveSimGrid()) QSKIP("smpirun (libsimgrid-dev) not installed");
        // `scenario run` on a replay scenario with `engine: simgrid`: the GUI's run of it. The
        // ping-pong of tst_simgridenginecore on a crossbar whose links the scenario slows to
        // 2 us: rank 0's 800 bytes leave at 1000 and arrive at 1000 + 2 x 2000 + 100 = 5100,
        // rank 1 answers at 5300 with 1600 bytes, which arrive at 5300 + 4000 + 200 = 9500.
        QTemporaryDir dir;
        const auto write = [&dir](const char* name, const char* text) {
            QFile f(dir.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("pp-0.txt", "0 init\n0 compute 1000\n0 send 1 7 800\n0 recv 1 8 1600\n0 finalize\n");
        write("pp-1.txt", "1 init\n1 recv 0 7 800\n1 compute 200\n1 send 0 8 1600\n1 finalize\n");
        write("pp.ti", "pp-0.txt\npp-1.txt\n");
        write("xbar.yaml", "name: xbar\nnodes: 2\neager_limit: 64KiB\n"
                           "overhead: {send: 0ns, recv: 0ns}\n"
                           "links:\n  nic: {latency: 1us, bandwidth: 8GB/s}\n"
                           "networks:\n  main: {topology: crossbar, link: nic}\n");
        write("s.yaml", "name: slower\nbaselines: [pp.ti]\nnetwork: xbar.yaml\n"
                        "set: [links.nic.latency=2us]\nengine: simgrid\n");
        const CliResult r = runCli({"scenario", "run", dir.filePath("s.yaml"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = jsonOf(r);
        const QJsonObject engines = j.value("engines").toObject();
        const double own =
            engines.value("rankscope").toObject().value("predicted_runtime_ns").toDouble();
        QCOMPARE(own, 9500.0);
        const double sg =
            engines.value("simgrid").toObject().value("predicted_runtime_ns").toDouble();
        QVERIFY2(std::abs(sg - 9500.0) <= 95.0, qPrintable(QString::number(sg)));
        QCOMPARE(engines.value("difference_percent").toDouble(), 100.0 * (sg - own) / own);
        // Without smpirun: said, with how to install it.
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", dir.path().toUtf8());
        const CliResult missing = runCli({"scenario", "run", dir.filePath("s.yaml")});
        qputenv("PATH", path);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("apt-get install libsimgrid-dev"), missing.err.constData());
    }

    void clustersPlatform()
    {
        if (!haveSimGrid()) QSKIP("smpirun (libsimgrid-dev) not installed");
        // Two one-node clusters: a message crosses the sender's NIC (1 us, 8 GB/s), the
        // wide-area link (10 us, 1 GB/s) and the receiver's NIC: 12000 ns + bytes / 1.
        QTemporaryDir dir;
        const QString specPath = dir.filePath(QStringLiteral("wan.yaml"));
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name: wan\nnodes: 2\neager_limit: 64KiB\noverhead: {send: 0ns, recv: 0ns}\n"
                "links:\n  nic: {latency: 1us, bandwidth: 8GB/s}\n"
                "  wan: {latency: 10us, bandwidth: 1GB/s}\n"
                "networks:\n  grid: {topology: clusters, dims: [1, 1], link: nic, wan: wan}\n");
        f.close();
        const QString ti = testData(QStringLiteral("ti/pingpong.ti"));
        const QString keep = dir.filePath(QStringLiteral("sg"));
        // The platform SimGrid reads: a cluster per Rankscope cluster with its router, the
        // wide-area link between them, a route each way.
        const CliResult r = runCli({"simulate", ti, "--network", specPath, "--engine", "simgrid",
                                    "--simgrid-dir", keep, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile platform(keep + QStringLiteral("/platform.xml"));
        QVERIFY(platform.open(QIODevice::ReadOnly));
        const QByteArray xml = platform.readAll();
        QCOMPARE(xml.count("<cluster "), 2);
        QCOMPARE(xml.count("<zoneRoute "), 2);
        QVERIFY(xml.contains("radical=\"0-0\"") && xml.contains("radical=\"1-1\""));
        QVERIFY(xml.contains("<link id=\"wan-0-1\" bandwidth=\"1000000000Bps\" "
                             "latency=\"10000ns\""));
        // pingpong.ti on it (tst_tiimport derives the times on one switch): rank 0's 800 bytes
        // sent at 1000 arrive at 13800; rank 1 sends its 1600 bytes at 14000, they arrive at
        // 27600 where rank 0 enters the allreduce, whose 80 bytes reach rank 1 at 39680.
        const QJsonObject j = jsonOf(r);
        const double own = j.value("rankscope").toObject().value("predicted_runtime_ns").toDouble();
        QCOMPARE(own, 39680.0);
        const double sg = j.value("simgrid").toObject().value("predicted_runtime_ns").toDouble();
        QVERIFY2(std::abs(sg - own) <= 0.01 * own,
                 qPrintable(QStringLiteral("simgrid %1 ns, rankscope %2 ns").arg(sg).arg(own)));
        // A protocol table that adds latency: SMPI's latency factor would scale the routes
        // inside a cluster and across the wide area differently.
        QVERIFY(f.open(QIODevice::Append));
        f.write("protocol:\n  - {latency: 1us, bandwidth_factor: 1}\n");
        f.close();
        const CliResult refused =
            runCli({"simulate", ti, "--network", specPath, "--engine", "simgrid"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("routes of one latency"), refused.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSimGridEngine)
#include "tst_simgridengine.moc"
