// End-to-end tests of `rankscope-cli pop` and `scaling`: the real binary on checked-in traces,
// the JSON keys as the README documents them, the CSV header, and bad input and usage (exit
// codes 1 and 2, errors naming the file). The metrics' values are checked by tst_popmetrics
// (by hand) and tst_popotf2print (against otf2-print); here only what the command adds.

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <cmath>

namespace {

using rankscope::test::CliResult;
using rankscope::test::runCli;

QString trace(const char* name)
{
    return rankscope::test::checkedInTraceAnchor(QString::fromLatin1(name));
}

} // namespace

class TestCliPop : public QObject
{
    Q_OBJECT

private slots:
    void popJsonInRankOrder()
    {
        const CliResult r = runCli({"pop", "--json", trace("stencil2d-16"), trace("stencil2d-9")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("scaling").toString(), QString("strong"));
        QCOMPARE(o.value("partial").toBool(true), false);
        QCOMPARE(o.value("inputs").toArray().size(), 2);
        const QJsonArray runs = o.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).toObject().value("ranks").toInt(), 9);
        QCOMPARE(runs.at(1).toObject().value("ranks").toInt(), 16);
        QCOMPARE(runs.at(0).toObject().value("computation_scalability").toDouble(), 1.0);
        for (const auto& v : runs) {
            const QJsonObject m = v.toObject();
            for (const char* key :
                 {"trace", "span_ns", "ideal_span_ns", "load_balance", "communication_efficiency",
                  "parallel_efficiency", "serialisation_efficiency", "transfer_efficiency",
                  "computation_scalability", "global_efficiency"})
                QVERIFY2(m.contains(key), key);
            const double lb = m.value("load_balance").toDouble(),
                         comm = m.value("communication_efficiency").toDouble(),
                         ser = m.value("serialisation_efficiency").toDouble(),
                         te = m.value("transfer_efficiency").toDouble();
            QVERIFY(std::abs(m.value("parallel_efficiency").toDouble() - lb * comm) < 1e-9);
            QVERIFY(std::abs(comm - ser * te) < 1e-9);
            // No counters in these traces: absent, named in missing with a reason, never 0.
            QVERIFY(!m.contains("ipc") && !m.contains("ipc_scalability"));
            const QJsonArray missing = m.value("missing").toArray();
            QCOMPARE(missing.size(), 3);
            QCOMPARE(missing.at(0).toObject().value("metric").toString(), QString("ipc"));
            QVERIFY(!missing.at(0).toObject().value("reason").toString().isEmpty());
        }
    }

    void popCsvAndWeak()
    {
        CliResult r = runCli({"pop", "--csv", trace("stencil2d-9")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("trace,ranks,span_ns,ideal_span_ns,load_balance,"));
        QCOMPARE(r.out.count('\n'), 2);
        r = runCli({"pop", "--json", "--weak", trace("stencil2d-9"), trace("stencil2d-16")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(rankscope::test::jsonOf(r).value("scaling").toString(), QString("weak"));
    }

    void popBadInputAndUsage()
    {
        // Not one program: 18 % of the late-sender test's calls are at sites the stencil has.
        CliResult r =
            runCli({"pop", trace("stencil2d-9"), trace("casita-mpi-late-sender-barrier-4r")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is not a trace of the same program"), r.err.constData());
        QVERIFY2(r.err.contains("casita-mpi-late-sender-barrier-4r"), r.err.constData());
        r = runCli({"pop", "/nonexistent/traces.otf2"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent/traces.otf2"), r.err.constData());
        r = runCli({"pop", "--json", "--csv", trace("stencil2d-9")});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"pop"});
        QCOMPARE(r.exitCode, 2);
    }

    void scalingJson()
    {
        const QStringList traces = {trace("stencil2d-9"), trace("stencil2d-16"),
                                    trace("stencil2d-25")};
        CliResult r = runCli(QStringList{"scaling", "--json"} + traces);
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("order").toString(), QString("growth"));
        QCOMPARE(o.value("target").toDouble(), 50.0);
        const QJsonArray regions = o.value("regions").toArray();
        QVERIFY(!regions.isEmpty());
        // By growth, largest first.
        for (int k = 1; k < regions.size(); ++k)
            QVERIFY(regions.at(k - 1).toObject().value("growth").toDouble() >=
                    regions.at(k).toObject().value("growth").toDouble());
        const QJsonObject first = regions.at(0).toObject();
        QCOMPARE(first.value("points").toArray().size(), 3);
        QVERIFY(first.value("mean_fit").toObject().contains("prediction"));
        QVERIFY(!o.value("call_sites").toArray().isEmpty());
        QVERIFY(o.value("call_paths").toArray().size() >= regions.size());
        r = runCli(QStringList{"scaling", "--json", "--target", "64"} + traces);
        QCOMPARE(r.exitCode, 0);
        o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("order").toString(), QString("prediction"));
        QCOMPARE(o.value("target").toDouble(), 64.0);
        r = runCli({"scaling", trace("stencil2d-9")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("at least at 2 scales"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliPop)
#include "tst_clipop.moc"
