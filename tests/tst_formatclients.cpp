// Real clients read every export of the real traces (../shared/traces): PajeNG's pj_dump reads
// each Paje export with as many states as the trace has Enter events written and as many links
// as matched messages, and Python's json module loads each Chrome export, whose complete events
// and flow starts are counted against the export's report. Each check is skipped when its
// client (pj_dump, python3) is not installed.

#include "importers/chrome/chromeexport.h"
#include "importers/otf2/otf2reader.h"
#include "importers/paje/pajeexport.h"
#include "testsupport/testpaths.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

/// Enter events on the locations the Paje export writes (main locations, and further ones
/// with events), and matched messages: counted from the model, not from the export.
std::pair<uint64_t, uint64_t> entersAndMessages(const Trace& t)
{
    uint64_t enters = 0, messages = 0;
    for (size_t l = 0; l < t.locations().size(); ++l) {
        const EventStream& es = t.events(LocationId(uint32_t(l)));
        for (size_t i = 0; i < es.size(); ++i)
            enters += es.kind(i) == EventKind::Enter ? 1 : 0;
    }
    for (const Message& m : t.messages())
        messages += m.matched() ? 1 : 0;
    return {enters, messages};
}

} // namespace

class TestFormatClients : public QObject
{
    Q_OBJECT

private slots:
    void realTraces_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList names = test::sharedTraceNames();
        if (names.isEmpty()) QTest::newRow("demo") << "casita-mpi-late-sender-barrier-4r";
        for (const QString& n : names)
            QTest::newRow(n.toUtf8().constData()) << n;
    }

    void realTraces()
    {
        QFETCH(QString, name);
        const QString anchor = test::traceAnchor(name);
        if (anchor.isEmpty()) QSKIP("the trace is not present");
        const Trace t = readOtf2(anchor.toStdString());
        const auto [enters, messages] = entersAndMessages(t);
        QTemporaryDir dir;

        const QString paje = dir.filePath(QStringLiteral("t.paje"));
        const PajeExportReport pr = writePajeTraceFile(t, paje.toStdString());
        QCOMPARE(pr.states, enters);
        QCOMPARE(pr.links, messages);
        const QString pjDump = QStandardPaths::findExecutable(QStringLiteral("pj_dump"));
        if (!pjDump.isEmpty()) {
            QProcess p;
            p.start(pjDump, {paje});
            QVERIFY(p.waitForFinished(600000));
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     p.readAllStandardError().constData());
            uint64_t states = 0, links = 0;
            for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
                states += line.startsWith("State, ") ? 1 : 0;
                links += line.startsWith("Link, ") ? 1 : 0;
            }
            QCOMPARE(states, enters);
            QCOMPARE(links, messages);
        }

        const QString chrome = dir.filePath(QStringLiteral("t.json"));
        const ChromeExportReport cr = writeChromeTraceFile(t, chrome.toStdString());
        QCOMPARE(cr.regionEvents, enters);
        QCOMPARE(cr.flows, messages);
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty()) QSKIP("python3 not installed: the Chrome JSON was not loaded");
        // Loads the file and prints its complete events of regions and its flow starts.
        QProcess p;
        p.start(python, {QStringLiteral("-c"),
                         QStringLiteral("import json,sys\n"
                                        "d = json.load(open(sys.argv[1], encoding='utf-8'))\n"
                                        "e = d['traceEvents'] if isinstance(d, dict) else d\n"
                                        "x = sum(1 for v in e if v.get('ph') == 'X' and "
                                        "v.get('cat') != 'wait_state')\n"
                                        "s = sum(1 for v in e if v.get('ph') == 's')\n"
                                        "print(x, s)\n"),
                         chrome});
        QVERIFY(p.waitForFinished(600000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 p.readAllStandardError().constData());
        const QList<QByteArray> counts = p.readAllStandardOutput().trimmed().split(' ');
        QCOMPARE(counts.size(), 2);
        QCOMPARE(counts[0].toULongLong(), enters);
        QCOMPARE(counts[1].toULongLong(), messages);
    }
};

QTEST_GUILESS_MAIN(TestFormatClients)
#include "tst_formatclients.moc"
