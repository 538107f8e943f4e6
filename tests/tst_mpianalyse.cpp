// `rankscope-mpi analyse` under mpirun at 1 and 2 processes against the desktop's
// `rankscope-cli profile --json`, `intervals --json`, `waitstates --json` and `rootcause --json`
// on checked-in traces: the MPI back end must give the same results (integers equal, floating
// point within 1e-9 relative), as the parallel analysis is the desktop's per-rank analyses and
// merges fed with blocks of ranks, and its wait states and root causes the desktop's rules fed
// with the partner facts exchanged between processes (parallel replay).
// Registered only when CMake found MPI (tests/CMakeLists.txt).

#include "testsupport/clirunner.h"
#include "testsupport/testpaths.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unistd.h>

using nlohmann::json;
using rankscope::test::CliResult;
using rankscope::test::runCli;
using rankscope::test::runProgram;

namespace {

/// Runs rankscope-mpi with `args` on `processes` processes.
CliResult runMpi(int processes, const QStringList& args)
{
    QStringList all{QStringLiteral(RANKSCOPE_MPIEXEC_NUMPROC_FLAG), QString::number(processes)};
#ifdef RANKSCOPE_MPIEXEC_OPENMPI
    // More processes than cores on a small machine; root in containers.
    all << "--oversubscribe";
    if (geteuid() == 0) all << "--allow-run-as-root";
#endif
    all << QStringLiteral(RANKSCOPE_MPI) << args;
    // Under the sanitizers, LeakSanitizer reports Open MPI's own allocations at exit (in
    // components it loaded and unloaded, so no frame names them for a suppression file): the
    // MPI processes run without leak checking, which the single-process tests of the same
    // analyses keep. A later option overrides an earlier one.
    const QByteArray asan = qgetenv("ASAN_OPTIONS");
    if (!asan.isEmpty() && !asan.endsWith("detect_leaks=0"))
        qputenv("ASAN_OPTIONS", asan + ":detect_leaks=0");
    return runProgram(QStringLiteral(RANKSCOPE_MPIEXEC), all);
}

json parse(const CliResult& r)
{
    return json::parse(r.out.toStdString(), nullptr, /*allow_exceptions=*/false);
}

/// Empty when `a` and `b` agree: same structure, keys and strings, equal integers (of the same
/// kind), floating-point numbers within 1e-9 relative. Else where they first differ.
std::string difference(const json& a, const json& b, const std::string& where)
{
    if (a.is_number_float() || b.is_number_float()) {
        if (!a.is_number() || !b.is_number()) return where + ": number vs. other";
        const double x = a.get<double>(), y = b.get<double>();
        const double scale = std::max(std::abs(x), std::abs(y));
        if (std::abs(x - y) > 1e-9 * scale)
            return where + ": " + std::to_string(x) + " vs. " + std::to_string(y);
        return {};
    }
    if (a.type() != b.type()) return where + ": " + a.type_name() + " vs. " + b.type_name();
    if (a.is_object()) {
        if (a.size() != b.size()) return where + ": different keys";
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key())) return where + ": no key " + it.key();
            const std::string d = difference(it.value(), b.at(it.key()), where + "." + it.key());
            if (!d.empty()) return d;
        }
        return {};
    }
    if (a.is_array()) {
        if (a.size() != b.size()) return where + ": arrays of different length";
        for (size_t i = 0; i < a.size(); ++i) {
            const std::string d = difference(a[i], b[i], where + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return {};
    }
    return a == b ? std::string() : where + ": " + a.dump() + " vs. " + b.dump();
}

} // namespace

class TestMpiAnalyse : public QObject
{
    Q_OBJECT

private slots:
    void sameAsDesktop_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("processes");
        for (const char* name :
             {"casita-mpi-late-sender-barrier-4r", "stencil2d-9", "tracer-stencil4d-64r"}) {
            for (int p : {1, 2})
                QTest::addRow("%s np %d", name, p) << QString(name) << p;
        }
    }

    void sameAsDesktop()
    {
        QFETCH(QString, trace);
        QFETCH(int, processes);
        const QString anchor = rankscope::test::checkedInTraceAnchor(trace);
        QVERIFY(!anchor.isEmpty());

        // A low hotspot threshold so that every trace charges some waiting to hotspots.
        const QString threshold = QStringLiteral("0.05");
        const CliResult profile = runCli({"profile", anchor, "--json"});
        const CliResult intervals = runCli({"intervals", anchor, "--json"});
        const CliResult waits = runCli({"waitstates", anchor, "--json"});
        const CliResult causes =
            runCli({"rootcause", anchor, "--json", "--hotspot-threshold", threshold});
        for (const CliResult* r : {&profile, &intervals, &waits, &causes})
            QVERIFY2(r->exitCode == 0, r->err.constData());
        const CliResult mpi = runMpi(processes, {"analyse", anchor, "--json", "--timings",
                                                 "--hotspot-threshold", threshold});
        QVERIFY2(mpi.exitCode == 0, mpi.err.constData());

        const json parallel = parse(mpi);
        QVERIFY(parallel.is_object());
        QCOMPARE(parallel.size(), size_t(4));
        const std::pair<const char*, const CliResult*> groups[] = {{"profile", &profile},
                                                                   {"intervals", &intervals},
                                                                   {"waitstates", &waits},
                                                                   {"rootcause", &causes}};
        for (const auto& [key, desktop] : groups) {
            // The envelope says what the desktop command read; the analyses are compared.
            json answer = parse(*desktop);
            answer.erase("inputs");
            answer.erase("partial");
            const std::string d = difference(answer, parallel.value(key, json()), key);
            QVERIFY2(d.empty(), d.c_str());
        }
        // Not a vacuous comparison: these traces wait, and some of it is explained (but for the
        // TraceR replay, which records MPI calls only: no function can be a hotspot).
        QVERIFY(parallel["waitstates"]["total_wait_ns"].get<int64_t>() > 0);
        if (!trace.startsWith("tracer-"))
            QVERIFY(parallel["rootcause"]["explained_ns"].get<int64_t>() > 0);

        // Every process reported its block of ranks; the blocks tile the ranks in order, each
        // process holding some (these traces have more ranks than processes).
        static const QRegularExpression row(R"(^\s*(\d+)\s+(\d+)\.\.(\d+)\s)",
                                            QRegularExpression::MultilineOption);
        const int ranks = parse(profile).at("ranks").get<int>();
        int next = 0, count = 0;
        for (auto it = row.globalMatch(QString::fromUtf8(mpi.err)); it.hasNext();) {
            const auto m = it.next();
            QCOMPARE(m.captured(1).toInt(), count++);
            QCOMPARE(m.captured(2).toInt(), next);
            QVERIFY(m.captured(3).toInt() > next);
            next = m.captured(3).toInt();
        }
        QCOMPARE(count, processes);
        QCOMPARE(next, ranks);
    }

    void summaryFileIsTheDesktops()
    {
        // `analyse -o` at 2 processes writes the same bytes as `rankscope-cli summarize -o`.
        const QString anchor = rankscope::test::checkedInTraceAnchor("stencil2d-9");
        QTemporaryDir dir;
        const QString desktop = dir.filePath("desktop.rsum"), parallel = dir.filePath("mpi.rsum");
        const CliResult d = runCli({"summarize", anchor, "-o", desktop});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        const CliResult p = runMpi(2, {"analyse", anchor, "-o", parallel});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        QFile a(desktop), b(parallel);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray bytes = a.readAll();
        QVERIFY(bytes.size() > 1000);
        QVERIFY(bytes == b.readAll());
        // A bad output name is refused before anything runs.
        const CliResult wrong = runMpi(1, {"analyse", anchor, "-o", dir.filePath("x.json")});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains(".rsum"), wrong.err.constData());
    }

    void missingTraceIsAClearError()
    {
        const CliResult r = runMpi(2, {"analyse", "/no/such/trace.otf2", "--json"});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("/no/such/trace.otf2: no such file or folder"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMpiAnalyse)
#include "tst_mpianalyse.moc"
