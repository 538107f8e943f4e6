// The GUI and the command line answer a what-if question with one computation: `rankscope
// --batch FILE --json` runs the scenarios through the what-if panel's controller and job
// (offscreen), `rankscope-cli scenario run FILE --json` through the command line, and both must
// print the same numbers (relative difference below 1e-9; wall-clock times aside) for a scale
// prediction compared with a measured run, a latency edit, a sweep of five points and an
// extrapolation, all on traces this test generates.

#include "testsupport/clirunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using rankscope::test::CliResult;
using rankscope::test::runCli;
using rankscope::test::runProgram;

namespace {

/// Appends to `diffs` every place where `a` and `b` differ (numbers: relative 1e-9).
void compare(const QJsonValue& a, const QJsonValue& b, const QString& at, QStringList& diffs)
{
    if (at.contains(QLatin1String("wall")) || at.contains(QLatin1String("seconds"))) return;
    if (a.type() != b.type()) {
        diffs << at + QStringLiteral(": types differ");
        return;
    }
    if (a.isDouble()) {
        const double x = a.toDouble(), y = b.toDouble();
        const double scale = std::max(std::abs(x), std::abs(y));
        if (x != y && std::abs(x - y) > 1e-9 * scale)
            diffs << QStringLiteral("%1: %2 against %3")
                         .arg(at)
                         .arg(x, 0, 'g', 17)
                         .arg(y, 0, 'g', 17);
    } else if (a.isObject()) {
        const QJsonObject o = a.toObject(), p = b.toObject();
        if (o.keys() != p.keys()) diffs << at + QStringLiteral(": keys differ");
        for (const QString& k : o.keys())
            if (p.contains(k)) compare(o.value(k), p.value(k), at + '.' + k, diffs);
    } else if (a.isArray()) {
        const QJsonArray o = a.toArray(), p = b.toArray();
        if (o.size() != p.size()) diffs << at + QStringLiteral(": lengths differ");
        for (qsizetype i = 0; i < std::min(o.size(), p.size()); ++i)
            compare(o.at(i), p.at(i), at + QStringLiteral("[%1]").arg(i), diffs);
    } else if (a != b) {
        diffs << at + QStringLiteral(": '%1' against '%2'")
                          .arg(a.toVariant().toString(), b.toVariant().toString());
    }
}

} // namespace

class TestWhatIfParity : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        for (const char* n : {"16", "36", "64", "100"}) {
            const CliResult r =
                runCli({"generate", "--pattern", "stencil2d", "--ranks", n, "--iterations", "3",
                        "-q", "-o", dir_.filePath(QString("s") + n)});
            QCOMPARE(r.exitCode, 0);
        }
    }

    void batchEqualsCommandLine_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("kind");
        QTest::newRow("scale with measured")
            << QStringLiteral(
                   "name: scale 100\nkind: scale\nbaselines: [s16, s36, s64]\ncompare_with: s100\n"
                   "network: ib-switch\ntarget: 100\n")
            << "scale";
        QTest::newRow("latency edit")
            << QStringLiteral("name: latency\nkind: replay\nbaselines: [s64]\nnetwork: ib-switch\n"
                              "set: [links.hdr.latency=5us]\n")
            << "replay";
        QTest::newRow("sweep of 5")
            << QStringLiteral(
                   "name: sweep\nkind: replay\nbaselines: [s36]\nnetwork: ib-switch\n"
                   "sweep: {param: links.hdr.latency, values: [0.5us, 1us, 2us, 5us, 10us]}\n")
            << "replay";
        QTest::newRow("extrapolation")
            << QStringLiteral("name: extrapolation\nkind: extrapolate\nbaselines: [s16, s36, s64]\n"
                              "compare_with: s100\ntarget: 100\n")
            << "extrapolate";
    }

    void batchEqualsCommandLine()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, kind);
        const QString file = dir_.filePath(QStringLiteral("scenario.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(scenario.toUtf8());
        f.close();
        const CliResult cli = runCli({"scenario", "run", file, "--json"});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const CliResult gui =
            runProgram(QStringLiteral(RANKSCOPE_GUI),
                       {QStringLiteral("--batch"), file, QStringLiteral("--json")});
        QVERIFY2(gui.exitCode == 0, gui.err.constData());
        const QJsonDocument a = QJsonDocument::fromJson(cli.out);
        const QJsonDocument b = QJsonDocument::fromJson(gui.out);
        QVERIFY2(a.isObject(), cli.out.constData());
        QVERIFY2(b.isObject(), gui.out.constData());
        QCOMPARE(a.object().value("kind").toString(), kind);
        QStringList diffs;
        compare(a.object(), b.object(), QStringLiteral("$"), diffs);
        QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join('\n')));
        // Each answer is a real one, not two empty objects agreeing.
        const QJsonObject o = a.object();
        if (kind == QLatin1String("extrapolate")) {
            QVERIFY(o.value("predicted").toObject().value("max_rank_delta_sum_ns").toDouble() > 0);
            QVERIFY(o.value("measured_max_rank_delta_sum_ns").toDouble() > 0);
        } else {
            const QJsonArray runs = o.value("edited").toArray();
            QVERIFY(!runs.isEmpty());
            for (const QJsonValue& r : runs)
                QVERIFY(r.toObject().value("runtime_ns").toDouble() > 0);
            QVERIFY(o.value("measured").toObject().value("runtime_ns").toDouble() > 0);
        }
        if (scenario.contains("sweep")) QCOMPARE(o.value("edited").toArray().size(), 5);
        if (kind == QLatin1String("replay")) {
            // The edited replay is slower than the baseline by exactly effect_ns.
            const double base = o.value("baseline").toObject().value("runtime_ns").toDouble();
            for (const QJsonValue& r : o.value("edited").toArray()) {
                const QJsonObject e = r.toObject();
                QCOMPARE(e.value("effect_ns").toDouble(), e.value("runtime_ns").toDouble() - base);
            }
        }
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestWhatIfParity)
#include "tst_whatifparity.moc"
