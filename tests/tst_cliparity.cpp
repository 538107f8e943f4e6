// `rankscope-cli compare` and `rankscope-cli scenario run` on hand-built traces written as
// OTF2, against figures worked out by hand from the traces' timestamps.

#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/handworld.h"
#include "testsupport/twonodespec.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;
using rankscope::test::CliResult;
using rankscope::test::jsonOf;
using rankscope::test::runCli;

namespace {

using World = test::HandWorld;

/// The span test's trace: MPI_Init ends 0.7 ms apart (tst_simulationspan.cpp).
/// Rank 0: Init [0,100], Send 8 bytes [1100,1150], Finalize [2000,2100];
/// rank 1: Init [0,700000], Recv [700100,700250], Finalize [701000,701050].
Trace staggered()
{
    World w(2);
    w.call(0, "MPI_Init", 0, 100);
    w.send(0, 1100, 1150, 1);
    w.call(0, "MPI_Finalize", 2000, 2100);
    w.call(1, "MPI_Init", 0, 700000);
    const RegionId f = w.h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    w.h.enter(w.loc[1], 700100, f);
    w.h.builder().recv(w.loc[1], 700200, 0, w.world, 0, 8);
    w.h.leave(w.loc[1], 700250, f);
    w.call(1, "MPI_Finalize", 701000, 701050);
    return w.h.finish();
}

constexpr const char* kSpec = test::kTwoNodeSpec;

void writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QJsonObject row(const QJsonObject& o, const QString& key)
{
    for (const QJsonValue& v : o.value("rows").toArray())
        if (v.toObject().value("key").toString() == key) return v.toObject();
    return {};
}

} // namespace

class TestCliParity : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        writeOtf2(test::comparedRunA(8), dir_.filePath("a").toStdString());
        writeOtf2(test::comparedRunB(8), dir_.filePath("b").toStdString());
        writeOtf2(staggered(), dir_.filePath("staggered").toStdString());
        writeText(dir_.filePath("two.yaml"), kSpec);
        // A generated 2-D stencil at 4, 8 and 16 ranks: the inputs of the scale scenarios.
        for (uint32_t n : {4u, 8u, 16u}) {
            GeneratorOptions g;
            g.pattern = "stencil2d";
            g.ranks = n;
            g.iterations = 5;
            writeOtf2(generateTrace(g), dir_.filePath(QString("s%1").arg(n)).toStdString());
        }
    }

    void compareJson()
    {
        const CliResult r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("span_a").toString(), "mpi_init_end_to_finalize_end");
        const QJsonArray rows = o.value("rows").toArray();
        QStringList keys;
        for (const QJsonValue& v : rows)
            keys << v.toObject().value("key").toString();
        QCOMPARE(keys, (QStringList{"run", "mpi", "computation", "wait", "wait_late_sender",
                                    "wait_wait_at_barrier"}));
        // Run time from the end of MPI_Init (10) to the end of MPI_Finalize: 310 and 410.
        QCOMPARE(row(o, "run").value("a_ns").toDouble(), 300.0);
        QCOMPARE(row(o, "run").value("b_ns").toDouble(), 400.0);
        QCOMPARE(row(o, "run").value("difference_ns").toDouble(), 100.0);
        QCOMPARE(row(o, "run").value("difference_pct").toDouble(), 100.0 * 100 / 300);
        // MPI after MPI_Init: A 10 + 10 (rank 0) + 70 + 10 (rank 1) = 100;
        // B 10 + 60 + 10, 170 + 20 + 10, 10 + 10 = 300.
        QCOMPARE(row(o, "mpi").value("a_ns").toDouble(), 100.0);
        QCOMPARE(row(o, "mpi").value("b_ns").toDouble(), 300.0);
        QCOMPARE(row(o, "mpi").value("difference_pct").toDouble(), 200.0);
        // Delta times: A 90 + 190 + 40 + 180 = 500; B 190 + 90 + 40 + 40 + 120 + 40 + 340 + 40.
        QCOMPARE(row(o, "computation").value("a_ns").toDouble(), 500.0);
        QCOMPARE(row(o, "computation").value("b_ns").toDouble(), 900.0);
        // Late sender: A 100 - 50; B 200 - 50. Barrier: the last enters at 350: 50 + 10 + 0.
        QCOMPARE(row(o, "wait").value("a_ns").toDouble(), 50.0);
        QCOMPARE(row(o, "wait").value("b_ns").toDouble(), 210.0);
        QCOMPARE(row(o, "wait_late_sender").value("b_ns").toDouble(), 150.0);
        QCOMPARE(row(o, "wait_wait_at_barrier").value("a_ns").toDouble(), 0.0);
        QCOMPARE(row(o, "wait_wait_at_barrier").value("b_ns").toDouble(), 60.0);
        QVERIFY(row(o, "wait_wait_at_barrier").value("difference_pct").isNull());
        // The text form has the same rows.
        const CliResult text = runCli({"compare", dir_.filePath("a"), dir_.filePath("b")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Wait: Wait at Barrier"));
    }

    /// `compare --histogram`: the Delta times pane's histograms. Delta times by hand (handworld.h):
    /// A rank 0: 10 -> 100 = 90, 110 -> 300 = 190; rank 1: 10 -> 50 = 40, 120 -> 300 = 180.
    /// B rank 0: 190, 90, 40; rank 1: 40, 120, 40; rank 2: 10 -> 350 = 340, 40.
    void compareHistogram()
    {
        const auto bins = [](const QJsonObject& h) {
            QList<int> counts;
            for (const QJsonValue& b : h.value("bins").toArray())
                counts << b.toObject().value("count").toInt();
            return counts;
        };
        CliResult r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram",
                              "--bins", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject h = jsonOf(r).value("histogram").toObject();
        QVERIFY(h.value("interval").isNull());
        QVERIFY(h.value("rank").isNull());
        QJsonObject a = h.value("a").toObject();
        QCOMPARE(a.value("count").toInt(), 4);
        QCOMPARE(a.value("mean_ns").toDouble(), 125.0); // 500 / 4
        QCOMPARE(a.value("min_ns").toDouble(), 40.0);
        QCOMPARE(a.value("max_ns").toDouble(), 190.0);
        QCOMPARE(bins(a), (QList<int>{2, 2})); // [40, 115): 90, 40; [115, 190]: 190, 180
        QCOMPARE(a.value("bins").toArray().at(0).toObject().value("upper_ns").toDouble(), 115.0);

        r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram", "--bins", "3",
                    "--json"});
        QJsonObject b = jsonOf(r).value("histogram").toObject().value("b").toObject();
        QCOMPARE(b.value("count").toInt(), 8);
        QCOMPARE(b.value("mean_ns").toDouble(), 112.5); // 900 / 8
        QCOMPARE(bins(b), (QList<int>{6, 1, 1}));       // edges 40, 140, 240, 340

        // One interval on one rank: A rank 0 has 90, B rank 0 190; rank 2 is beyond A's ranks
        // and never sends in B.
        const QString initToSend = "MPI_Init - MPI_Send";
        r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram", "--interval",
                    initToSend, "--rank", "0", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        h = jsonOf(r).value("histogram").toObject();
        QCOMPARE(h.value("interval").toString(), initToSend);
        QCOMPARE(h.value("rank").toInt(), 0);
        QCOMPARE(h.value("a").toObject().value("count").toInt(), 1);
        QCOMPARE(h.value("a").toObject().value("mean_ns").toDouble(), 90.0);
        QCOMPARE(h.value("b").toObject().value("mean_ns").toDouble(), 190.0);
        r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram", "--interval",
                    initToSend, "--rank", "2", "--json"});
        h = jsonOf(r).value("histogram").toObject();
        QVERIFY(h.value("a").isNull());
        QCOMPARE(h.value("b").toObject().value("count").toInt(), 0);

        // Bad usage: a selection without --histogram, an interval neither run has.
        r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--rank", "0"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--histogram"));
        r = runCli({"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram", "--interval",
                    "MPI_Foo - MPI_Bar"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("MPI_Foo - MPI_Bar"));
        r = runCli(
            {"compare", dir_.filePath("a"), dir_.filePath("b"), "--histogram", "--bins", "0"});
        QCOMPARE(r.exitCode, 2);
    }

    void scenarioRunJson()
    {
        writeText(dir_.filePath("latency.yaml"), "name: latency x2\n"
                                                 "kind: replay\n"
                                                 "baselines: [staggered]\n"
                                                 "network: two.yaml\n"
                                                 "set: [links.l.latency=2us]\n");
        const CliResult r = runCli({"scenario", "run", dir_.filePath("latency.yaml"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("name").toString(), "latency x2");
        // Measured: 700000 .. 701050; MPI after MPI_Init 150 + 200.
        QCOMPARE(o.value("measured").toObject().value("runtime_ns").toInteger(), 1050);
        QCOMPARE(o.value("measured").toObject().value("mpi_ns").toInteger(), 350);
        // Baseline (tst_simulationspan): the message arrives 2 x 1000 + 1 after 701000, rank 1
        // enters MPI_Finalize at 703751, the last entry; rank 1 leaves it 50 later (as
        // measured after the last entry), rank 0 at once (it measured none): 3801. MPI: rank 0
        // waits in MPI_Finalize 703751 - 701850 = 1901; rank 1 2901 in MPI_Recv + 50.
        QCOMPARE(o.value("baseline").toObject().value("runtime_ns").toInteger(), 3801);
        QCOMPARE(o.value("baseline").toObject().value("mpi_ns").toInteger(), 1901 + 2951);
        QCOMPARE(o.value("calibration_error_pct").toDouble(), 100.0 * (3801 - 1050) / 1050);
        // Edited, 2 us per link: the message arrives 2000 later, so does everything after it.
        const QJsonObject e = o.value("edited").toArray().at(0).toObject();
        QCOMPARE(e.value("runtime_ns").toInteger(), 5801);
        QCOMPARE(e.value("effect_ns").toInteger(), 2000);
        QCOMPARE(e.value("effect_pct").toDouble(), 100.0 * 2000 / 3801);
        QCOMPARE(e.value("mpi_effect_ns").toInteger(), 4000);
        // Text: the effect reads as slower.
        const CliResult text = runCli({"scenario", "run", dir_.filePath("latency.yaml")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("effect +2.000 us"), text.out.constData());
        QVERIFY(text.out.contains("slower"));
    }

    void calibratedBaseline()
    {
        // baseline_set makes the baseline spec (2 us per link: the message arrives at 705001,
        // rank 1 enters MPI_Finalize at 705751 and leaves at 705801: 5801); the edit back to
        // 1 us gives the span test's 3801, 2000 faster.
        writeText(dir_.filePath("calibrated.yaml"), "name: calibrated\n"
                                                    "kind: replay\n"
                                                    "baselines: [staggered]\n"
                                                    "network: two.yaml\n"
                                                    "baseline_set: [links.l.latency=2us]\n"
                                                    "set: [links.l.latency=1us]\n");
        const CliResult r = runCli({"scenario", "run", dir_.filePath("calibrated.yaml"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("baseline").toObject().value("runtime_ns").toInteger(), 5801);
        const QJsonObject e = o.value("edited").toArray().at(0).toObject();
        QCOMPARE(e.value("runtime_ns").toInteger(), 3801);
        QCOMPARE(e.value("effect_ns").toInteger(), -2000);
    }

    void scenarioSweepAndBadInput()
    {
        writeText(dir_.filePath("sweep.yaml"), "scenarios:\n"
                                               "  - name: sweep\n"
                                               "    kind: replay\n"
                                               "    baselines: [staggered]\n"
                                               "    network: two.yaml\n"
                                               "    sweep: {param: links.l.latency, "
                                               "values: [1us, 0.5us]}\n");
        const CliResult r = runCli({"scenario", "run", dir_.filePath("sweep.yaml"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray runs = jsonOf(r).value("edited").toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).toObject().value("effect_ns").toInteger(), 0); // the spec's value
        QCOMPARE(runs.at(1).toObject().value("effect_ns").toInteger(), -1000);

        // Scale scenarios are skipped with a note; a file of nothing else is an error.
        // calibrate: off, as `predict --network` (a named spec) replays on it as it is; a scale
        // scenario calibrates to its largest input by default, as `predict` does without one.
        const QByteArray scale = "  - name: bigger\n"
                                 "    kind: scale\n"
                                 "    baselines: [s4, s8, s16]\n"
                                 "    network: two.yaml\n"
                                 "    calibrate: \"off\"\n"
                                 "    target: 64\n";
        writeText(dir_.filePath("mixed.yaml"), "scenarios:\n" + scale +
                                                   "  - name: replay\n"
                                                   "    kind: replay\n"
                                                   "    baselines: [staggered]\n"
                                                   "    network: two.yaml\n");
        const CliResult mixed = runCli({"scenario", "run", dir_.filePath("mixed.yaml")});
        QVERIFY2(mixed.exitCode == 0, mixed.err.constData());
        QVERIFY(mixed.out.contains("scenario: bigger"));
        QVERIFY(mixed.out.contains("at 64 ranks"));
        QVERIFY(mixed.out.contains("scenario: replay"));
        // A scale scenario runs what `predict` runs: the same trace, the same run time.
        writeText(dir_.filePath("scale.yaml"), "scenarios:\n" + scale);
        const CliResult only = runCli({"scenario", "run", dir_.filePath("scale.yaml"), "--json"});
        QVERIFY2(only.exitCode == 0, only.err.constData());
        const QJsonObject so = jsonOf(only);
        const CliResult predicted =
            runCli({"predict", dir_.filePath("s4"), dir_.filePath("s8"), dir_.filePath("s16"),
                    "--target", "64", "--network", dir_.filePath("two.yaml"), "--json"});
        QVERIFY2(predicted.exitCode == 0, predicted.err.constData());
        const QJsonObject po = jsonOf(predicted);
        QCOMPARE(so.value("kind").toString(), "scale");
        QCOMPARE(so.value("ranks").toInteger(), 64);
        QVERIFY(so.value("predicted_runtime_ns").toInteger() > 0);
        QCOMPARE(so.value("predicted_runtime_ns").toInteger(),
                 po.value("predicted_runtime_ns").toInteger());
        QCOMPARE(so.value("events").toInteger(), po.value("events").toInteger());
        // A sweep of the target: one run per value, each as `predict` at that target.
        writeText(dir_.filePath("sweep-scale.yaml"),
                  "name: grow\nkind: scale\nbaselines: [s4, s8, s16]\nnetwork: two.yaml\n"
                  "calibrate: \"off\"\ntarget: 64\nsweep: {param: target, values: [32, 64]}\n");
        const CliResult sw =
            runCli({"scenario", "run", dir_.filePath("sweep-scale.yaml"), "--json"});
        QVERIFY2(sw.exitCode == 0, sw.err.constData());
        const QJsonObject swo = jsonOf(sw);
        QCOMPARE(swo.value("sweep_param").toString(), "target");
        const QJsonArray points = swo.value("runs").toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[0].toObject().value("ranks").toInteger(), 32);
        QCOMPARE(points[0].toObject().value("value").toString(), "32");
        QCOMPARE(points[1].toObject().value("ranks").toInteger(), 64);
        QCOMPARE(points[1].toObject().value("predicted_runtime_ns").toInteger(),
                 po.value("predicted_runtime_ns").toInteger());
        // Its inputs missing: exit 1 naming the file.
        writeText(dir_.filePath("gone.yaml"), "name: gone\nkind: scale\nbaselines: [n4, n8, n16]\n"
                                              "network: two.yaml\ntarget: 64\n");
        const CliResult gone = runCli({"scenario", "run", dir_.filePath("gone.yaml")});
        QCOMPARE(gone.exitCode, 1);
        QVERIFY2(gone.err.contains("n4"), gone.err.constData());

        writeText(dir_.filePath("bad.yaml"), "name: bad\nkind: replay\nbaselines: [staggered]\n"
                                             "network: two.yaml\nset: [links.l.latency=fast]\n");
        const CliResult bad = runCli({"scenario", "run", dir_.filePath("bad.yaml")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("links.l.latency"), bad.err.constData());
        writeText(dir_.filePath("typo.yaml"), "name: typo\nkind: replay\nbaselines: [x]\n"
                                              "network: two.yaml\nnetwrok: x\n");
        const CliResult typo = runCli({"scenario", "run", dir_.filePath("typo.yaml")});
        QCOMPARE(typo.exitCode, 1);
        QVERIFY2(typo.err.contains("typo.yaml"), typo.err.constData());

        // A network name longer than any file name (NAME_MAX is 255 on Linux): not a file,
        // not a bundled spec, an error that names it rather than an abort.
        const std::string longName(300, 'n');
        writeText(dir_.filePath("long.yaml"),
                  QByteArray("name: long\nkind: replay\nbaselines: [staggered]\nnetwork: ") +
                      QByteArray::fromStdString(longName) + "\n");
        const CliResult longer = runCli({"scenario", "run", dir_.filePath("long.yaml")});
        QCOMPARE(longer.exitCode, 1);
        QVERIFY2(longer.err.contains("nnnnnnnnnn"), longer.err.constData());
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliParity)
#include "tst_cliparity.moc"
