// End-to-end tests of `rankscope-cli simulate`, `sweep` and `collective`: the real binary on a
// generated trace and the shipped network specs.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using rankscope::test::CliResult;
using rankscope::test::jsonOf;
using rankscope::test::runCli;

namespace {

QString spec(const char* name)
{
    return rankscope::test::testData(QStringLiteral("../../resources/networks/") + name);
}

} // namespace

class TestCliSimulate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        trace_ = dir_.filePath("stencil");
        const CliResult r = runCli({"generate", "--pattern", "stencil2d", "--ranks", "16",
                                    "--iterations", "3", "-o", trace_});
        QCOMPARE(r.exitCode, 0);
    }

    void simulateJson()
    {
        const QString out = dir_.filePath("simulated");
        const CliResult r =
            runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--json", "-o", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.keys(),
                 (QStringList{"input_runtime_ns", "input_whole_run_ns", "inputs", "link_summary",
                              "links", "messages", "model", "partial", "per_rank",
                              "predicted_runtime_ns", "predicted_whole_run_ns", "span"}));
        // The generator's ranks all call MPI_Init and MPI_Finalize.
        QCOMPARE(o.value("span").toString(), "mpi_init_end_to_finalize_end");
        QCOMPARE(o.value("model").toString(), "loggp");
        QVERIFY(o.value("predicted_runtime_ns").toInteger() > 0);
        const QJsonArray ranks = o.value("per_rank").toArray();
        QCOMPARE(ranks.size(), 16);
        QCOMPARE(ranks.at(3).toObject().keys(),
                 (QStringList{"end_ns", "input_mpi_ns", "mpi_ns", "rank"}));
        // The simulated trace loads and analyses like any other.
        const CliResult info = runCli({"info", out, "--json"});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(jsonOf(info).value("ranks").toInt(), 16);
        QCOMPARE(jsonOf(info).value("unmatched_messages").toInt(), 0);
        QCOMPARE(runCli({"waitstates", out, "--json"}).exitCode, 0);
    }

    void deterministicAndCpuFactor()
    {
        const QStringList args{"simulate", trace_, "--network", spec("ib-switch.yaml"), "--json"};
        const CliResult a = runCli(args), b = runCli(args);
        QCOMPARE(a.out, b.out);
        const CliResult slow = runCli(args + QStringList{"--cpu-factor", "2"});
        QVERIFY(jsonOf(slow).value("predicted_runtime_ns").toInteger() >
                jsonOf(a).value("predicted_runtime_ns").toInteger());
    }

    void sweep()
    {
        const CliResult r = runCli({"sweep", trace_, "--network", spec("ib-switch.yaml"), "--param",
                                    "links.hdr.latency", "--values", "0.5us,50us,5ms", "--csv"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[1].startsWith("0.5us,"));
        QVERIFY(lines[3].startsWith("5ms,"));
        // More latency, longer run.
        QVERIFY(lines[3].split(',')[1].toLongLong() > lines[1].split(',')[1].toLongLong());
    }

    void collective()
    {
        const CliResult r =
            runCli({"collective", "--network", spec("ib-switch.yaml"), "--op", "bcast",
                    "--algorithm", "binomial", "--ranks", "16", "--bytes", "1MiB", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(jsonOf(r).value("time_ns").toInteger() > 0);
        QCOMPARE(jsonOf(r).value("messages").toInt(), 15);
    }

    void models()
    {
        // Every model replays the trace; contention can only make the run longer than LogGP's.
        const QStringList args{"simulate", trace_, "--network", spec("ib-switch.yaml"), "--json"};
        const qint64 loggp = jsonOf(runCli(args)).value("predicted_runtime_ns").toInteger();
        for (const char* model : {"packet", "flow"}) {
            const CliResult r = runCli(args + QStringList{"--model", model});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(jsonOf(r).value("model").toString(), QString(model));
            QVERIFY(jsonOf(r).value("predicted_runtime_ns").toInteger() >= loggp);
        }
        const CliResult cut =
            runCli(args + QStringList{"--model", "packet", "--set", "switching=cut_through"});
        QVERIFY2(cut.exitCode == 0, cut.err.constData());
        const CliResult bad = runCli(args + QStringList{"--model", "fluid"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains("this build has: loggp, packet, flow"));
    }

    void linkFigures()
    {
        // --json lists every link with exactly the documented keys; --links-csv has the same
        // rows. On the crossbar every message between nodes goes up one link and down one, so
        // the uplinks carried as many bytes as the downlinks; the summary's contention is the
        // links' summed.
        const QString csv = dir_.filePath("links.csv");
        const CliResult r = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"),
                                    "--model", "flow", "--json", "--links-csv", csv});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        const QJsonArray links = o.value("links").toArray();
        QCOMPARE(links.size(), 128); // 64 nodes, both directions
        qint64 up = 0, down = 0, contention = 0;
        for (const QJsonValue& v : links) {
            const QJsonObject l = v.toObject();
            QCOMPARE(l.keys(), (QStringList{"busy_ns", "bytes", "class", "contention_ns", "from",
                                            "name", "peak_utilisation", "to", "utilisation"}));
            QCOMPARE(l.value("class").toString(), QString("hdr"));
            (l.value("to").toString() == "switch" ? up : down) += l.value("bytes").toInteger();
            contention += l.value("contention_ns").toInteger();
            QVERIFY(l.value("utilisation").toDouble() <= l.value("peak_utilisation").toDouble());
            QVERIFY(l.value("peak_utilisation").toDouble() <= 1.0 + 1e-9);
        }
        QVERIFY(up > 0);
        QCOMPARE(up, down);
        const QJsonObject summary = o.value("link_summary").toObject();
        QVERIFY(qAbs(summary.value("contention_ns").toInteger() - contention) <= links.size());
        QCOMPARE(summary.value("hottest_links").toArray().size(), 5);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = f.readAll().trimmed().split('\n');
        QCOMPARE(rows.front(), QByteArray("name,class,from,to,bytes,busy_ns,utilisation,"
                                          "peak_utilisation,contention_ns"));
        QCOMPARE(rows.size(), links.size() + 1);
        const QList<QByteArray> first = rows.at(1).split(',');
        QCOMPARE(first.at(0), links.at(0).toObject().value("name").toString().toUtf8());
        QCOMPARE(first.at(4).toLongLong(), links.at(0).toObject().value("bytes").toInteger());
        // Without --json, --links-csv or -o nothing is collected or printed.
        const CliResult text = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml")});
        QVERIFY(!text.out.contains("contention"));
    }

    void gridCollective()
    {
        // Extended van de Geijn over the shipped two-cluster spec, n = 1 and 4 wide-area
        // streams: more streams, a shorter broadcast.
        QStringList args{"collective",
                         "--network",
                         spec("two-clusters-wan.yaml"),
                         "--op",
                         "bcast",
                         "--algorithm",
                         "extended_van_de_geijn",
                         "--ranks",
                         "64",
                         "--bytes",
                         "64MiB",
                         "--json",
                         "--set"};
        const CliResult one = runCli(args + QStringList{"wide_area_streams=1"});
        const CliResult four = runCli(args + QStringList{"wide_area_streams=4"});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QVERIFY2(four.exitCode == 0, four.err.constData());
        QVERIFY(jsonOf(four).value("time_ns").toInteger() <
                jsonOf(one).value("time_ns").toInteger());
    }

    void bundledNames()
    {
        // Every command that takes a spec takes a bundled one by name, and it is that file.
        const CliResult byFile =
            runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--json"});
        for (const char* name : {"ib-switch", "ib-switch.yaml"}) {
            const CliResult byName = runCli({"simulate", trace_, "--network", name, "--json"});
            QVERIFY2(byName.exitCode == 0, byName.err.constData());
            QCOMPARE(jsonOf(byName).value("predicted_runtime_ns"),
                     jsonOf(byFile).value("predicted_runtime_ns"));
        }
        const CliResult sweep = runCli({"sweep", trace_, "--network", "ib-switch", "--param",
                                        "links.hdr.latency", "--values", "0.5us", "--csv"});
        QVERIFY2(sweep.exitCode == 0, sweep.err.constData());
        const CliResult coll =
            runCli({"collective", "--network", "two-clusters-wan", "--op", "bcast", "--algorithm",
                    "binomial", "--ranks", "8", "--bytes", "1KiB"});
        QVERIFY2(coll.exitCode == 0, coll.err.constData());
        const CliResult cal = runCli({"calibrate", trace_, "--network", "ib-switch", "--json"});
        QVERIFY2(cal.exitCode == 0, cal.err.constData());
        const QJsonObject c = jsonOf(cal);
        for (const char* key : {"parameters", "replay_error_before_pct", "replay_error_after_pct"})
            QVERIFY2(c.contains(key), key);
        const QJsonObject first = c.value("parameters").toArray().at(0).toObject();
        for (const char* key : {"key", "before", "after", "determined"})
            QVERIFY2(first.contains(key), key);
        // The placement comes first: it decides which link class each message used.
        QCOMPARE(first.value("key").toString(), "mapping");
        QCOMPARE(c.value("parameters").toArray().at(1).toObject().value("key").toString(),
                 "eager_limit");
        // An unknown name says where it looked.
        const CliResult missing = runCli({"simulate", trace_, "--network", "no-such-net"});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("network spec 'no-such-net' not found"));
        QVERIFY(missing.err.contains("bundled spec"));
    }

    void badInput()
    {
        // A bad spec value: exit 1, the message names file, line and key.
        CliResult r = runCli({"simulate", trace_, "--network",
                              rankscope::test::testData("networks/negative-latency.yaml")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("negative-latency.yaml:5: links.nic.latency: expected a time >= 0"),
                 r.err.constData());
        r = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--set",
                    "links.hdr.latency=fast"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("--set links.hdr.latency"));
        r = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--collective",
                    "bcast=fastest"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("unknown algorithm 'fastest'"));
        r = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--set", "nodes"});
        QCOMPARE(r.exitCode, 2);
        // 16 ranks do not fit on 8 nodes.
        r = runCli({"simulate", trace_, "--network", spec("ib-switch.yaml"), "--set", "nodes=8"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("too small"));
        r = runCli({"collective", "--network", spec("ib-switch.yaml"), "--op", "bcast",
                    "--algorithm", "binomial", "--ranks", "4", "--bytes", "lots"});
        QCOMPARE(r.exitCode, 2);
    }

private:
    QTemporaryDir dir_;
    QString trace_;
};

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "tst_clisimulate.moc"
