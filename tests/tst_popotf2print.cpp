// An independent check of the POP load balance and parallel efficiency (whatif/pop/popmetrics.h)
// on two checked-in traces: the expected values are computed here from otf2-print's ENTER and
// LEAVE records alone (no Rankscope reader, no call records), and must agree within 0.5 %.
//
// From the text, per location (one per rank in these traces): the span starts at the latest
// LEAVE of MPI_Init and each rank ends at its LEAVE of MPI_Finalize; U(r) is the rank's time
// from the span start to its end minus the time inside outermost MPI_* regions, clipped to that
// window. LB = mean U / max U, PE = LB x CommE = mean U / T with T = latest end - span start.
// Timestamps are timer ticks: ratios of durations do not depend on the tick length.

#include "importers/tracefile.h"
#include "testsupport/testpaths.h"
#include "whatif/pop/popmetrics.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <algorithm>
#include <map>
#include <numeric>

using namespace rankscope;

namespace {

struct Location
{
    int depth = 0; // nesting of MPI regions
    int64_t mpiEnter = 0;
    int64_t initLeave = -1;
    int64_t end = -1;
    std::vector<std::pair<int64_t, int64_t>> mpi; // outermost MPI calls
};

struct Expected
{
    double lb = 0;
    double pe = 0;
};

Expected fromOtf2Print(const QString& anchor)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("otf2-print"));
    QProcess p;
    p.start(tool, {anchor});
    p.waitForFinished(120000);
    std::map<int, Location> locs;
    const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
    for (const QByteArray& line : lines) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 5 || (f[0] != "ENTER" && f[0] != "LEAVE")) continue;
        const int loc = f[1].toInt();
        const int64_t t = f[2].toLongLong();
        const int q = line.indexOf('"');
        const QByteArray region = line.mid(q + 1, line.indexOf('"', q + 1) - q - 1);
        if (!region.startsWith("MPI_")) continue;
        Location& l = locs[loc];
        if (f[0] == "ENTER") {
            if (l.depth++ == 0) l.mpiEnter = t;
            continue;
        }
        if (--l.depth == 0) l.mpi.push_back({l.mpiEnter, t});
        if (region == "MPI_Init" && l.initLeave < 0) l.initLeave = t;
        if (region == "MPI_Finalize") l.end = t;
    }
    int64_t start = 0, finish = 0;
    for (const auto& [id, l] : locs) {
        start = std::max(start, l.initLeave);
        finish = std::max(finish, l.end);
    }
    std::vector<double> u;
    for (const auto& [id, l] : locs) {
        int64_t inMpi = 0;
        for (const auto& [b, e] : l.mpi)
            inMpi += std::max<int64_t>(0, std::min(e, l.end) - std::max(b, start));
        u.push_back(double(l.end - start - inMpi));
    }
    const double mean = std::accumulate(u.begin(), u.end(), 0.0) / double(u.size());
    const double max = *std::max_element(u.begin(), u.end());
    return {mean / max, mean / double(finish - start)};
}

} // namespace

class TestPopOtf2Print : public QObject
{
    Q_OBJECT

private slots:
    void agreesWithOtf2Print_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("late sender") << QStringLiteral("casita-mpi-late-sender-barrier-4r");
        QTest::newRow("stencil 9") << QStringLiteral("stencil2d-9");
    }

    void agreesWithOtf2Print()
    {
        QFETCH(QString, name);
        if (QStandardPaths::findExecutable(QStringLiteral("otf2-print")).isEmpty())
            QSKIP("otf2-print (otf2-tools) is not installed");
        const QString anchor = test::checkedInTraceAnchor(name);
        QVERIFY2(!anchor.isEmpty(), qPrintable(name + " is not checked in"));
        const Expected e = fromOtf2Print(anchor);
        QVERIFY(e.lb > 0 && e.lb <= 1 && e.pe > 0 && e.pe <= 1);
        const Trace trace = readTraceFile(anchor.toStdString());
        const pop::RunMetrics m = pop::runMetrics(trace, name.toStdString());
        const auto within = [](double actual, double expected) {
            return std::abs(actual - expected) <= 0.005 * expected;
        };
        QVERIFY2(within(m.loadBalance, e.lb),
                 qPrintable(QString("LB %1, otf2-print %2").arg(m.loadBalance).arg(e.lb)));
        QVERIFY2(within(m.parallelEfficiency, e.pe),
                 qPrintable(QString("PE %1, otf2-print %2").arg(m.parallelEfficiency).arg(e.pe)));
    }
};

QTEST_GUILESS_MAIN(TestPopOtf2Print)
#include "tst_popotf2print.moc"
