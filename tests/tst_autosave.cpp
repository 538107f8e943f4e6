// Autosave (app/autosave.h) with several instances: each window has its own file, a clean exit
// removes only its own, and the file of an instance that died is offered back at the next
// start, restored and only then deleted. Other instances are real processes: this test
// program started again in a child mode (see main) that autosaves a scenario and then either
// dies by SIGKILL or waits for its standard input to close and exits cleanly.

#include "app/autosave.h"
#include "app/mainwindow.h"
#include "app/session.h"
#include "app/whatifcontroller.h"
#include "testsupport/modalanswer.h"

#include <QApplication>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

using namespace rankscope;

namespace {

const char* const kChildMode = "RANKSCOPE_TEST_AUTOSAVE_CHILD"; // "crash" or "live"

whatif::Scenario work(const std::string& name)
{
    whatif::Scenario s;
    s.name = name;
    s.baselines = {"/nowhere/trace"};
    s.network = "/nowhere/spec.yaml";
    return s;
}

std::vector<std::string> scenarioNames(const QString& sessionFile)
{
    std::vector<std::string> names;
    for (const whatif::Scenario& s :
         Session::load(QFile::encodeName(sessionFile).toStdString()).scenarios)
        names.push_back(s.name);
    return names;
}

/// The other instance: autosaves the scenario "work of <pid>", prints the file's path, then
/// dies at once ("crash") or exits cleanly when its standard input closes ("live").
int childInstance(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_autosave"));
    const QByteArray mode = qgetenv(kChildMode);
    Autosave autosave;
    Session s;
    s.scenarios = {work("work of " + std::to_string(::getpid()))};
    autosave.write(s);
    std::cout << autosave.path().toStdString() << std::endl;
    if (mode == "crash") ::kill(::getpid(), SIGKILL);
    std::string line;
    while (std::getline(std::cin, line)) {
    }
    autosave.discard();
    return 0;
}

/// Starts a child instance and returns its autosave's path once written, and its process id.
QString startChild(QProcess& p, const char* mode, qint64* pid = nullptr)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kChildMode), QString::fromLatin1(mode));
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), {});
    if (!p.waitForStarted(10000)) return {};
    if (pid) *pid = p.processId();
    while (!p.canReadLine())
        if (!p.waitForReadyRead(20000)) return {};
    return QString::fromLocal8Bit(p.readLine()).trimmed();
}

} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(data_.isValid());
        // Children inherit this: every instance here shares one autosave folder, away from
        // the user's.
        qputenv("XDG_DATA_HOME", QFile::encodeName(data_.path()));
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_autosave"));
    }

    void eachWindowHasItsOwnFile()
    {
        QString pathA;
        {
            MainWindow a;
            {
                MainWindow b;
                a.whatIf()->setScenarios({work("A's work")}); // a scenario change autosaves
                b.whatIf()->setScenarios({work("B's work")});
                pathA = a.autosavePath();
                const QString pathB = b.autosavePath();
                QVERIFY(!pathA.isEmpty() && !pathB.isEmpty() && pathA != pathB);
                QCOMPARE(scenarioNames(pathA), std::vector<std::string>{"A's work"});
                QCOMPARE(scenarioNames(pathB), std::vector<std::string>{"B's work"});
                // Both are alive: nothing to offer to a third start.
                QVERIFY(Autosave().claimOrphans().isEmpty());

                // B exits cleanly (its unsaved scenario discarded at the prompt): only its own
                // file goes.
                bool asked = false;
                test::answerNextBox("quitBox", QMessageBox::Discard, &asked);
                QVERIFY(b.close());
                QVERIFY(asked);
                QVERIFY(!QFileInfo::exists(pathB));
                QCOMPARE(scenarioNames(pathA), std::vector<std::string>{"A's work"});
                QVERIFY(Autosave().claimOrphans().isEmpty());
            }
            QVERIFY(QFileInfo::exists(pathA));
        }
        QVERIFY(!QFileInfo::exists(pathA));
    }

    void liveProcessKeepsItsFile()
    {
        QProcess child;
        const QString path = startChild(child, "live");
        QVERIFY2(!path.isEmpty(), qPrintable(child.readAllStandardError()));
        {
            MainWindow window;
            window.whatIf()->setScenarios({work("mine")});
            QVERIFY(window.claimCrashedSessions().isEmpty()); // the child holds its lock
            bool asked = false;
            test::answerNextBox("quitBox", QMessageBox::Discard, &asked);
            QVERIFY(window.close());
            QVERIFY(asked);
        }
        QVERIFY(QFileInfo::exists(path)); // our clean exit left the child's work alone
        child.closeWriteChannel();
        QVERIFY(child.waitForFinished(20000));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 0);
        QVERIFY(!QFileInfo::exists(path)); // its own clean exit removed it
    }

    void crashedInstanceIsOfferedBack()
    {
        QProcess child;
        qint64 pid = 0;
        const QString path = startChild(child, "crash", &pid);
        QVERIFY2(!path.isEmpty(), qPrintable(child.readAllStandardError()));
        QVERIFY(child.waitForFinished(20000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const std::string name = "work of " + std::to_string(pid);
        QVERIFY(QFileInfo::exists(path));
        QVERIFY(QFileInfo::exists(path + QStringLiteral(".lock"))); // dead, but still there

        MainWindow window;
        QCOMPARE(window.claimCrashedSessions(), QStringList{path});
        QVERIFY(Autosave().claimOrphans().isEmpty()); // claimed: no other start offers it
        QSignalSpy restored(&window, &MainWindow::sessionRestored);
        QVERIFY(window.recoverSession(path));
        QVERIFY(restored.count() == 1 || restored.wait(20000));
        QCOMPARE(window.whatIf()->scenarios().size(), size_t(1));
        QCOMPARE(window.whatIf()->scenarios().front().name, name);
        // In this window's own autosave now, so the crashed one is gone.
        QCOMPARE(scenarioNames(window.autosavePath()), std::vector<std::string>{name});
        QVERIFY(!QFileInfo::exists(path));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".lock")));
    }

    void notNowKeepsDiscardRemoves()
    {
        QProcess child;
        const QString path = startChild(child, "crash");
        QVERIFY(!path.isEmpty());
        QVERIFY(child.waitForFinished(20000));
        {
            Autosave first;
            QCOMPARE(first.claimOrphans(), QStringList{path});
            first.releaseOrphan(path, false); // "Not Now"
        }
        QVERIFY(QFileInfo::exists(path));
        Autosave second;
        QCOMPARE(second.claimOrphans(), QStringList{path}); // offered again
        second.releaseOrphan(path, true);                   // "Discard"
        QVERIFY(!QFileInfo::exists(path));
        QVERIFY(Autosave().claimOrphans().isEmpty());
    }

private:
    QTemporaryDir data_;
};

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet(kChildMode)) return childInstance(argc, argv);
    QApplication app(argc, argv);
    TestAutosave test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_autosave.moc"
