// End-to-end tests of `rankscope-cli commmatrix` and `rankscope-cli messages`: a hand-built
// trace written as OTF2 (cells worked out by hand), real Score-P traces against the messages
// otf2-print lists (sender location, receiver rank and length of every MPI_SEND and
// MPI_ISEND, counted per pair here), and bad usage.

#include "importers/otf2/otf2writer.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"
#include "testsupport/testpaths.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <utility>

using namespace rankscope;
using rankscope::test::CliResult;
using rankscope::test::jsonOf;
using rankscope::test::runCli;

namespace {

struct PairTotals
{
    qint64 count = 0;
    qint64 bytes = 0;
    bool operator==(const PairTotals&) const = default;
};
using PairMap = std::map<std::pair<int, int>, PairTotals>;

/// Per (sender, receiver): the messages otf2-print lists. In these traces each rank has one
/// location whose id is its rank, and every message is on MPI_COMM_WORLD (checked), so the
/// location is the sender's world rank and "Receiver:" the receiver's.
PairMap otf2PrintPairs(const QString& anchor)
{
    const CliResult p = test::runProgram(QStringLiteral("otf2-print"), {anchor});
    PairMap pairs;
    if (p.exitCode != 0) return pairs;
    static const QRegularExpression send(
        QStringLiteral("^MPI_I?SEND\\s+(\\d+)\\s+\\d+\\s+Receiver: (\\d+) .*Communicator: "
                       "\"([^\"]*)\".*Length: (\\d+)"));
    for (const QByteArray& line : p.out.split('\n')) {
        const QRegularExpressionMatch m = send.match(QString::fromUtf8(line));
        if (!m.hasMatch()) continue;
        if (m.captured(3) != QLatin1String("MPI_COMM_WORLD")) qFatal("not on MPI_COMM_WORLD");
        PairTotals& t = pairs[{m.captured(1).toInt(), m.captured(2).toInt()}];
        ++t.count;
        t.bytes += m.captured(4).toLongLong();
    }
    return pairs;
}

PairMap jsonPairs(const QJsonObject& o)
{
    PairMap pairs;
    for (const QJsonValue& v : o.value("cells").toArray()) {
        const QJsonObject c = v.toObject();
        pairs[{c.value("sender").toInt(), c.value("receiver").toInt()}] = {
            c.value("count").toInteger(), c.value("bytes").toInteger()};
    }
    return pairs;
}

/// Two ranks: 0 -> 1 sent at 20 (100 B) received at 60; 1 -> 0 sent at 80 (10 B) received at
/// 90; 0 -> 1 sent at 100 (50 B) received at 200. Written as OTF2 into `dir`.
QString writeTwoRanks(const QString& dir)
{
    test::TwoRanks t;
    auto send = [&t](LocationId l, int64_t at, uint32_t to, uint64_t bytes) {
        t.h.enter(l, at, t.send);
        t.h.builder().send(l, at, to, t.world, 0, bytes);
        t.h.leave(l, at + 5, t.send);
    };
    auto recv = [&t](LocationId l, int64_t at, uint32_t from, uint64_t bytes) {
        t.h.enter(l, at - 5, t.recv);
        t.h.builder().recv(l, at, from, t.world, 0, bytes);
        t.h.leave(l, at, t.recv);
    };
    send(t.r0, 20, 1, 100);
    recv(t.r1, 60, 0, 100);
    send(t.r1, 80, 0, 10);
    recv(t.r0, 90, 1, 10);
    send(t.r0, 100, 1, 50);
    recv(t.r1, 200, 0, 50);
    writeOtf2(t.end(300), dir.toStdString());
    return dir + QStringLiteral("/traces.otf2");
}

QJsonObject cellJson(int s, int r, int count, int bytes, double mean, int max)
{
    return {{"sender", s},    {"receiver", r},   {"count", count},
            {"bytes", bytes}, {"mean_ns", mean}, {"max_ns", max}};
}

} // namespace

class TestCliCommMatrix : public QObject
{
    Q_OBJECT

private slots:
    void handBuiltJson()
    {
        QTemporaryDir dir;
        const QString trace = writeTwoRanks(dir.filePath("two"));
        CliResult r = runCli({"commmatrix", trace, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("ranks").toInt(), 2);
        QCOMPARE(o.value("cells").toArray(),
                 (QJsonArray{cellJson(0, 1, 2, 150, 70.0, 100), cellJson(1, 0, 1, 10, 10.0, 10)}));

        // Only the sends in [50 ns, 150 ns): at 80 and 100.
        r = runCli({"commmatrix", trace, "--json", "--from", "50", "--to", "0.15us"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value("cells").toArray(),
                 (QJsonArray{cellJson(0, 1, 1, 50, 100.0, 100), cellJson(1, 0, 1, 10, 10.0, 10)}));

        r = runCli({"commmatrix", trace, "--csv"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("sender,receiver,count,bytes,mean_ns,max_ns\n"
                                   "0,1,2,150,70.0,100\n"
                                   "1,0,1,10,10.0,10\n"));

        r = runCli({"commmatrix", trace, "--metric", "bytes"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("150 B"), r.out.constData());

        r = runCli({"messages", trace, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = jsonOf(r);
        QCOMPARE(o.value("messages").toInt(), 3);
        const QJsonObject all = o.value("all").toObject();
        QCOMPARE(all.value("bytes").toInt(), 160);
        QCOMPARE(all.value("max_ns").toInt(), 100);
        // Sizes 100, 10, 50 B: bins [64, 128), [8, 16), [32, 64).
        QCOMPARE(all.value("size_bytes").toArray(),
                 (QJsonArray{QJsonObject{{"lower", 8}, {"upper", 16}, {"count", 1}},
                             QJsonObject{{"lower", 32}, {"upper", 64}, {"count", 1}},
                             QJsonObject{{"lower", 64}, {"upper", 128}, {"count", 1}}}));
        QCOMPARE(o.value("by_communicator").toArray().size(), 1);
    }

    void collectivesAndCsv()
    {
        // Two ranks: MPI_Bcast from rank 0 (64 B received by rank 1) over [20, 40], then one
        // MPI_Send 0 -> 1 of 8 B at 50, received at 70.
        test::TwoRanks t;
        const RegionId bcast = t.h.mpi("MPI_Bcast", RegionRole::MpiCollective);
        for (LocationId l : {t.r0, t.r1}) {
            const bool root = l == t.r0;
            t.h.enter(l, 20, bcast);
            t.h.builder().collectiveBegin(l, 20);
            t.h.builder().collectiveEnd(l, 40, CollectiveOp::Bcast, t.world, 0, root ? 64 : 0,
                                        root ? 0 : 64);
            t.h.leave(l, 40, bcast);
        }
        t.h.enter(t.r0, 50, t.send);
        t.h.builder().send(t.r0, 50, 1, t.world, 0, 8);
        t.h.leave(t.r0, 55, t.send);
        t.h.enter(t.r1, 60, t.recv);
        t.h.builder().recv(t.r1, 70, 0, t.world, 0, 8);
        t.h.leave(t.r1, 70, t.recv);
        QTemporaryDir dir;
        const QString out = dir.filePath("bcast");
        writeOtf2(t.end(100), out.toStdString());
        const QString trace = out + QStringLiteral("/traces.otf2");

        CliResult r = runCli({"commmatrix", trace, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value("cells").toArray(), (QJsonArray{cellJson(0, 1, 1, 8, 20.0, 20)}));
        // The Bcast adds one transfer of 64 B, without a transfer time.
        r = runCli({"commmatrix", trace, "--json", "--collectives"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value("cells").toArray(), (QJsonArray{cellJson(0, 1, 2, 72, 20.0, 20)}));

        // messages --csv: one row per non-empty bin (8 B in [8, 16), 20 ns in [16, 32),
        // 8 B / 20 ns = 4e8 B/s in [2^28, 2^29)), for all messages, the call site and the
        // communicator.
        r = runCli({"messages", trace, "--csv"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.value(0), QByteArray("group,name,histogram,lower,upper,count"));
        QCOMPARE(lines.value(1), QByteArray("all,all,size_bytes,8,16,1"));
        QCOMPARE(lines.value(2), QByteArray("all,all,transfer_ns,16,32,1"));
        QCOMPARE(lines.value(3), QByteArray("all,all,bandwidth_bytes_per_s,268435456,536870912,1"));
        QCOMPARE(lines.value(4), QByteArray("callsite,MPI_Send,size_bytes,8,16,1"));
        QCOMPARE(lines.size(), 10);
        QVERIFY(lines.value(7).startsWith("communicator,"));
    }

    void realTrace_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("casita-mpi-tags-10r") << QStringLiteral("casita-mpi-tags-10r");
        QTest::newRow("scorep84-npb-cg-S-4") << QStringLiteral("scorep84-npb-cg-S-4");
    }
    void realTrace()
    {
        QFETCH(QString, name);
        const QString anchor = test::sharedTraceAnchor(name);
        if (anchor.isEmpty()) QSKIP("the shared traces are not here");
        if (QStandardPaths::findExecutable(QStringLiteral("otf2-print")).isEmpty())
            QSKIP("otf2-print is not installed");
        const PairMap expected = otf2PrintPairs(anchor);
        QVERIFY(!expected.empty());
        const CliResult r = runCli({"commmatrix", anchor, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("unmatched").toInt(), 0);
        QCOMPARE(jsonPairs(o), expected);

        qint64 count = 0, bytes = 0;
        for (const auto& [pair, t] : expected) {
            count += t.count;
            bytes += t.bytes;
        }
        const CliResult m = runCli({"messages", anchor, "--json"});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        const QJsonObject all = jsonOf(m).value("all").toObject();
        QCOMPARE(all.value("count").toInteger(), count);
        QCOMPARE(all.value("bytes").toInteger(), bytes);
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown metric") << QStringList{"--metric", "latency"} << "--metric";
        QTest::newRow("from after to")
            << QStringList{"--from", "5ms", "--to", "1ms"} << "must be before --to";
        QTest::newRow("from equals to")
            << QStringList{"--from", "1ms", "--to", "1ms"} << "must be before --to";
        QTest::newRow("no unit") << QStringList{"--from", "1.5"} << "expected a time";
        QTest::newRow("json and csv") << QStringList{"--json", "--csv"} << "excludes";
    }
    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString trace =
            test::traceAnchor(QStringLiteral("casita-mpi-late-sender-barrier-4r"));
        const CliResult r = runCli(QStringList{"commmatrix", trace} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliCommMatrix)
#include "tst_clicommmatrix.moc"
