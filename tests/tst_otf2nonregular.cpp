// Archive files that are not what OTF2 expects must be named for what they are, never called
// missing, and never hang the import: global definitions of 50 MB of zeros, and a FIFO, a
// character device (/dev/zero linked in) or a folder where an event or definitions file
// belongs. The command-line tool runs with a timeout, so a hang fails instead of blocking.
//
// The archive: two ranks, each MPI_Init [0, 10], work [20, 120], MPI_Finalize [200, 210]:
// 6 events per rank, 12 in all; location 1 (rank 1) has traces/1.evt and traces/1.def.

#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "model/trace/traceerror.h"
#include "testsupport/clirunner.h"
#include "testsupport/handtrace.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace rankscope;

namespace {

constexpr int kTimeoutMs = 30000; // a hang is a failure, not a stuck test

test::CliResult runCli(const QStringList& args)
{
    return test::runProgram(QStringLiteral(RANKSCOPE_CLI), args, kTimeoutMs);
}

bool copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + src.mid(from.size());
        if (it.fileInfo().isDir() ? !QDir().mkpath(dst) : !QFile::copy(src, dst)) return false;
    }
    return true;
}

} // namespace

class TestOtf2NonRegular : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        test::HandTrace h;
        const LocationId l0 = h.addRank(), l1 = h.addRank();
        h.addWorld();
        const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
        const RegionId work = h.user("work");
        for (const LocationId l : {l0, l1}) {
            h.call(l, init, 0, 10);
            h.call(l, work, 20, 120);
            h.call(l, fin, 200, 210);
        }
        good_ = dir_.filePath(QStringLiteral("good"));
        writeOtf2(h.finish(), QFile::encodeName(good_).toStdString());
        for (const char* f : {"traces.otf2", "traces.def", "traces/1.evt", "traces/1.def"})
            QVERIFY2(QFile::exists(good_ + '/' + f), f);
        const test::CliResult r = runCli({QStringLiteral("info"), good_, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(test::jsonOf(r).value(QStringLiteral("events")).toInt(), 12);
    }

    void zeroGlobalDefinitions()
    {
        const QString archive = dir_.filePath(QStringLiteral("zeros"));
        QVERIFY(copyTree(good_, archive));
        QFile def(archive + QStringLiteral("/traces.def"));
        QVERIFY(def.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QByteArray megabyte(1 << 20, '\0');
        for (int i = 0; i < 50; ++i)
            QCOMPARE(def.write(megabyte), qint64(megabyte.size()));
        def.close();

        const QString expected = def.fileName() + ": not an OTF2 global definitions file";
        try {
            readOtf2((archive + QStringLiteral("/traces.otf2")).toStdString());
            QFAIL("50 MB of zeros were read as definitions");
        } catch (const TraceError& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.startsWith(expected), e.what());
            QVERIFY2(!m.contains(QStringLiteral("missing")), e.what());
        }
        const test::CliResult r = runCli({QStringLiteral("info"), archive});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
    }

    void nonRegularFiles_data()
    {
        QTest::addColumn<QString>("file"); // in the archive
        QTest::addColumn<QString>("kind"); // fifo, zero (a link to /dev/zero) or folder
        QTest::addColumn<QString>("said");
        QTest::addColumn<bool>("partialReadsRank0");
        QTest::newRow("event file is a FIFO") << "traces/1.evt"
                                              << "fifo"
                                              << "a FIFO (named pipe)" << true;
        QTest::newRow("event file is /dev/zero") << "traces/1.evt"
                                                 << "zero"
                                                 << "a character device" << true;
        QTest::newRow("event file is a folder") << "traces/1.evt"
                                                << "folder"
                                                << "a folder" << true;
        QTest::newRow("local definitions are a FIFO") << "traces/1.def"
                                                      << "fifo"
                                                      << "a FIFO (named pipe)" << true;
        QTest::newRow("global definitions are a FIFO") << "traces.def"
                                                       << "fifo"
                                                       << "a FIFO (named pipe)" << false;
    }

    void nonRegularFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QFETCH(bool, partialReadsRank0);
        const QString archive = dir_.filePath(QString::fromLatin1(QTest::currentDataTag()));
        QVERIFY(copyTree(good_, archive));
        const QString path = archive + '/' + file;
        QVERIFY(QFile::remove(path));
        if (kind == QLatin1String("fifo"))
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        else if (kind == QLatin1String("zero"))
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        else
            QVERIFY(QDir().mkdir(path));

        const test::CliResult r = runCli({QStringLiteral("info"), archive});
        QVERIFY2(r.exitCode != -1, "the import hung (killed after the timeout)");
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(path + QStringLiteral(": refused: ") + said +
                              QStringLiteral(", not a regular file")),
                 r.err.constData());
        QVERIFY2(!err.contains(QStringLiteral("missing")), r.err.constData());

        // --allow-partial leaves out what cannot be read and says so; rank 0 is whole.
        const test::CliResult p =
            runCli({QStringLiteral("info"), archive, QStringLiteral("--allow-partial"),
                    QStringLiteral("--json")});
        QVERIFY2(p.exitCode != -1, "the import hung (killed after the timeout)");
        if (!partialReadsRank0) {
            QCOMPARE(p.exitCode, 1);
            return;
        }
        QCOMPARE(p.exitCode, 0);
        const QJsonObject j = test::jsonOf(p);
        QCOMPARE(j.value(QStringLiteral("ranks")).toInt(), 2);
        QCOMPARE(j.value(QStringLiteral("events")).toInt(), 6);
        const QJsonArray warnings = j.value(QStringLiteral("warnings")).toArray();
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.at(0).toString().startsWith(path + QStringLiteral(": refused: ") + said));
    }

private:
    QTemporaryDir dir_;
    QString good_;
};

QTEST_GUILESS_MAIN(TestOtf2NonRegular)
#include "tst_otf2nonregular.moc"
