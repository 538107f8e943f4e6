// Sessions keep every result tab: an extrapolation, what-if runs (saved scenario or not) and a
// sweep are saved, and reopening the session runs them again into the same kinds of tabs; Quit
// and Close Tab ask before unsaved results go; `rankscope --session FILE --screenshot-dir DIR`
// restores a session (the option survives QApplication) and writes one PNG per tab.
//
// Expectations by hand: the checked-in stencil2d traces have 9, 16, 25, 36 and 144 ranks
// (their folder names, checked with otf2-print); a replay's result tab is titled
// "What if: <name>", a sweep's "Sweep: <name>", an extrapolation's "Extrapolation to N ranks".

#include "app/extrapolatedialog.h"
#include "app/extrapolationsession.h"
#include "app/mainactions.h"
#include "app/mainwindow.h"
#include "app/recentfiles.h"
#include "app/sessionoption.h"
#include "app/sessionscreenshots.h"
#include "app/tracedocument.h"
#include "app/traceloader.h"
#include "app/whatifcontroller.h"
#include "testsupport/modalanswer.h"
#include "views/extrap/extrapolationview.h"
#include "views/whatif/sweepview.h"
#include "views/whatif/whatifcomparison.h"
#include "whatif/scenario/specfinder.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace rankscope;

namespace {

QString resources()
{
    return QStringLiteral(RANKSCOPE_SOURCE_DIR "/resources");
}
QString demoTrace(const QString& name)
{
    return QFileInfo(resources() + "/demo/traces/" + name).absoluteFilePath();
}
std::string spec(const QString& name)
{
    return (resources() + "/networks/" + name + ".yaml").toStdString();
}
whatif::Scenario replayOf(const QString& name, const QString& trace)
{
    whatif::Scenario s;
    s.name = name.toStdString();
    s.baselines = {trace.toStdString()};
    s.network = spec("ib-switch");
    return s;
}

using rankscope::test::answerNextBox;

bool waitIdle(MainWindow& w)
{
    return QTest::qWaitFor([&] { return !w.isLoading(); }, 60000);
}

} // namespace

class TestSessionTabs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessiontabs"));
    }

    void sessionOptionIsTakenFromArgv_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("rest");
        QTest::newRow("long") << QStringList{"rankscope", "--session", "a.rsession", "t"}
                              << "a.rsession" << QStringList{"rankscope", "t"};
        QTest::newRow("equals") << QStringList{"rankscope", "--session=b.rsession", "--compare"}
                                << "b.rsession" << QStringList{"rankscope", "--compare"};
        QTest::newRow("single dash") << QStringList{"rankscope", "-session", "c", "--size", "9x9"}
                                     << "c" << QStringList{"rankscope", "--size", "9x9"};
        QTest::newRow("absent") << QStringList{"rankscope", "trace"} << QString()
                                << QStringList{"rankscope", "trace"};
        QTest::newRow("after --") << QStringList{"rankscope", "--", "--session", "x"} << QString()
                                  << QStringList{"rankscope", "--", "--session", "x"};
        QTest::newRow("no value") << QStringList{"rankscope", "--session"} << QString()
                                  << QStringList{"rankscope", "--session"};
    }
    void sessionOptionIsTakenFromArgv()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QStringList, rest);
        std::vector<QByteArray> storage;
        for (const QString& a : args)
            storage.push_back(a.toLocal8Bit());
        std::vector<char*> argv;
        for (QByteArray& b : storage)
            argv.push_back(b.data());
        argv.push_back(nullptr);
        int argc = int(args.size());
        const std::optional<QString> got = takeSessionOption(argc, argv.data());
        QCOMPARE(got.value_or(QString()), file);
        QCOMPARE(got.has_value(), !file.isEmpty());
        QStringList left;
        for (int i = 0; i < argc; ++i)
            left << QString::fromLocal8Bit(argv[size_t(i)]);
        QCOMPARE(left, rest);
        QCOMPARE(argv[size_t(argc)], nullptr);
    }

    void screenshotNames()
    {
        QCOMPARE(SessionScreenshots::fileName(0, "stencil2d-9"), QString("01-stencil2d-9.png"));
        QCOMPARE(SessionScreenshots::fileName(11, "What if: WAN 20 ms"),
                 QString("12-what-if-wan-20-ms.png"));
        QCOMPARE(SessionScreenshots::fileName(2, "…"), QString("03-tab.png"));
    }

    void everyResultTabComesBack()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("work.rsession");
        const QStringList scales{demoTrace("stencil2d-9"), demoTrace("stencil2d-16"),
                                 demoTrace("stencil2d-25"), demoTrace("stencil2d-36")};
        const whatif::Scenario saved = replayOf("saved", scales[0]);
        whatif::Scenario unsaved = replayOf("slow links", scales[1]);
        unsaved.overrides = {{"links.hdr.latency", "20us"}};
        whatif::Scenario sweep = replayOf("cpu sweep", scales[0]);
        sweep.sweepParam = "cpu_factor";
        sweep.sweepValues = {"0.5", "2"};
        int tabsBefore = 0;
        QStringList titles;
        {
            MainWindow w;
            w.setInteractive(false);
            w.openTraces(scales);
            QVERIFY(waitIdle(w));
            QCOMPARE(w.tabs()->count(), 4);
            // An extrapolation through the dialog, as a user starts it.
            ExtrapolateDialog* dialog = w.showExtrapolateDialog();
            dialog->setTarget(144);
            QSignalSpy extrapolated(w.extrapolationJob(), &ExtrapolationJob::idle);
            QVERIFY(dialog->start());
            QVERIFY(extrapolated.wait(120000));
            // A saved scenario's run, an unsaved one and a sweep.
            WhatIfController* c = w.whatIf();
            c->saveScenario(saved);
            QSignalSpy ended(c, &WhatIfController::runEnded);
            QObject::connect(&w, &MainWindow::errorReported,
                             [](const QString& t, const QString& m) { qWarning() << t << m; });
            c->start(saved);
            c->start(unsaved);
            c->start(sweep);
            QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 120000);
            for (const QList<QVariant>& e : ended)
                QVERIFY(e.at(0).toBool());
            tabsBefore = w.tabs()->count();
            QCOMPARE(tabsBefore, 8);
            for (int i = 0; i < tabsBefore; ++i)
                titles << w.tabs()->tabText(i);
            QVERIFY(titles.contains("Extrapolation to 144 ranks"));
            QVERIFY(titles.contains("What if: saved"));
            QVERIFY(titles.contains("What if: slow links"));
            QVERIFY(titles.contains("Sweep: cpu sweep"));
            // Three results, the extrapolation and the saved scenario (no session file has it).
            QCOMPARE(w.sessions()->unsavedWork().size(), 5);
            QVERIFY(w.saveSession(file));
            QVERIFY(w.sessions()->unsavedWork().isEmpty());
        }
        // The file names the saved scenario's result and holds the others in full.
        const Session onDisk = Session::load(file.toStdString());
        QCOMPARE(onDisk.results.size(), size_t(3));
        QCOMPARE(onDisk.extrapolations.size(), size_t(1));
        QCOMPARE(onDisk.extrapolations[0].target, 144u);
        QCOMPARE(onDisk.extrapolations[0].traces.size(), size_t(4));
        QCOMPARE(onDisk.extrapolations[0].method, std::string("auto"));

        MainWindow back;
        back.setInteractive(false);
        QSignalSpy restored(&back, &MainWindow::sessionRestored);
        QSignalSpy errors(&back, &MainWindow::errorReported);
        QVERIFY(back.openSession(file));
        QVERIFY(restored.count() == 1 || restored.wait(240000));
        QCOMPARE(errors.count(), 0);
        QCOMPARE(back.tabs()->count(), tabsBefore);
        QStringList titlesBack;
        int extrapolations = 0, comparisons = 0, sweeps = 0;
        for (int i = 0; i < back.tabs()->count(); ++i) {
            titlesBack << back.tabs()->tabText(i);
            extrapolations += back.extrapolation(i) ? 1 : 0;
            comparisons += back.whatIf()->comparisonTab(i) ? 1 : 0;
            sweeps += back.whatIf()->sweepTab(i) ? 1 : 0;
        }
        titles.sort();
        titlesBack.sort();
        QCOMPARE(titlesBack, titles);
        QCOMPARE(extrapolations, 1);
        QCOMPARE(comparisons, 2);
        QCOMPARE(sweeps, 1);
        const std::vector<whatif::Scenario> results = back.whatIf()->resultScenarios();
        QCOMPARE(results.size(), size_t(3));
        // A bundled spec comes back by its name (a session never stores a path into the build
        // tree or an install prefix).
        const auto named = [](whatif::Scenario sc) {
            if (const std::string n = whatif::bundledSpecName(sc.network); !n.empty())
                sc.network = n;
            return sc;
        };
        QVERIFY(std::find(results.begin(), results.end(), named(unsaved)) != results.end());
        QVERIFY(std::find(results.begin(), results.end(), named(sweep)) != results.end());
        // The swept tab is whole again: a point per value, each with a run time.
        for (int i = 0; i < back.tabs()->count(); ++i)
            if (SweepView* v = back.whatIf()->sweepTab(i))
                for (const SweepPlot::Point& p : v->plot()->points())
                    QVERIFY(p.runtimeNs.has_value());
        QVERIFY(back.sessions()->unsavedWork().isEmpty());
    }

    void quitAndCloseTabAskForUnsavedResults()
    {
        QTemporaryDir dir;
        RecentFiles().clear();
        auto w = std::make_unique<MainWindow>(); // interactive: the questions are asked
        w->show();
        WhatIfController* c = w->whatIf();
        QSignalSpy opened(c, &WhatIfController::resultOpened);
        c->run(replayOf("unsaved", demoTrace("stencil2d-9")));
        QVERIFY(opened.wait(60000));
        const int tab = opened.front().at(1).toInt();

        // Close Tab on the unsaved result: asked; Cancel keeps it.
        bool asked = false;
        answerNextBox("closeTabBox", QMessageBox::Cancel, &asked);
        w->tabs()->setCurrentIndex(tab);
        w->actions()->closeTab()->trigger();
        QVERIFY(asked);
        QCOMPARE(w->tabs()->count(), 2);

        // Quit: asked; Cancel keeps the window.
        asked = false;
        answerNextBox("quitBox", QMessageBox::Cancel, &asked);
        QVERIFY(!w->close());
        QVERIFY(asked);
        QVERIFY(w->isVisible());

        // Closing a trace tab (nothing lost) asks nothing.
        w->tabs()->setCurrentIndex(0);
        QVERIFY(w->document(0));
        w->actions()->closeTab()->trigger();
        QCOMPARE(w->tabs()->count(), 1);

        // Once saved, Quit asks nothing.
        QVERIFY(w->saveSession(dir.filePath("s.rsession")));
        QVERIFY(w->sessions()->unsavedWork().isEmpty());
        QVERIFY(w->close());
        QVERIFY(!w->isVisible());
    }

    void commandLineRestoresSessionToScreenshots()
    {
        // Two traces and an unsaved replay of the first: three tabs, four PNGs (the replay's
        // tab once more with its network pane).
        QTemporaryDir dir;
        Session s;
        s.traces = {demoTrace("stencil2d-9").toStdString(),
                    demoTrace("stencil2d-16").toStdString()};
        s.results = {replayOf("quick", demoTrace("stencil2d-9"))};
        const QString file = dir.filePath("cli.rsession");
        s.save(file.toStdString());
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        gui.setProcessEnvironment(env);
        const QString out = dir.filePath("shots");
        gui.start(RANKSCOPE_GUI, {"--session", file, "--screenshot-dir", out});
        QVERIFY(gui.waitForFinished(240000));
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
        QStringList pngs = QDir(out).entryList({"*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(pngs, QStringList({"01-stencil2d-9.png", "02-stencil2d-16.png",
                                    "03-what-if-quick-network.png", "03-what-if-quick.png"}));
        for (const QString& p : pngs) {
            const QImage img(QDir(out).filePath(p));
            QCOMPARE(img.size(), QSize(1920, 1080)); // the default size
        }
    }
};

QTEST_MAIN(TestSessionTabs)
#include "tst_sessiontabs.moc"
