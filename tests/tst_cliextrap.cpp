// End-to-end tests of `rankscope-cli fit` and `extrapolate`: the real binary on hand-made
// series and on generated traces, JSON keys as the command documents them, and bad input.

#include "testsupport/clirunner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using rankscope::test::CliResult;
using rankscope::test::runCli;

} // namespace

class TestCliExtrap : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // stencil2d with intervals scaling as constant, 1/n and n (see tst_extrapolation).
        for (const char* n : {"16", "36", "64", "144"}) {
            const CliResult r =
                runCli({"generate", "--pattern", "stencil2d", "--ranks", n, "--iterations", "5",
                        "--region", "pack=200e3:constant", "--region", "interior=3.2e8:1/n",
                        "--region", "unpack=2e3:n", "--region", "boundary=50e3:constant", "-q",
                        "-o", dir_.filePath(QString("s") + n)});
            QCOMPARE(r.exitCode, 0);
        }
    }

    void fitClassicJson()
    {
        // t = 12 / n at 2, 3, 4, 6: inverse (d3 = 0) wins its tie with inverse_constant; at 24:
        // 0.5.
        const CliResult r =
            runCli({"fit", "--method", "classic", "--point", "2:6", "--point", "3:4", "--point",
                    "4:3", "--point", "6:2", "--target", "24", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("chosen").toString(), QString("inverse"));
        QCOMPARE(o.value("prediction").toDouble(), 0.5);
        const QJsonArray models = o.value("models").toArray();
        QCOMPARE(models.size(), 4);
        QStringList names;
        for (const auto& m : models)
            names << m.toObject().value("name").toString();
        QCOMPARE(names, (QStringList{"constant", "linear", "inverse", "inverse_constant"}));
        QCOMPARE(models.at(2).toObject().value("d").toDouble(), 0.0);
    }

    void fitRankscopeAndProblemSize()
    {
        // t = 5 n: linear; at 64: 320.
        CliResult r = runCli({"fit", "--point", "4:20", "--point", "8:40", "--point", "16:80",
                              "--point", "32:160", "--target", "64", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(rankscope::test::jsonOf(r).value("chosen").toString(), QString("linear"));
        QVERIFY(qAbs(rankscope::test::jsonOf(r).value("prediction").toDouble() - 320) < 1e-6);
        // t = 1 + n s on (n, s) in {2, 4, 8} x {1, 2, 4}: at (16, 8): 129.
        QStringList args = {"fit"};
        for (int n : {2, 4, 8})
            for (int s : {1, 2, 4})
                args << "--point" << QString("%1,%2:%3").arg(n).arg(s).arg(1 + n * s);
        args << "--target"
             << "16,8"
             << "--json";
        r = runCli(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(qAbs(rankscope::test::jsonOf(r).value("prediction").toDouble() - 129) < 1e-6);
    }

    void fitBadInput()
    {
        QCOMPARE(runCli({"fit", "--point", "2:1", "--point", "4:2", "--target", "8"}).exitCode, 1);
        QCOMPARE(runCli({"fit", "--point", "2:x", "--target", "8"}).exitCode, 2);
        QCOMPARE(runCli({"fit", "--point", "2:1", "--target", "-8"}).exitCode, 2);
    }

    void fitOverflowRefused()
    {
        // Squares of 1e308 overflow a double: the fit is refused naming the point, not printed
        // empty.
        const CliResult r = runCli({"fit", "--point", "4:1e308", "--point", "8:1e308", "--point",
                                    "16:1e308", "--target", "64"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("4:1e+308") && r.err.contains("too large"), qPrintable(r.err));
        const CliResult c = runCli({"fit", "--method", "classic", "--point", "4:1e308", "--point",
                                    "8:1e308", "--point", "16:1e308", "--target", "64"});
        QCOMPARE(c.exitCode, 1);
    }

    void fitAtOneScaleSaysSo()
    {
        // Three samples, all at 4 ranks: the message counts the distinct scales, not the samples.
        for (const char* method : {"rankscope", "classic"}) {
            const CliResult r = runCli({"fit", "--method", method, "--point", "4:1", "--point",
                                        "4:2", "--point", "4:3", "--target", "8"});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("got 3 samples at 1 distinct scales"), r.err.constData());
        }
    }

    void autoIsTheDefault()
    {
        const CliResult r =
            runCli({"extrapolate", "--target", "144", "--measured", dir_.filePath("s144"), "--json",
                    dir_.filePath("s16"), dir_.filePath("s36"), dir_.filePath("s64")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("interval_method").toString(), QString("model_spread_and_noise"));
        const QString chosen = o.value("method_chosen").toString();
        QVERIFY(chosen == "classic" || chosen == "rankscope");
        QCOMPARE(o.value("method").toString(), chosen);
        // Why: the chosen method first, then the held-out errors compared with the noise.
        const QString why = o.value("auto_reason").toString();
        QVERIFY2(why.startsWith(chosen) && why.contains("noise"), qPrintable(why));
        const QJsonArray candidates = o.value("candidates").toArray();
        QCOMPARE(candidates.size(), 3);
        QStringList seen;
        for (const auto& c : candidates) {
            const QJsonObject x = c.toObject();
            seen << x.value("method").toString() + " " + x.value("mode").toString();
            QVERIFY(x.value("held_out_error_pct").isDouble());
            QVERIFY(x.value("low").toDouble() <= x.value("predicted").toDouble());
            QVERIFY(x.value("predicted").toDouble() <= x.value("high").toDouble());
        }
        seen.sort();
        QCOMPARE(seen, (QStringList{"classic interval", "classic sum", "rankscope interval"}));
        // The winner is listed first, with the result's own figures and the lowest error among
        // the methods it was not tied with.
        const QJsonObject first = candidates.at(0).toObject();
        QCOMPARE(first.value("method").toString(), chosen);
        QCOMPARE(first.value("predicted").toDouble(),
                 o.value("max_rank_delta_sum_ns").toObject().value("predicted").toDouble());
        QVERIFY(o.value("max_rank_delta_sum_ns").toObject().value("in_interval").isBool());
    }

    void extrapolateJson()
    {
        const CliResult r =
            runCli({"extrapolate", "--method", "classic", "--target", "144", "--measured",
                    dir_.filePath("s144"), "--json", dir_.filePath("s16"), dir_.filePath("s36"),
                    dir_.filePath("s64")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = rankscope::test::jsonOf(r);
        QCOMPARE(o.value("target").toInt(), 144);
        QCOMPARE(o.value("mode").toString(), QString("sum"));
        const QJsonObject max = o.value("max_rank_delta_sum_ns").toObject();
        QVERIFY(max.contains("predicted") && max.contains("measured") &&
                max.contains("accuracy_pct"));
        QVERIFY(o.value("w1_normalized").isDouble());
        const QJsonArray intervals = o.value("intervals").toArray();
        QVERIFY(!intervals.isEmpty());
        for (const auto& i : intervals) {
            const QJsonObject x = i.toObject();
            QVERIFY(x.value("name").isString() && x.value("model").isString());
            QVERIFY(x.value("predicted_mean_ns").isDouble() &&
                    x.value("measured_mean_ns").isDouble());
        }
        QVERIFY(!r.out.contains("nan") && !r.out.contains("NaN"));
    }

    void compare()
    {
        const CliResult r = runCli({"extrapolate", "--compare", "--target", "144", "--measured",
                                    dir_.filePath("s144"), dir_.filePath("s16"),
                                    dir_.filePath("s36"), dir_.filePath("s64")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("classic (sum)"));
        QVERIFY(r.out.contains("rankscope (interval)"));
        QVERIFY(r.out.contains("accuracy"));
    }

    void extrapolateBadInput()
    {
        const QString a = dir_.filePath("s16"), b = dir_.filePath("s36"), c = dir_.filePath("s64");
        const CliResult two = runCli({"extrapolate", "--target", "100", a, b});
        QCOMPARE(two.exitCode, 1);
        QVERIFY2(two.err.contains("3 distinct scales"), qPrintable(two.err));
        QCOMPARE(runCli({"extrapolate", "--target", "0", a, b, c}).exitCode, 2);
        QCOMPARE(runCli({"extrapolate", "--target", "100", "--bins", "0", a, b, c}).exitCode, 2);
        QCOMPARE(runCli({"extrapolate", "--method", "rankscope", "--target", "100", "--mode", "sum",
                         a, b, c})
                     .exitCode,
                 2);
        // A target that is not above the largest input names that input.
        const CliResult low = runCli({"extrapolate", "--target", "64", a, b, c});
        QCOMPARE(low.exitCode, 1);
        QVERIFY2(low.err.contains("not above the largest input") && low.err.contains("s64"),
                 qPrintable(low.err));
        const CliResult huge = runCli({"extrapolate", "--target", "16777217", a, b, c});
        QCOMPARE(huge.exitCode, 1);
        QVERIFY2(huge.err.contains("2^24"), qPrintable(huge.err));
        // A measured run at an input's scale.
        const CliResult measured =
            runCli({"extrapolate", "--target", "144", "--measured", c, a, b, c});
        QCOMPARE(measured.exitCode, 1);
        QVERIFY2(measured.err.contains("not at the target scale"), qPrintable(measured.err));
        const CliResult same = runCli({"extrapolate", "--target", "100", a, b, a});
        QCOMPARE(same.exitCode, 1);
        QVERIFY(same.err.contains("same scale"));
        const CliResult missing =
            runCli({"extrapolate", "--target", "100", a, b, dir_.filePath("nope")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("nope"));
    }

private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliExtrap)
#include "tst_cliextrap.moc"
