// The SimGrid engine in the what-if panel: the engine choice is offered only when smpirun is on
// PATH (its tooltip says how to install it otherwise), it round-trips through the scenario and
// the session file (an unknown engine names the file and line), and a run with it (skipped
// without SimGrid) opens SimGrid's predicted trace next to Rankscope's result with both run
// times in the Summary, without blocking the GUI thread; Cancel kills smpirun; a failing smpirun
// is reported with the tail of its output while Rankscope's result still opens.

#include "app/mainwindow.h"
#include "app/session.h"
#include "app/tracedocument.h"
#include "app/whatifcontroller.h"
#include "app/whatifjob.h"
#include "importers/otf2/otf2writer.h"
#include "importers/tracefile.h"
#include "model/trace/traceerror.h"
#include "testsupport/simgridfixture.h"
#include "testsupport/twonodespec.h"
#include "views/whatif/whatifcomparison.h"
#include "views/whatif/whatifpanel.h"
#include "views/whatif/whatifsimulationpage.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace rankscope;

namespace {

/// The ping-pong of tst_simgridenginecore and the crossbar spec in `dir`; returns the scenario
/// that replays it with the SimGrid engine.
whatif::Scenario pingPongScenario(const QString& dir)
{
    test::writeSimGridPingPong(dir);
    test::writeTestFile(dir + "/xbar.yaml", test::kTwoNodeSpec);
    // The main window opens OTF2 (and Paraver): the same trace as OTF2.
    const std::string otf2 = (dir + "/pp-otf2").toStdString();
    writeOtf2(readTraceFile((dir + "/pp.ti").toStdString()), otf2);
    whatif::Scenario s;
    s.name = "pingpong";
    s.baselines = {otf2 + "/traces.otf2"};
    s.network = (dir + "/xbar.yaml").toStdString();
    s.engine = "simgrid";
    return s;
}

/// Sets PATH for the life of the object.
struct PathSet
{
    QByteArray old = qgetenv("PATH");
    explicit PathSet(const QByteArray& path) { qputenv("PATH", path); }
    ~PathSet() { qputenv("PATH", old); }
};

QStandardItem* simgridItem(QComboBox* box)
{
    auto* items = qobject_cast<QStandardItemModel*>(box->model());
    return items ? items->item(box->findData(QStringLiteral("simgrid"))) : nullptr;
}

} // namespace

class TestWhatIfSimGrid : public QObject
{
    Q_OBJECT

private slots:
    void engineChoiceFollowsPath()
    {
        WhatIfPanel panel;
        auto* page = panel.findChild<WhatIfSimulationPage*>();
        QVERIFY(page);
        QComboBox* box = page->engineBox();
        QCOMPARE(box->count(), 2);
        QCOMPARE(box->itemData(0).toString(), QStringLiteral("rankscope"));
        QVERIFY(!box->toolTip().isEmpty());
        QTemporaryDir bin;
        {
            PathSet path(bin.path().toUtf8()); // no smpirun anywhere
            page->updateEngineAvailability();
            QVERIFY(!simgridItem(box)->isEnabled());
            QVERIFY(simgridItem(box)->toolTip().contains("apt-get install libsimgrid-dev"));
            QVERIFY(box->toolTip().contains("apt-get install libsimgrid-dev"));
        }
        test::writeTestFile(bin.filePath("smpirun"), "#!/bin/sh\nexit 0\n", true);
        {
            PathSet path(bin.path().toUtf8()); // a smpirun on PATH
            page->updateEngineAvailability();
            QVERIFY(simgridItem(box)->isEnabled());
            QVERIFY(!simgridItem(box)->toolTip().contains("apt-get"));
            QVERIFY(!box->toolTip().contains("apt-get"));
        }
    }

    void engineRoundTripsThroughSession()
    {
        QTemporaryDir dir;
        const whatif::Scenario s = pingPongScenario(dir.path());
        const netsim::NetworkSpec spec = netsim::NetworkSpec::fromFile(s.network);
        // Chosen in the panel, even where smpirun is missing (the run then says so).
        PathSet path(dir.path().toUtf8());
        WhatIfPanel panel;
        panel.setScenario(s, spec);
        QComboBox* box = panel.findChild<WhatIfSimulationPage*>()->engineBox();
        QCOMPARE(box->currentData().toString(), QStringLiteral("simgrid"));
        QCOMPARE(panel.scenario().engine, std::string("simgrid"));

        Session session;
        session.scenarios = {panel.scenario()};
        const std::string file = dir.filePath("s.rsession").toStdString();
        session.save(file);
        QFile f(QString::fromStdString(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("engine: simgrid"));
        const Session loaded = Session::load(file);
        QCOMPARE(loaded.scenarios.size(), size_t(1));
        QCOMPARE(loaded.scenarios.front(), panel.scenario());
        WhatIfPanel restored;
        restored.setScenario(loaded.scenarios.front(), spec);
        QCOMPARE(restored.findChild<WhatIfSimulationPage*>()->engineBox()->currentData(),
                 QVariant(QStringLiteral("simgrid")));

        // Rankscope's engine is the default: not written, and read back as it.
        restored.findChild<WhatIfSimulationPage*>()->engineBox()->setCurrentIndex(0);
        session.scenarios = {restored.scenario()};
        QVERIFY(session.toYaml(dir.path().toStdString()).find("engine") == std::string::npos);
        session.save(file);
        QCOMPARE(Session::load(file).scenarios.front().engine, std::string("rankscope"));
    }

    void unknownEngineNamesFileAndLine()
    {
        const std::string text = "rankscope_session: 1\n"
                                 "scenarios:\n"
                                 "  - name: a\n"
                                 "    baselines: [/t/a]\n"
                                 "    network: /n.yaml\n"
                                 "    engine: dimemas\n";
        QString message;
        try {
            Session::parse(text, "s.rsession", "/");
        } catch (const TraceError& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.contains("s.rsession:6: engine: expected rankscope or simgrid, not "
                                  "'dimemas'"),
                 qPrintable(message));
        // SimGrid replays a replay only, and one at a time.
        QTemporaryDir dir;
        whatif::Scenario s = pingPongScenario(dir.path());
        s.sweepParam = "cpu_factor";
        s.sweepValues = {"1", "2"};
        QVERIFY(QString::fromStdString(whatif::validate(s)).contains("not a sweep"));
    }

    void runOpensSimGridTabBeside()
    {
        if (!test::haveSmpirun()) QSKIP("smpirun (libsimgrid-dev) not installed");
        QTemporaryDir dir;
        const whatif::Scenario s = pingPongScenario(dir.path());
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        QSignalSpy opened(c, &WhatIfController::resultOpened);
        QSignalSpy errors(&window, &MainWindow::errorReported);
        // The GUI thread keeps turning while smpirun runs: the longest gap between ticks.
        QElapsedTimer since;
        qint64 longest = 0;
        QTimer tick;
        QObject::connect(&tick, &QTimer::timeout,
                         [&] { longest = std::max(longest, since.restart()); });
        c->run(s); // opens the trace, then runs in the background
        since.start();
        tick.start(10);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !errors.isEmpty(), 120000);
        tick.stop();
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.front().at(1).toString()));
        QVERIFY2(longest < 1000, qPrintable(QStringLiteral("GUI blocked %1 ms").arg(longest)));
        const int tab = opened.front().at(1).toInt();
        WhatIfComparison* result = c->comparisonTab(tab);
        QVERIFY(result);
        // SimGrid's trace right after Rankscope's result.
        QCOMPARE(window.tabs()->tabText(tab + 1), QStringLiteral("SimGrid: pingpong"));
        auto* doc = qobject_cast<TraceDocument*>(window.tabs()->widget(tab + 1));
        QVERIFY(doc && doc->data().trace);
        QCOMPARE(doc->data().trace->rankCount(), size_t(2));
        QCOMPARE(doc->data().trace->messages().size(), size_t(2));
        // The Summary: Rankscope's 5.5 us worked out by hand in tst_simgridenginecore, SimGrid's
        // figure and both wall-clocks.
        QVERIFY(result->enginesLabel()->isVisibleTo(result));
        const QString text = result->enginesLabel()->text();
        QVERIFY2(text.contains("SimGrid (smpirun)") && text.contains("Rankscope's 5.500 us") &&
                     text.contains("Wall-clock: Rankscope"),
                 qPrintable(text));
        // The session keeps the scenario with its engine (one result: SimGrid's tab goes with it).
        QCOMPARE(c->resultScenarios().size(), size_t(1));
        QCOMPARE(c->resultScenarios().front().engine, std::string("simgrid"));
        // A re-run replaces both tabs.
        const int tabs = window.tabs()->count();
        opened.clear();
        c->run(s);
        QVERIFY(opened.wait(120000));
        QCOMPARE(window.tabs()->count(), tabs);
    }

    void cancelKillsSmpirun()
    {
        QTemporaryDir dir;
        const whatif::Scenario s = pingPongScenario(dir.path());
        // A stand-in smpirun that notes its process id, then runs for a minute.
        const QString mark = dir.filePath("mark");
        test::writeTestFile(
            dir.filePath("smpirun"),
            QStringLiteral("#!/bin/sh\necho $$ > %1.tmp\nmv %1.tmp %1\nexec sleep 60\n")
                .arg(mark)
                .toUtf8(),
            true);
        PathSet path(dir.path().toUtf8() + ":" + qgetenv("PATH"));
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        QSignalSpy ended(c, &WhatIfController::runEnded);
        c->run(s);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(mark), 60000);
        QVERIFY(c->job()->busy());
        QElapsedTimer clock;
        clock.start();
        emit c->panel()->cancelRequested();
        QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 5000);
        QCOMPARE(ended.front().at(0).toBool(), false);
        QVERIFY(clock.elapsed() < 1000); // the GUI does not wait for the worker
        QFile f(mark);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString proc = QStringLiteral("/proc/%1").arg(f.readAll().trimmed().toLongLong());
        // Killed (gone, or a zombie for whoever reaps it).
        QTRY_VERIFY_WITH_TIMEOUT(
            !QFileInfo::exists(proc + "/cmdline") || QFile(proc + "/cmdline").size() == 0 ||
                [&] {
                    QFile st(proc + "/stat");
                    return !st.open(QIODevice::ReadOnly) || st.readAll().contains(") Z");
                }(),
            5000);
        QCOMPARE(window.tabs()->count(), 1); // the trace; no result
    }

    void failingSmpirunIsReported()
    {
        QTemporaryDir dir;
        const whatif::Scenario s = pingPongScenario(dir.path());
        test::writeTestFile(
            dir.filePath("smpirun"),
            "#!/bin/sh\necho 'parsing platform'\necho 'xbt_die: no route' >&2\nexit 2\n", true);
        PathSet path(dir.path().toUtf8() + ":" + qgetenv("PATH"));
        MainWindow window;
        window.setInteractive(false);
        WhatIfController* c = window.whatIf();
        QSignalSpy opened(c, &WhatIfController::resultOpened);
        QSignalSpy errors(&window, &MainWindow::errorReported);
        c->run(s);
        QVERIFY(opened.wait(60000));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.front().at(0).toString(), QStringLiteral("SimGrid run failed"));
        const QString message = errors.front().at(1).toString();
        QVERIFY2(message.contains("smpirun failed (exit code 2)") &&
                     message.contains("xbt_die: no route"),
                 qPrintable(message));
        // Rankscope's result stands; there is no SimGrid tab.
        const int tab = opened.front().at(1).toInt();
        QVERIFY(c->comparisonTab(tab));
        QVERIFY(!c->comparisonTab(tab)->enginesLabel()->isVisibleTo(c->comparisonTab(tab)));
        QCOMPARE(window.tabs()->count(), 2);
    }
};

QTEST_MAIN(TestWhatIfSimGrid)
#include "tst_whatifsimgrid.moc"
