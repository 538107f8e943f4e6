// The memory check before an import or a generation (model/support/memorybudget.h): sizes read and
// printed, the estimates against counts derived by hand from the generator's patterns, refusal
// when the available figure is small (given as a parameter, or through the environment variable
// RANKSCOPE_AVAILABLE_MEMORY to the command-line tool), and no refusal at normal sizes.
//
// Event counts (see model/generator/alltoallpattern.h and pingpongpattern.h): per rank a 14-event
// frame (PROGRAM_BEGIN, Enter main, Enter MPI_Init, its collective begin, COMM_CREATE, collective
// end, Leave MPI_Init, and the mirror image around MPI_Finalize) plus per iteration
//  - alltoall: Enter/Leave iteration (2), three compute regions (6), MPI_Allreduce, MPI_Alltoall
//    and MPI_Alltoallv with Enter, collective begin, collective end, Leave each (12): 20 events;
//    every collective is on MPI_COMM_WORLD, so members = ranks x (2 + 3 x iterations);
//  - pingpong: 12 events, one message per rank (each rank of a pair sends once).
// Estimates (memorybudget.h): generation 9 bytes per event + 36 per message + 80 per collective
// member + 2560 per rank; import 8,000,000 + 16 per event + 2560 per location.

#include "importers/otf2/otf2reader.h"
#include "importers/otf2/otf2writer.h"
#include "model/generator/tracegenerator.h"
#include "model/support/memorybudget.h"
#include "model/trace/traceerror.h"
#include "testsupport/clirunner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace rankscope;

namespace {

GeneratorOptions alltoall(uint32_t ranks, uint32_t iterations)
{
    GeneratorOptions o;
    o.pattern = "alltoall";
    o.ranks = ranks;
    o.iterations = iterations;
    return o;
}

/// The message of the TraceError `f` throws, or empty when it throws none.
template <class F> std::string errorOf(F&& f)
{
    try {
        f();
    } catch (const TraceError& e) {
        return e.what();
    }
    return {};
}

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv
{
public:
    ScopedEnv(const char* name, const QByteArray& value) : name_(name) { qputenv(name_, value); }
    ~ScopedEnv() { qunsetenv(name_); }

private:
    const char* name_;
};

using rankscope::test::runCli;

} // namespace

class TestMemoryBudget : public QObject
{
    Q_OBJECT
private slots:
    void parseSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qulonglong>("bytes"); // 0: not a size
        QTest::newRow("plain") << "123" << qulonglong(123);
        QTest::newRow("M") << "512M" << qulonglong(512'000'000);
        QTest::newRow("GB with space") << "24 GB" << qulonglong(24'000'000'000);
        QTest::newRow("lower case") << "12kb" << qulonglong(12'000);
        QTest::newRow("fraction GiB") << "1.5GiB" << qulonglong(1'610'612'736); // 1.5 x 2^30
        QTest::newRow("TiB") << "2TiB" << qulonglong(2'199'023'255'552);        // 2 x 2^40
        QTest::newRow("empty") << "" << qulonglong(0);
        QTest::newRow("word") << "lots" << qulonglong(0);
        QTest::newRow("negative") << "-1G" << qulonglong(0);
        QTest::newRow("unknown unit") << "5X" << qulonglong(0);
    }
    void parseSizes()
    {
        QFETCH(QString, text);
        QFETCH(qulonglong, bytes);
        const auto parsed = parseMemorySize(text.toStdString());
        if (bytes == 0) {
            QVERIFY(!parsed);
        } else {
            QVERIFY(parsed);
            QCOMPARE(qulonglong(*parsed), bytes);
        }
    }

    void formatSizes()
    {
        QCOMPARE(formatMemorySize(999), std::string("999 B"));
        QCOMPARE(formatMemorySize(30'736), std::string("30.7 kB"));
        QCOMPARE(formatMemorySize(1'000'000), std::string("1 MB"));
        QCOMPARE(formatMemorySize(950'000'000), std::string("950 MB"));
        QCOMPARE(formatMemorySize(41'200'000'000), std::string("41.2 GB"));
        QCOMPARE(formatMemorySize(22'949'999'999), std::string("22.9 GB"));
    }

    void requireNamesBothFigures()
    {
        const std::string e =
            errorOf([] { requireMemory("big.otf2: importing", 41'200'000'000, 22'900'000'000); });
        QVERIFY2(e.find("big.otf2: importing needs about 41.2 GB of memory, 22.9 GB available") ==
                     0,
                 e.c_str());
        QVERIFY2(e.find("RANKSCOPE_AVAILABLE_MEMORY") != std::string::npos, e.c_str());
        QVERIFY(errorOf([] { requireMemory("x", 100, 100); }).empty());          // fits exactly
        QVERIFY(errorOf([] { requireMemory("x", 100, std::nullopt); }).empty()); // unknown
    }

    void availableFromEnvironment()
    {
        {
            ScopedEnv env(kAvailableMemoryVariable, "3G");
            QCOMPARE(availableMemoryBytes(), std::optional<uint64_t>(3'000'000'000));
        }
        {
            ScopedEnv env(kAvailableMemoryVariable, "plenty");
            const std::string e = errorOf([] { availableMemoryBytes(); });
            QVERIFY2(e.find("RANKSCOPE_AVAILABLE_MEMORY='plenty' is not a size") == 0, e.c_str());
        }
        // Without the variable the system's figure: some memory, less than 2^50 bytes.
        const auto system = availableMemoryBytes();
        QVERIFY(system);
        QVERIFY(*system > 0 && *system < (uint64_t(1) << 50));
    }

    void generatorEstimate_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<uint32_t>("ranks");
        QTest::addColumn<uint32_t>("iterations");
        QTest::addColumn<qulonglong>("events");
        QTest::addColumn<qulonglong>("messages");
        QTest::addColumn<qulonglong>("members");
        QTest::addColumn<qulonglong>("bytes");
        // 8 x (14 + 3 x 20) = 592 events; 8 x (2 + 3 x 3) = 88 members;
        // 592 x 9 + 88 x 80 + 8 x 2560 = 5328 + 7040 + 20480 = 32848.
        QTest::newRow("alltoall 8 x 3") << "alltoall" << 8u << 3u << qulonglong(592)
                                        << qulonglong(0) << qulonglong(88) << qulonglong(32'848);
        // 1M ranks: 2^20 x 34 = 35,651,584 events, 2^20 x 5 = 5,242,880 members;
        // 320,864,256 + 419,430,400 + 2,684,354,560 = 3,424,649,216.
        QTest::newRow("alltoall 2^20 x 1")
            << "alltoall" << (1u << 20) << 1u << qulonglong(35'651'584) << qulonglong(0)
            << qulonglong(5'242'880) << qulonglong(3'424'649'216);
        // 4 x (14 + 5 x 12) = 296 events, 4 x 5 = 20 messages, 4 x 2 = 8 members (Init and
        // Finalize); 296 x 9 + 20 x 36 + 8 x 80 + 4 x 2560 = 2664 + 720 + 640 + 10240 = 14264.
        QTest::newRow("pingpong 4 x 5") << "pingpong" << 4u << 5u << qulonglong(296)
                                        << qulonglong(20) << qulonglong(8) << qulonglong(14'264);
    }
    void generatorEstimate()
    {
        QFETCH(QString, pattern);
        QFETCH(uint32_t, ranks);
        QFETCH(uint32_t, iterations);
        QFETCH(qulonglong, events);
        QFETCH(qulonglong, messages);
        QFETCH(qulonglong, members);
        QFETCH(qulonglong, bytes);
        GeneratorOptions o = alltoall(ranks, iterations);
        o.pattern = pattern.toStdString();
        const GeneratorShape shape = generatorShape(o);
        QCOMPARE(qulonglong(shape.totalEvents()), events);
        QCOMPARE(qulonglong(shape.messages), messages);
        QCOMPARE(qulonglong(shape.collectiveMembers), members);
        QCOMPARE(qulonglong(shape.memoryBytes()), bytes);
    }

    void generatorRefusesBeyondAvailable()
    {
        GeneratorOptions o = alltoall(8, 3);
        o.availableMemory = 10'000;
        const std::string e = errorOf([&] { generateTrace(o); });
        QVERIFY2(e.find("generating 592 events on 8 ranks needs about 32.8 kB of memory, "
                        "10 kB available") == 0,
                 e.c_str());
        o.availableMemory = 32'848; // exactly the estimate: fits
        QCOMPARE(generateTrace(o).eventCount(), uint64_t(592));
        o.availableMemory = 1;
        o.checkMemory = false;
        QCOMPARE(generateTrace(o).eventCount(), uint64_t(592));
    }

    void importRefusesBeyondAvailable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GeneratorOptions g = alltoall(4, 5);
        g.pattern = "pingpong";
        writeOtf2(generateTrace(g), dir.path().toStdString());
        const std::string anchor = (dir.path() + "/traces.otf2").toStdString();

        // 8,000,000 + 296 x 16 + 4 x 2560 = 8,014,976 bytes.
        Otf2ReadOptions read;
        read.availableMemory = 8'014'975;
        const std::string e = errorOf([&] { readOtf2(anchor, read); });
        QVERIFY2(e.find(anchor + ": importing 296 events needs about 8.01 MB of memory, 8.01 MB "
                                 "available") == 0,
                 e.c_str());
        read.availableMemory = 8'014'976;
        QCOMPARE(readOtf2(anchor, read).eventCount(), uint64_t(296));
        read.availableMemory = 1;
        read.checkMemory = false;
        QCOMPARE(readOtf2(anchor, read).eventCount(), uint64_t(296));
        // Normal size, the system's figure: imported.
        QCOMPARE(readOtf2(anchor).eventCount(), uint64_t(296));
    }

    void cliRefusesBeforeWork()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.path() + "/gen";
        const QStringList generate = {"generate",     "--pattern", "alltoall", "--ranks", "8",
                                      "--iterations", "3",         "-o",       out,       "-q"};
        {
            ScopedEnv env(kAvailableMemoryVariable, "10k");
            const auto r = runCli(generate);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("generating 592 events on 8 ranks needs about 32.8 kB of "
                                    "memory, 10 kB available"),
                     r.err.constData());
            QVERIFY(!QFileInfo::exists(out + "/traces.otf2"));
        }
        {
            // A million ranks are refused from the options alone, in well under the time
            // generating them would take.
            ScopedEnv env(kAvailableMemoryVariable, "1G");
            QElapsedTimer timer;
            timer.start();
            const auto r = runCli({"generate", "--pattern", "alltoall", "--ranks", "1048576",
                                   "--iterations", "1", "-o", out});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("generating 35651584 events on 1048576 ranks needs about "
                                    "3.42 GB of memory, 1 GB available"),
                     r.err.constData());
            QVERIFY2(timer.elapsed() < 20'000, QByteArray::number(timer.elapsed()).constData());
        }
        const auto made = runCli(generate); // the system's figure: generated
        QCOMPARE(made.exitCode, 0);
        {
            ScopedEnv env(kAvailableMemoryVariable, "10k");
            const auto r = runCli({"info", out});
            QCOMPARE(r.exitCode, 1);
            // 8,000,000 + 592 x 16 + 8 x 2560 = 8,029,952 bytes.
            QVERIFY2(r.err.contains("/traces.otf2: importing 592 events needs about 8.03 MB of "
                                    "memory, 10 kB available"),
                     r.err.constData());
        }
        {
            ScopedEnv env(kAvailableMemoryVariable, "not a size");
            const auto r = runCli({"info", out});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("RANKSCOPE_AVAILABLE_MEMORY='not a size' is not a size"),
                     r.err.constData());
        }
        QCOMPARE(runCli({"info", out}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
