// The Chrome trace-event JSON export (importers/chrome/) and `rankscope-cli convert --to chrome`:
// a hand-built trace written and parsed back, against figures worked out by hand from its
// timestamps; names with bytes JSON cannot hold as they are; the demo trace checked by Python's
// json module and against otf2-print's count of ENTER records.

#include "importers/chrome/chromeexport.h"
#include "importers/chrome/chromejson.h"
#include "testsupport/clirunner.h"
#include "testsupport/handworld.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>
#include <sstream>

using namespace rankscope;
using rankscope::test::CliResult;
using rankscope::test::runCli;

namespace {

/// Quotes, a backslash, a newline, a control character, a valid two-byte character (µ) and a
/// byte that is not UTF-8 (0xFF).
const char kOddName[] = "say \"hi\" C:\\dir\nnext\x01 \xC2\xB5s \xff!";
/// How it reads back: the 0xFF byte is U+FFFD, everything else as it was.
const QString kOddNameBack = QStringLiteral("say \"hi\" C:\\dir\nnext\x01 \u00B5s \uFFFD!");

/// rank 0: MPI_Init [0,1000], the user region kOddName [1500,2500], MPI_Send to 1 [5000,5200]
///         (the message leaves at 5000), MPI_Barrier [7000,7600], MPI_Finalize [9000,9100];
/// rank 1: MPI_Init [0,1000], MPI_Recv from 0 [2001,6123] (arrives at 6123),
///         MPI_Barrier [6500,7600], MPI_Finalize [9000,9100].
/// Waits: rank 1 receives from 2001 while rank 0 sends only at 5000 (Late Sender, 2999 ns), and
/// enters the barrier at 6500, rank 0 at 7000 (Wait at Barrier, 500 ns).
Trace handTrace()
{
    test::HandWorld w(2);
    w.call(0, "MPI_Init", 0, 1000);
    w.h.call(w.loc[0], w.h.user(kOddName), 1500, 2500);
    w.send(0, 5000, 5200, 1);
    w.barrier(0, 7000, 7600);
    w.call(0, "MPI_Finalize", 9000, 9100);
    w.call(1, "MPI_Init", 0, 1000);
    w.recv(1, 2001, 6123, 0);
    w.barrier(1, 6500, 7600);
    w.call(1, "MPI_Finalize", 9000, 9100);
    return w.h.finish();
}

QJsonArray eventsOf(const QByteArray& json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) qWarning() << error.errorString() << error.offset;
    return doc.object().value(QLatin1String("traceEvents")).toArray();
}

QList<QJsonObject> select(const QJsonArray& events, const QString& ph, int pid = -1,
                          const QString& name = {})
{
    QList<QJsonObject> out;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("ph")).toString() != ph) continue;
        if (pid >= 0 && e.value(QLatin1String("pid")).toInt() != pid) continue;
        if (!name.isEmpty() && e.value(QLatin1String("name")).toString() != name) continue;
        out << e;
    }
    return out;
}

QList<QJsonObject> regionsOf(const QJsonArray& events, int pid)
{
    QList<QJsonObject> out;
    for (const QJsonObject& e : select(events, QStringLiteral("X"), pid))
        if (e.value(QLatin1String("cat")).toString() != QLatin1String("wait_state")) out << e;
    return out;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool validUtf8(const QByteArray& bytes)
{
    QStringDecoder decode(QStringDecoder::Utf8);
    const QString text = decode(bytes);
    return !decode.hasError();
}

double ts(const QJsonObject& e)
{
    return e.value(QLatin1String("ts")).toDouble();
}
double dur(const QJsonObject& e)
{
    return e.value(QLatin1String("dur")).toDouble();
}

} // namespace

class TestChromeExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        std::ostringstream text;
        const ChromeExportReport r = writeChromeTrace(handTrace(), text);
        json_ = QByteArray::fromStdString(text.str());
        QCOMPARE(r.regionEvents, uint64_t(9));
        QCOMPARE(r.waitEvents, uint64_t(2));
        QCOMPARE(r.flows, uint64_t(1));
        QCOMPARE(r.bytes, uint64_t(json_.size()));
    }

    void validUtf8Json()
    {
        QVERIFY(validUtf8(json_));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json_, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.object().value(QLatin1String("displayTimeUnit")).toString(), "ns");
    }

    void completeEventsPerRank()
    {
        const QJsonArray events = eventsOf(json_);
        // pid = rank + 1. Rank 0: Init, the odd region, Send, Barrier, Finalize; rank 1: Init,
        // Recv, Barrier, Finalize.
        QCOMPARE(regionsOf(events, 1).size(), 5);
        QCOMPARE(regionsOf(events, 2).size(), 4);
        // The main location of rank r is thread r + 1.
        for (const QJsonObject& e : regionsOf(events, 2))
            QCOMPARE(e.value(QLatin1String("tid")).toInt(), 2);
    }

    void timesInMicroseconds()
    {
        // MPI_Recv on rank 1: [2001, 6123] ns -> ts 2.001 us, dur 4.122 us.
        const QList<QJsonObject> recv = select(eventsOf(json_), "X", 2, "MPI_Recv");
        QCOMPARE(recv.size(), 1);
        QCOMPARE(ts(recv[0]), 2.001);
        QCOMPARE(dur(recv[0]), 4.122);
        QCOMPARE(recv[0].value(QLatin1String("cat")).toString(), "mpi");
        // The odd user region on rank 0: [1500, 2500] -> 1.5, 1.
        const QList<QJsonObject> odd = select(eventsOf(json_), "X", 1, kOddNameBack);
        QCOMPARE(odd.size(), 1);
        QCOMPARE(ts(odd[0]), 1.5);
        QCOMPARE(dur(odd[0]), 1.0);
        QCOMPARE(odd[0].value(QLatin1String("cat")).toString(), "user");
        // The raw text has the exact digits, not a rounded double.
        QVERIFY(json_.contains("{\"ts\":2.001,\"ph\":\"X\",\"dur\":4.122,"));
    }

    void messageFlow()
    {
        const QJsonArray events = eventsOf(json_);
        const QList<QJsonObject> s = select(events, "s");
        const QList<QJsonObject> f = select(events, "f");
        QCOMPARE(s.size(), 1);
        QCOMPARE(f.size(), 1);
        for (const char* key : {"id", "cat", "name"})
            QCOMPARE(s[0].value(QLatin1String(key)), f[0].value(QLatin1String(key)));
        QCOMPARE(f[0].value(QLatin1String("bp")).toString(), "e");
        // "s" on rank 0's MPI_Send [5, 5.2) at the send (5000 ns).
        const QJsonObject send = select(events, "X", 1, "MPI_Send").value(0);
        QCOMPARE(s[0].value(QLatin1String("pid")).toInt(), 1);
        QCOMPARE(s[0].value(QLatin1String("tid")), send.value(QLatin1String("tid")));
        QCOMPARE(ts(s[0]), 5.0);
        QVERIFY(ts(s[0]) >= ts(send) && ts(s[0]) < ts(send) + dur(send));
        QCOMPARE(s[0].value(QLatin1String("args")).toObject().value("bytes").toInt(), 8);
        // "f" on rank 1's MPI_Recv [2.001, 6.123): the message arrives at its Leave (6123), so
        // the event moves 1 ns into the call, 6.122.
        const QJsonObject recv = select(events, "X", 2, "MPI_Recv").value(0);
        QCOMPARE(f[0].value(QLatin1String("pid")).toInt(), 2);
        QCOMPARE(f[0].value(QLatin1String("tid")), recv.value(QLatin1String("tid")));
        QCOMPARE(ts(f[0]), 6.122);
        QVERIFY(ts(f[0]) >= ts(recv) && ts(f[0]) < ts(recv) + dur(recv));
    }

    void waitStates()
    {
        const QJsonArray events = eventsOf(json_);
        // Late Sender on rank 1: from the Recv's Enter (2001) to the Send's Enter (5000).
        const QList<QJsonObject> late = select(events, "X", 2, "Late Sender");
        QCOMPARE(late.size(), 1);
        QCOMPARE(late[0].value(QLatin1String("cat")).toString(), "wait_state");
        QCOMPARE(ts(late[0]), 2.001);
        QCOMPARE(dur(late[0]), 2.999);
        const QJsonObject args = late[0].value(QLatin1String("args")).toObject();
        QCOMPARE(args.value(QLatin1String("waited_ns")).toInteger(), 2999);
        QCOMPARE(args.value(QLatin1String("partner_rank")).toInteger(), 0);
        // Inside the waiting call.
        const QJsonObject recv = select(events, "X", 2, "MPI_Recv").value(0);
        QVERIFY(ts(late[0]) >= ts(recv) && ts(late[0]) + dur(late[0]) <= ts(recv) + dur(recv));
        // Wait at Barrier on rank 1: 6500 to 7000.
        const QList<QJsonObject> barrier = select(events, "X", 2, "Wait at Barrier");
        QCOMPARE(barrier.size(), 1);
        QCOMPARE(ts(barrier[0]), 6.5);
        QCOMPARE(dur(barrier[0]), 0.5);
        QCOMPARE(barrier[0]["args"].toObject()["partner_rank"].toInteger(), 0);
        // Rank 0 never waits.
        for (const QJsonObject& e : select(events, "X", 1))
            QVERIFY(e.value(QLatin1String("cat")).toString() != QLatin1String("wait_state"));
    }

    void metadataNames()
    {
        const QJsonArray events = eventsOf(json_);
        for (int rank = 0; rank < 2; ++rank) {
            const QList<QJsonObject> name = select(events, "M", rank + 1, "process_name");
            QCOMPARE(name.size(), 1);
            QCOMPARE(name[0]["args"].toObject()["name"].toString(), QString("Rank %1").arg(rank));
            const QList<QJsonObject> sort = select(events, "M", rank + 1, "process_sort_index");
            QCOMPARE(sort.size(), 1);
            QCOMPARE(sort[0]["args"].toObject()["sort_index"].toInt(), rank);
            QCOMPARE(select(events, "M", rank + 1, "thread_name").size(), 1);
        }
    }

    void jsonStrings()
    {
        std::string s;
        chrome::appendJsonString(s, kOddName);
        QCOMPARE(QByteArray::fromStdString(s),
                 QByteArray("\"say \\\"hi\\\" C:\\\\dir\\nnext\\u0001 \xC2\xB5s \xEF\xBF\xBD!\""));
        // Each byte outside a valid sequence is one U+FFFD: an overlong '/', a UTF-16
        // surrogate, a sequence cut short, a stray continuation byte; a 4-byte one stays.
        s.clear();
        chrome::appendJsonString(s, "\xC0\xAF|\xED\xA0\x80|\xE2\x82|\x80|\xF0\x9F\x98\x80");
        const QByteArray r = "\xEF\xBF\xBD";
        QCOMPARE(QByteArray::fromStdString(s),
                 "\"" + r + r + "|" + r + r + r + "|" + r + r + "|" + r + "|\xF0\x9F\x98\x80\"");
        for (const auto& [ns, text] : std::initializer_list<std::pair<int64_t, const char*>>{
                 {0, "0"},
                 {1, "0.001"},
                 {1500, "1.5"},
                 {2000, "2"},
                 {-1500, "-1.5"},
                 {1234567, "1234.567"},
                 {9'000'000'000'000'000'123, "9000000000000000.123"}}) {
            s.clear();
            chrome::appendMicros(s, ns);
            QCOMPARE(QString::fromStdString(s), QString::fromLatin1(text));
        }
    }

    void unclosedRegionEndsAtLastEvent()
    {
        // One rank: main entered at 0 and never left, MPI_Init [10, 20].
        test::HandTrace h;
        const LocationId l = h.addRank();
        h.addWorld();
        h.enter(l, 0, h.user("main"));
        h.call(l, h.mpi("MPI_Init"), 10, 20);
        std::ostringstream text;
        const ChromeExportReport r = writeChromeTrace(h.finish(), text);
        QCOMPARE(r.regionEvents, uint64_t(2));
        QCOMPARE(r.unclosedRegions, uint64_t(1));
        const QList<QJsonObject> main =
            select(eventsOf(QByteArray::fromStdString(text.str())), "X", 1, "main");
        QCOMPARE(main.size(), 1);
        QCOMPARE(dur(main[0]), 0.02);
        QCOMPARE(main[0]["args"].toObject()["unclosed"].toBool(), true);
    }

    void fileAndStreamAgree()
    {
        const QString path = dir_.filePath(QStringLiteral("hand.json"));
        writeChromeTraceFile(handTrace(), path.toStdString());
        QCOMPARE(readAll(path), json_);
        // Nothing but the file is left in the folder (the temporary file was renamed).
        QCOMPARE(QDir(dir_.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("hand.json")});
    }

    void demoTrace()
    {
        const QString demo =
            QStringLiteral(RANKSCOPE_SOURCE_DIR) +
            QStringLiteral("/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
        const QString out = dir_.filePath(QStringLiteral("demo.json"));
        const CliResult c = runCli({QStringLiteral("convert"), demo, QStringLiteral("-o"), out});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const QByteArray json = readAll(out);
        QVERIFY(validUtf8(json));
        const QJsonArray events = eventsOf(json);
        QVERIFY(!events.isEmpty());
        int regions = 0, waits = 0;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("ph")).toString() != QLatin1String("X")) continue;
            ++(e.value(QLatin1String("cat")).toString() == QLatin1String("wait_state") ? waits
                                                                                       : regions);
        }
        // otf2-print resources/demo/traces/casita-mpi-late-sender-barrier-4r/traces.otf2 |
        //   grep -c '^ENTER'
        QCOMPARE(regions, 48);
        // rankscope-cli waitstates resources/demo/traces/casita-mpi-late-sender-barrier-4r --json:
        // 3 Late Sender and 3 Wait at Barrier.
        QCOMPARE(waits, 6);
        QCOMPARE(select(events, "s").size(), 3); // the three MPI_SEND records
        QCOMPARE(select(events, "f").size(), 3);

        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty()) QSKIP("python3 not installed: the JSON was not checked by it");
        QProcess p;
        p.start(python, {QStringLiteral("-c"),
                         QStringLiteral("import json,sys; json.load(open(sys.argv[1], "
                                        "encoding='utf-8'))"),
                         out});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 p.readAllStandardError().constData());
    }

    void cliFormatChoice()
    {
        const QString demo =
            QStringLiteral(RANKSCOPE_SOURCE_DIR) +
            QStringLiteral("/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
        // --to chrome writes JSON whatever the name.
        const QString named = dir_.filePath(QStringLiteral("trace-out"));
        CliResult c = runCli({"convert", demo, "-o", named, "--to", "chrome"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY(QFileInfo(named).isFile());
        QVERIFY(!eventsOf(readAll(named)).isEmpty());
        // --to otf2 writes an archive even into a folder named .json.
        const QString folder = dir_.filePath(QStringLiteral("archive.json"));
        c = runCli({"convert", demo, "-o", folder, "--to", "otf2"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/traces.otf2")));
        // An unknown format is a usage error naming it.
        c = runCli({"convert", demo, "-o", dir_.filePath("x.json"), "--to", "vampir"});
        QCOMPARE(c.exitCode, 2);
        QVERIFY2(c.err.contains("--to") && c.err.contains("vampir"), c.err.constData());
        QVERIFY(!QFileInfo::exists(dir_.filePath("x.json")));
    }

    void cliUnwritableOutput()
    {
        const QString demo =
            QStringLiteral(RANKSCOPE_SOURCE_DIR) +
            QStringLiteral("/resources/demo/traces/casita-mpi-late-sender-barrier-4r");
        // A folder that does not exist, and a path that is a folder.
        for (const QString& out : {dir_.filePath(QStringLiteral("no/such/dir/out.json")),
                                   dir_.filePath(QStringLiteral("archive.json"))}) {
            QDir().mkpath(dir_.filePath(QStringLiteral("archive.json")));
            const CliResult c = runCli({"convert", demo, "-o", out});
            QCOMPARE(c.exitCode, 1);
            QVERIFY2(c.err.contains(out.toUtf8()) && c.err.contains("Chrome trace"),
                     c.err.constData());
        }
    }

private:
    QTemporaryDir dir_;
    QByteArray json_;
};

QTEST_GUILESS_MAIN(TestChromeExport)
#include "tst_chromeexport.moc"
