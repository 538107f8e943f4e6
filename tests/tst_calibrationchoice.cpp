// A calibration is used only when it brings the replay of its source trace nearer the measured
// run (netsim::chooseCalibration), for every caller: `calibrate`, scale prediction and the
// what-if panel. Expected decisions come from independent replays of the trace on the starting
// spec and on the fitted one (replayAgainstMeasured), not from the decision itself.

#include "importers/otf2/otf2reader.h"
#include "testsupport/bundledspec.h"
#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"
#include "whatif/netsim/calibrationchoice.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace rankscope;

class TestCalibrationChoice : public QObject
{
    Q_OBJECT

private slots:
    void notAppliedWhenTheFitReplaysWorse()
    {
        // CASITA's Jacobi: the spec replays it -0.8 % from its run, the joint fit +5.1 %, and no
        // combination of the fitted parameters comes nearer: nothing may be applied.
        const QString anchor = test::sharedTraceAnchor("casita-jacobi-mpi-cuda-2r");
        if (anchor.isEmpty()) QFAIL("../shared/traces/casita-jacobi-mpi-cuda-2r is missing");
        const Trace trace = readOtf2(anchor.toStdString());
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        const netsim::CalibrationChoice c = netsim::chooseCalibration(trace, spec, {});
        const double before = netsim::replayAgainstMeasured(trace, spec, {}).errorPct;
        const double after = netsim::replayAgainstMeasured(trace, c.fit.spec, {}).errorPct;
        QVERIFY(std::abs(after) > std::abs(before)); // the premise: the fit is worse
        QCOMPARE(c.uncalibratedErrorPct, before);
        QCOMPARE(c.calibratedErrorPct, after);
        QVERIFY(!c.applied);
        QVERIFY(c.overrides.empty());
        QCOMPARE(c.spec.effectiveYaml(), spec.effectiveYaml());
        QCOMPARE(c.appliedErrorPct, before);
        QVERIFY(c.reason.find("not applied") != std::string::npos);
    }

    void appliedNeverReplaysWorse_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"pipit-ping-pong-2r", "scorep84-npb-mg-W-4", "scorep84-npb-lu-S-4",
                              "casita-mpi-tags-10r", "tracer-stencil4d-32r"})
            QTest::newRow(n) << QString(n);
    }

    void appliedNeverReplaysWorse()
    {
        QFETCH(QString, name);
        const QString anchor = test::sharedTraceAnchor(name);
        if (anchor.isEmpty()) QFAIL(qPrintable("../shared/traces/" + name + " is missing"));
        const Trace trace = readOtf2(anchor.toStdString());
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        const netsim::CalibrationChoice c = netsim::chooseCalibration(trace, spec, {});
        const double before = netsim::replayAgainstMeasured(trace, spec, {}).errorPct;
        // The spec used, replayed on its own: never further from the run than the start.
        const double used = netsim::replayAgainstMeasured(trace, c.spec, {}).errorPct;
        QVERIFY2(std::abs(used) <= std::abs(before),
                 qPrintable(QString("%1: %2 % used, %3 % before").arg(name).arg(used).arg(before)));
        QCOMPARE(c.appliedErrorPct, used);
        if (c.applied) QVERIFY(!c.overrides.empty());
        // The joint fit is applied exactly when it is nearer (else a combination, or nothing).
        const double joint = netsim::replayAgainstMeasured(trace, c.fit.spec, {}).errorPct;
        if (std::abs(joint) < std::abs(before)) QVERIFY(c.applied && !c.partial);
        if (std::abs(joint) >= std::abs(before)) QVERIFY(!c.applied || c.partial);
    }

    void calibrateJsonAndOutput()
    {
        const QString anchor = test::sharedTraceAnchor("casita-jacobi-mpi-cuda-2r");
        if (anchor.isEmpty()) QFAIL("../shared/traces/casita-jacobi-mpi-cuda-2r is missing");
        QTemporaryDir dir;
        const QString out = dir.filePath("spec.yaml");
        const test::CliResult r =
            test::runCli({"calibrate", anchor, "--network", "ib-switch", "--json", "-o", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = test::jsonOf(r);
        QCOMPARE(j.value("applied").toBool(true), false);
        QVERIFY(std::abs(j.value("calibrated_error_pct").toDouble()) >
                std::abs(j.value("uncalibrated_error_pct").toDouble()));
        // -o always writes a spec: here the starting one, saying why.
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("# "));
        QVERIFY(text.contains("not applied"));
        const netsim::NetworkSpec written = netsim::NetworkSpec::fromFile(out.toStdString());
        const netsim::NetworkSpec spec = test::bundledSpec("ib-switch");
        QCOMPARE(written.effectiveYaml(), spec.effectiveYaml());
    }
};

QTEST_GUILESS_MAIN(TestCalibrationChoice)
#include "tst_calibrationchoice.moc"
