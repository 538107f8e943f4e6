// The what-if plumbing of the GUI: WhatIfJob delivers a run's analysed result through its
// signal (the same numbers as calling the engine directly), Cancel stops a run, a sweep gives
// one point per value; the controller opens results as tabs; a session round trip through the
// main window restores traces, scenarios and view state; the bundled demo session is sound.

#include "app/mainwindow.h"
#include "app/session.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/whatifcontroller.h"
#include "app/whatifjob.h"
#include "model/analysis/comparisondata.h"
#include "model/analysis/runspan.h"
#include "model/waits/waitstates.h"
#include "testsupport/testpaths.h"
#include "views/timeline/timelineview.h"
#include "views/whatif/sweepview.h"
#include "views/whatif/whatifcomparison.h"
#include "views/whatif/whatifpanel.h"
#include "whatif/netsim/calibration.h"
#include "whatif/netsim/simulation.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPromise>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace rankscope;

namespace {

QString resources()
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources");
}
QString demoTrace(const QString& name)
{
    return resources() + "/demo/traces/" + name;
}
std::string spec(const QString& name)
{
    return (resources() + "/networks/" + name + ".yaml").toStdString();
}

LoadedTrace load(const QString& path)
{
    const LoadOutcome out = TraceLoader::loadNow(path, {});
    if (!out.error.isEmpty()) qFatal("%s", qPrintable(out.error));
    return out.loaded;
}

whatif::Scenario replayOf(const QString& trace, const std::string& network)
{
    whatif::Scenario s;
    s.name = "replay";
    s.baselines = {trace.toStdString()};
    s.network = network;
    return s;
}

/// The demo's stencil2d at its four small scales.
std::vector<LoadedTrace> stencilScales()
{
    std::vector<LoadedTrace> traces;
    for (const char* n : {"stencil2d-9", "stencil2d-16", "stencil2d-25", "stencil2d-36"})
        traces.push_back(load(demoTrace(n)));
    return traces;
}

whatif::Scenario scaleOf(const std::vector<LoadedTrace>& traces, const std::string& name,
                         uint32_t target)
{
    whatif::Scenario s;
    s.name = name;
    s.kind = whatif::ScenarioKind::Scale;
    for (const LoadedTrace& t : traces)
        s.baselines.push_back(t.path.toStdString());
    s.network = spec("ib-switch");
    s.target = target;
    return s;
}

WhatIfRequest requestFor(const whatif::Scenario& s, const std::vector<LoadedTrace>& traces)
{
    WhatIfRequest r;
    r.scenario = s;
    r.fileSpec = netsim::NetworkSpec::fromFile(s.network);
    for (const LoadedTrace& t : traces) {
        r.baselines.push_back(t.trace);
        r.baselineNames << t.name;
    }
    r.compare = traces.front();
    return r;
}

} // namespace

class TestWhatIfJob : public QObject
{
    Q_OBJECT
private slots:
    void runDeliversResultThroughSignal()
    {
        const LoadedTrace base = load(demoTrace("stencil2d-16"));
        whatif::Scenario s = replayOf(base.path, spec("ib-switch"));
        s.overrides = {{"links.hdr.latency", "5us"}};
        s.cpuFactor = 1.5;
        WhatIfJob job;
        QSignalSpy finished(&job, &WhatIfJob::finished);
        QSignalSpy idle(&job, &WhatIfJob::idle);
        job.run(requestFor(s, {base}));
        QVERIFY(job.busy());
        QVERIFY(finished.wait(60000));
        QCOMPARE(idle.count(), 1);
        QVERIFY(!job.busy());
        const auto out = finished.front().at(1).value<WhatIfOutcome>();
        QVERIFY(out.error.isEmpty());

        // The same replay, called directly; a whole run collects link statistics for the
        // network view (and its trace carries each message's contention delay) with each
        // link's 20 heaviest messages, which the view lists for a clicked link.
        netsim::SimulationOptions o;
        o.cpuFactor = 1.5;
        o.buildTrace = true;
        o.linkStats = true;
        o.heaviestPerLink = 20;
        const netsim::SimulationResult direct =
            netsim::simulate(*base.trace, netsim::NetworkSpec::fromFile(s.network, s.overrides), o);
        QCOMPARE(*out.predictedRuntimeNs, direct.predictedRuntimeNs);
        QVERIFY(out.result.trace->sameContent(*direct.trace));
        QVERIFY(out.network && direct.network);
        QVERIFY(out.network->figures == *direct.network);
        QCOMPARE(out.network->figures.heaviest.size(), direct.network->links.size());
        QCOMPARE(out.network->layouts.size(), size_t(1)); // ib-switch: one crossbar
        QCOMPARE(*out.waitNs, analyzeWaitStates(*direct.trace, {}).totalNs);
        // Analysed like a loaded trace, and compared with the baseline.
        QVERIFY(out.result.timeline && out.result.profile && out.result.waits &&
                out.result.timelineIndex);
        QCOMPARE(out.result.name, QStringLiteral("replay"));
        QVERIFY(out.comparison);
        // Run time over the span: the end of MPI_Init to the end of MPI_Finalize.
        QCOMPARE(out.comparison->summary.front().measuredNs,
                 double(runSpan(*base.trace).duration()));
        QCOMPARE(out.comparison->summary.front().predictedNs, double(direct.predictedRuntimeNs));
    }

    void effectAgainstBaselineReplay()
    {
        // A 100x latency edit: the outcome's headline is edited - baseline (slower), where the
        // baseline is the same trace on the unedited spec; the calibration error is apart.
        const LoadedTrace base = load(demoTrace("stencil2d-16"));
        whatif::Scenario s = replayOf(base.path, spec("ib-switch"));
        s.overrides = {{"links.hdr.latency", "50us"}};
        const WhatIfOutcome out = WhatIfJob::runNow(requestFor(s, {base}), {});
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QVERIFY(out.effect.has_value());
        const netsim::NetworkSpec file = netsim::NetworkSpec::fromFile(s.network);
        const netsim::SimulationResult unedited =
            netsim::simulate(*base.trace, file, netsim::SimulationOptions{});
        const netsim::SimulationResult edited = netsim::simulate(
            *base.trace, file.withOverrides(s.overrides), netsim::SimulationOptions{});
        QCOMPARE(out.effect->baseline.runNs, unedited.predictedRuntimeNs);
        QCOMPARE(out.effect->measured.runNs, unedited.inputRuntimeNs);
        const whatif::EditedRun& e = out.effect->edited.front();
        QCOMPARE(e.edited.runNs, edited.predictedRuntimeNs);
        QCOMPARE(e.effectNs, edited.predictedRuntimeNs - unedited.predictedRuntimeNs);
        QVERIFY(e.effectNs > 0); // more latency, a slower run
        QCOMPARE(*out.effect->calibrationErrorPct,
                 100.0 * double(unedited.predictedRuntimeNs - unedited.inputRuntimeNs) /
                     double(unedited.inputRuntimeNs));
        // The result tab shows it as slower, in red.
        WhatIfComparison view;
        view.setEffect(out.effect);
        QVERIFY(view.effectLabel()->text().contains(QStringLiteral("slower")));
        const QColor c = view.effectLabel()->palette().color(QPalette::WindowText);
        QVERIFY(c.red() > 150 && c.green() < 80);
        QVERIFY(view.runsLabel()->text().contains(QStringLiteral("Calibration error")));
    }

    void badSpecValueFails()
    {
        const LoadedTrace base = load(demoTrace("stencil2d-9"));
        whatif::Scenario s = replayOf(base.path, spec("ib-switch"));
        s.overrides = {{"links.hdr.latency", "quick"}};
        WhatIfJob job;
        QSignalSpy failed(&job, &WhatIfJob::failed);
        job.run(requestFor(s, {base}));
        QVERIFY(failed.wait(30000));
        const QString message = failed.front().at(1).toString();
        QVERIFY2(message.contains("links.hdr.latency"), qPrintable(message));
    }

    void cancelStops()
    {
        // A scale prediction to 4096 ranks takes seconds: long enough to cancel mid-way.
        const std::vector<LoadedTrace> traces = stencilScales();
        whatif::Scenario s = scaleOf(traces, "big", 4096);
        WhatIfJob job;
        QSignalSpy finished(&job, &WhatIfJob::finished);
        QSignalSpy cancelled(&job, &WhatIfJob::cancelled);
        QSignalSpy progress(&job, &WhatIfJob::progressChanged);
        job.run(requestFor(s, traces));
        QTRY_VERIFY_WITH_TIMEOUT(job.progress() > 0.0, 30000);
        job.cancel();
        QVERIFY(!job.busy());
        QCOMPARE(cancelled.count(), 1);
        QTest::qWait(200);
        QCOMPARE(finished.count(), 0); // a late result is dropped
    }

    void sweepGivesOnePointPerValue()
    {
        const LoadedTrace base = load(demoTrace("tracer-stencil4d-64r"));
        whatif::Scenario s = replayOf(base.path, spec("two-clusters-wan"));
        s.sweepParam = "links.wan.latency";
        s.sweepValues = {"1ms", "5ms", "20ms"};
        WhatIfJob job;
        QSignalSpy points(&job, &WhatIfJob::pointFinished);
        QSignalSpy done(&job, &WhatIfJob::sweepFinished);
        job.sweep(requestFor(s, {base}));
        QVERIFY(done.wait(60000));
        QCOMPARE(points.count(), 3);
        std::map<int, int64_t> runtime;
        for (const QList<QVariant>& p : points) {
            const auto out = p.at(1).value<WhatIfOutcome>();
            QVERIFY(out.error.isEmpty());
            QVERIFY(!runtime.contains(out.point));
            runtime[out.point] = *out.predictedRuntimeNs;
            // Each point is the replay with that one value.
            const auto direct =
                netsim::simulate(*base.trace,
                                 netsim::NetworkSpec::fromFile(
                                     s.network, {{s.sweepParam, s.sweepValues[size_t(out.point)]}}),
                                 {});
            QCOMPARE(*out.predictedRuntimeNs, direct.predictedRuntimeNs);
            QCOMPARE(out.value, QString::fromStdString(s.sweepValues[size_t(out.point)]));
        }
        // More wide-area latency never makes the run faster.
        QVERIFY(runtime[0] < runtime[1] && runtime[1] < runtime[2]);
    }

    void scaleSweepOverTarget()
    {
        const std::vector<LoadedTrace> traces = stencilScales();
        whatif::Scenario s = scaleOf(traces, "scale", 64);
        s.sweepParam = "target";
        s.sweepValues = {"49", "100"};
        WhatIfJob job;
        QSignalSpy points(&job, &WhatIfJob::pointFinished);
        QSignalSpy done(&job, &WhatIfJob::sweepFinished);
        job.sweep(requestFor(s, traces));
        QVERIFY(done.wait(120000));
        QCOMPARE(points.count(), 2);
        for (const QList<QVariant>& p : points) {
            const auto out = p.at(1).value<WhatIfOutcome>();
            QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
            // A 7 x 7 and a 10 x 10 grid: the point's run has that many ranks.
            QCOMPARE(out.ranks, out.point == 0 ? 49u : 100u);
            QCOMPARE(out.scenario.target, out.ranks);
            QVERIFY(*out.predictedRuntimeNs > 0);
        }
    }

    void controllerOpensResultTabs()
    {
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        QSignalSpy opened(c, &WhatIfController::resultOpened);
        // The baseline is not open: the controller opens it first, then runs.
        c->run(replayOf(demoTrace("stencil2d-9"), spec("ib-switch")));
        QVERIFY(opened.wait(60000));
        QCOMPARE(window.tabs()->count(), 2);
        const int tab = opened.front().at(1).toInt();
        QVERIFY(c->comparisonTab(tab));
        // Every result tab's scenario is kept for the session; openResults() names those that
        // are saved scenarios.
        QCOMPARE(c->resultScenarios().size(), size_t(1));
        QVERIFY(c->openResults().isEmpty());
        c->saveScenario(replayOf(demoTrace("stencil2d-9"), spec("ib-switch")));
        QCOMPARE(c->openResults(), QStringList{"replay"});

        whatif::Scenario sw = replayOf(demoTrace("stencil2d-9"), spec("ib-switch"));
        sw.name = "sweep";
        sw.sweepParam = "cpu_factor";
        sw.sweepValues = {"0.5", "1", "2"};
        QSignalSpy swept(c, &WhatIfController::sweepDone);
        c->start(sw);
        QVERIFY(swept.wait(60000));
        SweepView* view = c->sweepTab(swept.front().at(0).toInt());
        QVERIFY(view);
        QCOMPARE(view->plot()->points().size(), size_t(3));
        for (const SweepPlot::Point& p : view->plot()->points())
            QVERIFY(p.runtimeNs.has_value());
        // A slower CPU makes a longer run.
        const auto& pts = view->plot()->points();
        QVERIFY(*pts[0].runtimeNs < *pts[1].runtimeNs && *pts[1].runtimeNs < *pts[2].runtimeNs);

        // Clicking a point opens that run, with the same run time as its point.
        opened.clear();
        emit view->pointActivated(2);
        QVERIFY(opened.wait(60000));
        QCOMPARE(opened.front().at(0).toString(), QStringLiteral("sweep (cpu_factor=2)"));
        WhatIfComparison* point = c->comparisonTab(opened.front().at(1).toInt());
        QVERIFY(point);
        QCOMPARE(double(runSpan(*point->timelines()->run(1).trace).duration()), *pts[2].runtimeNs);
    }

    void calibrateBecomesTheBaseline()
    {
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        // TraceR's 64-rank stencil: its replay on the spec is -76 % from its run, the fit -0.7 %,
        // so the fit is applied (stencil2d-16's fit replays no nearer: it is not applied).
        const QString path = demoTrace("tracer-stencil4d-64r");
        QSignalSpy loaded(window.loader(), &TraceLoader::idle);
        window.openTraces({path});
        QVERIFY(loaded.count() > 0 || loaded.wait(60000));
        c->showScenario(replayOf(path, spec("ib-switch")));
        QSignalSpy ended(c, &WhatIfController::calibrationEnded);
        c->calibrate();
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended.front().at(0).toBool(), true);
        // The calibration's values, as the core gives them, are the scenario's baseline spec.
        const LoadedTrace base = load(path);
        const netsim::NetworkSpec file = netsim::NetworkSpec::fromFile(spec("ib-switch"));
        const netsim::CalibrationResult r =
            netsim::calibrate(*base.trace, file, netsim::SimulationOptions{});
        QVERIFY(!r.spec.overrides.empty());
        WhatIfPanel* panel = c->panel();
        QCOMPARE(panel->baselineOverrides(), r.spec.overrides);
        QCOMPARE(panel->scenario().baselineOverrides, r.spec.overrides);
        QVERIFY(panel->baselineLabel()->text().contains(QStringLiteral("calibrated")));
        // Undoable, redoable.
        panel->specModel()->undoStack()->undo();
        QVERIFY(panel->baselineOverrides().empty());
        panel->specModel()->undoStack()->redo();
        QCOMPARE(panel->baselineOverrides(), r.spec.overrides);

        // A run compares its edit with the calibrated baseline: the file with the calibration,
        // then the edit on top.
        whatif::Scenario s = panel->scenario();
        s.overrides = {{"links.hdr.latency", "50us"}};
        const WhatIfOutcome out = WhatIfJob::runNow(requestFor(s, {base}), {});
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        const netsim::NetworkSpec calibrated = file.withOverrides(r.spec.overrides);
        QCOMPARE(out.effect->baseline.runNs,
                 netsim::simulate(*base.trace, calibrated, {}).predictedRuntimeNs);
        QCOMPARE(out.effect->edited.front().edited.runNs,
                 netsim::simulate(*base.trace, calibrated.withOverrides(s.overrides), {})
                     .predictedRuntimeNs);
    }

    void calibrationThatReplaysWorseIsNotApplied()
    {
        // The generated 16-rank stencil replays +0.1 % from its run on the spec; the fit does
        // not come nearer, so "Calibrate to this trace" leaves the baseline as it was (it used
        // to apply any fit, even one that replayed its trace worse).
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        const QString path = demoTrace("stencil2d-16");
        QSignalSpy loaded(window.loader(), &TraceLoader::idle);
        window.openTraces({path});
        QVERIFY(loaded.count() > 0 || loaded.wait(60000));
        c->showScenario(replayOf(path, spec("ib-switch")));
        const LoadedTrace base = load(path);
        const netsim::NetworkSpec file = netsim::NetworkSpec::fromFile(spec("ib-switch"));
        const netsim::CalibrationResult fit = netsim::calibrate(*base.trace, file, {});
        const double before = netsim::replayAgainstMeasured(*base.trace, file, {}).errorPct;
        const double after = netsim::replayAgainstMeasured(*base.trace, fit.spec, {}).errorPct;
        QVERIFY(std::abs(after) >= std::abs(before)); // the premise, replayed here
        QSignalSpy ended(c, &WhatIfController::calibrationEnded);
        c->calibrate();
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended.front().at(0).toBool(), false);
        QVERIFY(c->panel()->baselineOverrides().empty());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("not applied")));
    }

    void missingTraceIsReportedNotAwaited()
    {
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        QSignalSpy ended(c, &WhatIfController::runEnded);
        QSignalSpy errors(&window, &MainWindow::errorReported);
        QTemporaryDir dir;
        // A folder that exists but holds no trace: the load starts, fails, and the run ends.
        QDir(dir.path()).mkdir("empty");
        c->run(replayOf(dir.filePath("empty"), spec("ib-switch")));
        QVERIFY(ended.count() == 1 || ended.wait(30000));
        QCOMPARE(ended.front().at(0).toBool(), false);
        QVERIFY(errors.count() >= 1);
        QTest::qWait(200);
        QCOMPARE(ended.count(), 1); // tried once, not again and again
        // A path that does not exist at all fails at once.
        c->run(replayOf(dir.filePath("nowhere"), spec("ib-switch")));
        QCOMPARE(ended.count(), 2);
        QVERIFY(!c->job()->busy());
    }

    void sessionRoundTrip()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("s.rsession");
        const QString a = QFileInfo(demoTrace("stencil2d-9")).absoluteFilePath();
        const QString b = QFileInfo(demoTrace("stencil2d-16")).absoluteFilePath();
        whatif::Scenario s = replayOf(a, spec("ib-switch"));
        s.name = "kept";
        s.overrides = {{"links.hdr.latency", "3us"}};
        {
            MainWindow window;
            window.setInteractive(false);
            QSignalSpy idle(window.loader(), &TraceLoader::idle);
            window.openTraces({a, b});
            QVERIFY(idle.wait(30000));
            QTRY_COMPARE(window.tabs()->count(), 2);
            window.whatIf()->setScenarios({s});
            QVERIFY(window.compareTabs(0, 1));
            TimelineView* t = window.document(0)->timeline();
            const double begin = t->mapping().begin(), span = t->mapping().span();
            t->setVisibleRange(begin + span / 4, begin + span / 2);
            window.tabs()->setCurrentIndex(1);
            QVERIFY(window.saveSession(file));
        }
        MainWindow restored;
        restored.setInteractive(false);
        QSignalSpy done(&restored, &MainWindow::sessionRestored);
        QVERIFY(restored.openSession(file));
        QVERIFY(done.count() == 1 || done.wait(30000));
        QCOMPARE(restored.tabs()->count(), 3); // two traces and their comparison
        QCOMPARE(restored.document(0)->data().path, a);
        QCOMPARE(restored.document(1)->data().path, b);
        QVERIFY(restored.comparison(2));
        QCOMPARE(restored.whatIf()->scenarios().size(), size_t(1));
        // The bundled spec comes back by its name (never a path into the build tree).
        whatif::Scenario named = s;
        named.network = "ib-switch";
        QVERIFY(restored.whatIf()->scenarios().front() == named);
        QCOMPARE(restored.tabs()->currentIndex(), 1);
        const Session back = restored.session();
        const Session saved = Session::load(file.toStdString());
        QCOMPARE(back.view.ranges.size(), size_t(2));
        const std::string key = a.toStdString();
        QVERIFY(saved.view.ranges.contains(key) && back.view.ranges.contains(key));
        const auto& [b0, e0] = saved.view.ranges.at(key);
        const auto& [b1, e1] = back.view.ranges.at(key);
        QCOMPARE(b1, b0);
        QCOMPARE(e1, e0);
        QVERIFY(e0 - b0 < 0.3 * double(restored.document(0)->data().trace->duration()));
    }

    void demoSessionIsSound()
    {
        const std::string path = (resources() + "/demo/demo.rsession").toStdString();
        const Session demo = Session::load(path);
        QCOMPARE(demo.traces.size(), size_t(7));
        for (const std::string& t : demo.traces)
            QVERIFY2(QFileInfo::exists(QString::fromStdString(t) + "/traces.otf2"), t.c_str());
        QVERIFY(demo.scenarios.size() >= 3);
        bool scale = false, replay = false, sweep = false;
        for (const whatif::Scenario& s : demo.scenarios) {
            QCOMPARE(whatif::validate(s), std::string());
            QVERIFY2(QFileInfo::exists(QString::fromStdString(s.network)), s.network.c_str());
            (void)netsim::NetworkSpec::fromFile(s.network, s.overrides); // throws if bad
            scale = scale || s.kind == whatif::ScenarioKind::Scale;
            replay = replay || (s.kind == whatif::ScenarioKind::Replay && s.sweepParam.empty());
            sweep = sweep || !s.sweepParam.empty();
        }
        QVERIFY(scale && replay && sweep); // what the guided tour's steps need
    }
};

QTEST_MAIN(TestWhatIfJob)
#include "tst_whatifjob.moc"
