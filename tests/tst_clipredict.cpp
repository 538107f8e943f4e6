// End-to-end tests of `rankscope-cli predict`: the real binary on generated traces, the JSON
// keys the command documents, the predicted trace written as OTF2, refusals and bad input.

#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <set>

using rankscope::test::CliResult;
using rankscope::test::jsonOf;
using rankscope::test::runCli;

namespace {

/// A ring (rank r sends to r+1 mod n) in which two ranks, chosen by n, swap their targets: still
/// a permutation, so every message is received, but no rule gives every rank its partner.
rankscope::Trace irregular(uint32_t n)
{
    using namespace rankscope;
    std::vector<uint32_t> to(n);
    for (uint32_t r = 0; r < n; ++r)
        to[r] = (r + 1) % n;
    // Swap the targets of two ranks that depend on n: a permutation still, but no pattern.
    std::swap(to[0], to[n / 2 + n % 3]);
    std::vector<uint32_t> from(n);
    for (uint32_t r = 0; r < n; ++r)
        from[to[r]] = r;
    test::MpiWorld w(n);
    test::HandTrace& h = w.h;
    const RegionId send = h.mpi("MPI_Sendrecv", RegionRole::MpiPointToPoint);
    const std::vector<LocationId>& locs = w.locs;
    const CommId world = w.world;
    for (uint32_t r = 0; r < n; ++r) {
        const LocationId l = locs[r];
        w.begin(l);
        int64_t t = 100;
        for (int it = 0; it < 3; ++it, t += 1000) {
            h.enter(l, t, send);
            h.builder().send(l, t + 1, to[r], world, 0, 128);
            h.builder().recv(l, t + 5, from[r], world, 0, 128);
            h.leave(l, t + 6, send);
        }
        w.end(l, t + 10, t + 30);
    }
    return h.finish();
}

} // namespace

class TestCliPredict : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        for (const char* n : {"16", "36", "64"}) {
            const CliResult r =
                runCli({"generate", "--pattern", "stencil2d", "--ranks", n, "--iterations", "3",
                        "-q", "-o", dir_.filePath(QString("s") + n)});
            QCOMPARE(r.exitCode, 0);
        }
        const CliResult a = runCli({"generate", "--pattern", "alltoall", "--ranks", "8",
                                    "--iterations", "3", "-q", "-o", dir_.filePath("a8")});
        QCOMPARE(a.exitCode, 0);
        for (uint32_t n : {8u, 12u, 16u})
            rankscope::writeOtf2(irregular(n),
                                 dir_.filePath(QString("irr%1").arg(n)).toStdString());
    }

    void predictJson()
    {
        const QString out = dir_.filePath("predicted");
        const CliResult r = runCli({"predict", "--target", "100", "--json", "-o", out, stencil(16),
                                    stencil(36), stencil(64)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        for (const char* key : {"target", "ranks", "events", "predicted_runtime_ns", "refused",
                                "method", "seed", "placement", "roles", "network", "model"})
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o.value("target").toInt(), 100);
        QCOMPARE(o.value("ranks").toInt(), 100);
        QCOMPARE(o.value("refused").toArray().size(), 0);
        QCOMPARE(o.value("method").toString(), "rankscope");
        QCOMPARE(o.value("model").toString(), "loggp");
        QVERIFY(o.value("network").toString().endsWith("ib-switch.yaml"));
        QCOMPARE(o.value("placement").toString(), "2-D grid 10 x 10");
        QVERIFY(o.value("predicted_runtime_ns").toInteger() > 0);
        // The generator's stencil2d: 14 frame events per rank, 16 + 8k per iteration with k
        // neighbours. A 10 x 10 grid has 4 corners (k = 2), 32 edge ranks (k = 3), 64 inside
        // (k = 4): 100 * 14 + 3 * (100 * 16 + 8 * (4 * 2 + 32 * 3 + 64 * 4)) = 14840.
        QCOMPARE(o.value("events").toInteger(), 14840);
        QCOMPARE(o.value("roles").toArray().size(), 9);

        // The predicted trace loads and analyses like any other, with the same event count.
        const CliResult info = runCli({"info", out, "--json"});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(jsonOf(info).value("ranks").toInt(), 100);
        QCOMPARE(jsonOf(info).value("unmatched_messages").toInt(), 0);
        QCOMPARE(runCli({"waitstates", out, "--json"}).exitCode, 0);
    }

    void predictMeasured()
    {
        // The generator's own 10 x 10 stencil is the run at the target: the same messages per
        // call site (4 x 2 + 32 x 3 + 64 x 4 = 360 per iteration), collectives and partners.
        const QString measured = dir_.filePath("s100");
        QCOMPARE(runCli({"generate", "--pattern", "stencil2d", "--ranks", "100", "--iterations",
                         "3", "-q", "-o", measured})
                     .exitCode,
                 0);
        const CliResult r = runCli({"predict", "--target", "100", "--json", "--measured", measured,
                                    stencil(16), stencil(36), stencil(64)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        const QJsonObject m = o.value("structure_match").toObject();
        for (const char* key :
             {"messages_pct", "bytes_pct", "collectives_equal", "partners_equal_ranks_pct"})
            QVERIFY2(m.contains(key), key);
        QCOMPARE(m.value("messages_pct").toDouble(), 0.0);
        QCOMPARE(m.value("messages").toObject().value("measured").toInteger(), 3 * 360);
        QVERIFY(m.value("bytes_pct").toDouble() < 1.0);
        QVERIFY(m.value("collectives_equal").toBool());
        QCOMPARE(m.value("partners_equal_ranks_pct").toDouble(), 100.0);
        QVERIFY(o.value("runtime_error_pct").isDouble());
        QVERIFY(o.value("measured_runtime_ns").toInteger() > 0);

        const CliResult text = runCli({"predict", "--target", "100", "--measured", measured,
                                       stencil(16), stencil(36), stencil(64)});
        QVERIFY(text.out.contains("against the measured run"));
    }

    void textAndDeterminism()
    {
        const QStringList args{"predict", "--target", "81", stencil(16), stencil(36), stencil(64)};
        const CliResult a = runCli(args), b = runCli(args);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY(a.out.contains("predicted run time"));
        QVERIFY(a.out.contains("2-D grid 9 x 9"));
        QCOMPARE(a.out, b.out);
        const CliResult classic = runCli(args + QStringList{"--method", "classic", "--json"});
        QVERIFY2(classic.exitCode == 0, classic.err.constData());
        QCOMPARE(jsonOf(classic).value("method").toString(), "classic");
    }

    void otherNetwork()
    {
        const CliResult r = runCli({"predict", "--target", "64", "--network", "torus-3d", "--json",
                                    stencil(16), stencil(36), stencil(64)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(jsonOf(r).value("network").toString().endsWith("torus-3d.yaml"));
        QVERIFY(!jsonOf(r).contains("machine_note")); // 64 nodes x 2 ranks hold 64 ranks
    }

    void refused()
    {
        const QStringList traces{dir_.filePath("irr8"), dir_.filePath("irr12"),
                                 dir_.filePath("irr16")};
        // 36 ranks: a 6 x 6 grid, which the 16-rank run's 4 x 4 cannot tile either.
        const CliResult r = runCli(QStringList{"predict", "--target", "36", "--json"} + traces);
        QCOMPARE(r.exitCode, 1);
        const QJsonArray refused = jsonOf(r).value("refused").toArray();
        QVERIFY(!refused.isEmpty());
        const QJsonObject first = refused.first().toObject();
        QCOMPARE(first.keys(), (QStringList{"callsite", "reason"}));
        QCOMPARE(first.value("callsite").toString(), "main:MPI_Sendrecv");
        QVERIFY(first.value("reason").toString().contains("follow no rule"));
        QVERIFY(r.err.contains("cannot synthesise 36 ranks"));
        QVERIFY(refused.last().toObject().value("reason").toString().contains("tiled"));
        QVERIFY(r.err.contains("main:MPI_Sendrecv"));
        QCOMPARE(jsonOf(r).value("ranks").toInt(), 0);
    }

    void npbMgTiled()
    {
        // NPB MG W: ranks whose coarse grid levels hold no points follow no rule in the scale,
        // so the largest input is tiled onto the target's grid, with a warning saying so.
        QStringList mg;
        for (const char* n : {"4", "8", "16", "32"})
            mg << rankscope::test::sharedTrace(QString("scorep84-npb-mg-W-") + n);
        if (mg.contains(QString())) QSKIP("shared NPB MG traces not found");
        const CliResult r = runCli({"predict", "--target", "32", "--no-calibrate", "--json",
                                    "--measured", mg[3], mg[0], mg[1], mg[2]});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QVERIFY(o.value("refused").toArray().isEmpty());
        // MG's process grid (NPB setup: 2 x 2 x 4 at 16, 2 x 4 x 4 at 32, x fastest).
        QCOMPARE(o.value("placement").toString(),
                 "3-D grid 4 x 4 x 2, tiled by the 16-rank run (4 x 2 x 2)");
        bool warned = false;
        for (const QJsonValue& w : o.value("warnings").toArray())
            warned = warned || w.toString().contains("tiled onto the target's process grid");
        QVERIFY(warned);
        const QJsonObject match = o.value("structure_match").toObject();
        // NPB MG's rule (mg.f): a rank whose coordinate is even in a dimension of 4 ranks holds
        // no point of level 1; it skips that level's two comm3 calls per cycle (5 cycles x 2 x
        // 6 sends = -60) and is given its data in comm3_ex; a rank odd in such a dimension
        // sends there twice per cycle (+10). otf2-print counts 4992 MPI_SEND records at 8 ranks
        // (624 a rank, no dimension of 4) and 9584 at 16 (8 x 564 + 8 x 634). At 32 (2 x 4 x
        // 4), by the number k of odd coordinates in the two dimensions of 4: 8 ranks k = 0
        // (564), 16 k = 1 (574), 8 k = 2 (644): 18848 - as measured.
        QCOMPARE(match.value("messages").toObject().value("predicted").toInt(),
                 8 * 564 + 16 * 574 + 8 * 644);
        QCOMPARE(match.value("messages").toObject().value("measured").toInt(), 18848);
        for (const QJsonValue& v : match.value("differing_callsites").toArray()) {
            const QJsonObject m = v.toObject().value("messages").toObject();
            QVERIFY2(m.value("predicted") == m.value("measured"),
                     qPrintable(v.toObject().value("callsite").toString()));
        }
        QCOMPARE(match.value("partners_equal_ranks_pct").toDouble(), 100.0);
        // otf2-print: the MPI_SEND records at 32 ranks carry 67,552,000 bytes.
        const double bytes = match.value("bytes").toObject().value("predicted").toDouble();
        QCOMPARE(match.value("bytes").toObject().value("measured").toDouble(), 67552000.0);
        QVERIFY2(std::abs(bytes / 67552000.0 - 1.0) < 0.01, qPrintable(QString::number(bytes)));
        // Every call site within 1 %, also interp's comm3_ex, which only the 16-rank input
        // shows (otf2-print: 16 x 5 sends of 128 and of 256 bytes there; at 32, 32 x 5 of 96
        // and of 192, 46,080 bytes: its faces shrink by (4/4 + 2) / (4/2 + 2) = 3/4 when a
        // second dimension reaches 4 ranks).
        QVERIFY2(match.value("bytes_pct").toDouble() < 1.0,
                 qPrintable(QString::number(match.value("bytes_pct").toDouble())));
        QVERIFY(match.value("collectives_equal").toBool());
        QCOMPARE(match.value("collectives").toObject().value("predicted").toInt(), 105);
        bool composed = false;
        for (const QJsonValue& w : o.value("warnings").toArray())
            composed = composed || w.toString().startsWith("composed per dimension");
        QVERIFY(composed);

        // From 8/16/32 to 64 (4 x 4 x 4), by the same rule with k odd coordinates of 3: 8 ranks
        // k = 0 (564), 24 k = 1 (574), 24 k = 2 (584), 8 k = 3 (654).
        const QString out = dir_.filePath("mg64");
        const CliResult big = runCli({"predict", "--target", "64", "--no-calibrate", "--json", "-o",
                                      out, mg[1], mg[2], mg[3]});
        QVERIFY2(big.exitCode == 0, big.err.constData());
        const rankscope::Trace t = rankscope::readOtf2(out.toStdString());
        QCOMPARE(t.rankCount(), size_t(64));
        QCOMPARE(t.messages().size(), size_t(8 * 564 + 24 * 574 + 24 * 584 + 8 * 654));
        // Rank 0 of a periodic 4 x 4 x 4 grid, rank = x + 4 y + 16 z: its halo partners are
        // x +-1 (1, 3), y +-1 (4, 12), z +-1 (16, 48); x +-1 is told apart from the 32-rank
        // run's 2-rank x dimension by MG's tags (1100 down, 1300 up).
        std::set<uint32_t> partners;
        for (const rankscope::Message& m : t.messages())
            if (t.messageSender(m).value == 0) partners.insert(t.messageReceiver(m).value);
        QCOMPARE(partners, (std::set<uint32_t>{1, 3, 4, 12, 16, 48}));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString s16 = stencil(16), s36 = stencil(36), s64 = stencil(64);
        QTest::newRow("two scales") << QStringList{"--target", "100", s16, s36} << 2 << "3 or more";
        QTest::newRow("target 0") << QStringList{"--target", "0", s16, s36, s64} << 2
                                  << "at least 1";
        QTest::newRow("absurd target") << QStringList{"--target", "1000000000", s16, s36, s64} << 2
                                       << "beyond what can be synthesised";
        QTest::newRow("duplicate scale")
            << QStringList{"--target", "100", s16, s36, s36} << 1 << "same scale";
        QTest::newRow("other program")
            << QStringList{"--target", "100", s16, s36, dir_.filePath("a8")} << 1
            << "not traces of the same program";
        QTest::newRow("unruled share out of range")
            << QStringList{"--target", "100", "--max-unruled-share", "150", s16, s36, s64} << 2
            << "--max-unruled-share";
        QTest::newRow("measured at another scale")
            << QStringList{"--target", "100", "--measured", s16, s16, s36, s64} << 1
            << "not the target 100";
        QTest::newRow("event limit")
            << QStringList{"--target", "100000", "--max-events", "100000", s16, s36, s64} << 1
            << "more than the limit";
        QTest::newRow("missing spec")
            << QStringList{"--target", "100", "--network", "/nonexistent/x.yaml", s16, s36, s64}
            << 1 << "network spec '/nonexistent/x.yaml' not found";
        QTest::newRow("unknown spec")
            << QStringList{"--target", "100", "--network", "no-such-net", s16, s36, s64} << 1
            << "no such file, nor a bundled spec";
        QTest::newRow("missing trace")
            << QStringList{"--target", "100", s16, s36, dir_.filePath("none")} << 1 << "none";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliResult r = runCli(QStringList{"predict"} + args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

private:
    QString stencil(int n) const { return dir_.filePath(QString("s%1").arg(n)); }

    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliPredict)
#include "tst_clipredict.moc"
