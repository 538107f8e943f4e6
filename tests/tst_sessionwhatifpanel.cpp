// A saved session brings the what-if panel back as it was (spec, edits, calibrated baseline,
// kind, inputs, target), so Run after reopening asks the same question; a bundled spec is saved
// by its name, never as a path into the build tree or an install prefix.

#include "app/mainwindow.h"
#include "app/session.h"
#include "app/sessioncontroller.h"
#include "app/whatifcontroller.h"
#include "testsupport/testpaths.h"
#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel.h"
#include "whatif/scenario/specfinder.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

class TestSessionWhatIfPanel : public QObject
{
    Q_OBJECT

    whatif::Scenario panelScenario(const QString& dir) const
    {
        whatif::Scenario s;
        s.name = "hdr latency";
        s.kind = whatif::ScenarioKind::Scale;
        s.baselines = {dir.toStdString() + "/a", dir.toStdString() + "/b",
                       dir.toStdString() + "/c"};
        s.target = 64;
        s.network = whatif::findNetworkSpec("ib-switch");
        s.baselineOverrides = {{"overhead.send", "1.5us"}, {"links.shm.latency", "0.7us"}};
        s.overrides = {{"links.hdr.latency", "5us"}};
        return s;
    }

private slots:
    void roundTripKeepsThePanel()
    {
        QTemporaryDir dir;
        Session s;
        s.panel = panelScenario(dir.path());
        const std::string yaml = s.toYaml(dir.path().toStdString());
        // The bundled spec by name; the inputs relative to the session's folder.
        QVERIFY2(yaml.find("network: ib-switch\n") != std::string::npos, yaml.c_str());
        QVERIFY(yaml.find("/resources/networks") == std::string::npos);
        QVERIFY(yaml.find(dir.path().toStdString()) == std::string::npos);
        const Session back = Session::parse(yaml, "test.rsession", dir.path().toStdString());
        QVERIFY(back.panel.has_value());
        whatif::Scenario expected = *s.panel;
        expected.network = "ib-switch";
        QCOMPARE(back.panel->baselines, expected.baselines);
        QVERIFY(*back.panel == expected);
        // And the name opens the same file the command line opens.
        QCOMPARE(whatif::findNetworkSpec(back.panel->network),
                 whatif::findNetworkSpec("ib-switch"));
    }

    void reopenedWindowShowsTheSamePanel()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("w.rsession");
        const whatif::Scenario s = panelScenario(dir.path());
        {
            MainWindow w;
            w.setInteractive(false);
            w.whatIf()->showScenario(s);
            QCOMPARE(w.whatIf()->panel()->scenario().overrides, s.overrides);
            QVERIFY(w.sessions()->saveSession(file));
        }
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("whatif:"));
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(w.sessions()->openSession(file));
        const whatif::Scenario shown = w.whatIf()->panel()->scenario();
        QCOMPARE(shown.kind, s.kind);
        QCOMPARE(shown.target, s.target);
        QCOMPARE(shown.baselines, s.baselines);
        QCOMPARE(shown.overrides, s.overrides);
        QCOMPARE(shown.baselineOverrides, s.baselineOverrides);
        // The calibrated values show in the spec tree as edits, with the file's value beside.
        const SpecItemModel* model = w.whatIf()->panel()->specModel();
        QVERIFY(model->isEdited("overhead.send"));
        const QModelIndex i = model->indexOfKey("overhead.send");
        QVERIFY(i.isValid());
        QVERIFY(i.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(i.data(Qt::ToolTipRole).toString().startsWith("calibrated"));
    }
};

QTEST_MAIN(TestSessionWhatIfPanel)
#include "tst_sessionwhatifpanel.moc"
