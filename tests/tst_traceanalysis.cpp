// The analysis pipeline every opened trace gets (model/analysis/traceanalysis.h), on a hand-built
// trace whose figures are hand sums: a late sender, the profile, the headline; its progress runs
// from 0 to 1 without going back, and a callback returning false stops it with Cancelled.

#include "model/analysis/traceanalysis.h"
#include "model/trace/traceerror.h"
#include "testsupport/handtrace.h"

#include <QTest>

using namespace rankscope;

namespace {

/// Rank 0: MPI_Init [0, 10], computes, MPI_Send of 64 bytes [600, 650], MPI_Finalize [700, 710].
/// Rank 1: MPI_Init [0, 10], MPI_Recv [100, 700] (the message arrives at 640), MPI_Finalize
/// [700, 710].
std::shared_ptr<const Trace> lateSender()
{
    test::HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank();
    const CommId world = h.addWorld();
    const RegionId init = h.mpi("MPI_Init"), fin = h.mpi("MPI_Finalize");
    const RegionId send = h.mpi("MPI_Send", RegionRole::MpiPointToPoint);
    const RegionId recv = h.mpi("MPI_Recv", RegionRole::MpiPointToPoint);
    h.call(r0, init, 0, 10);
    h.enter(r0, 600, send);
    h.builder().send(r0, 610, 1, world, 0, 64);
    h.leave(r0, 650, send);
    h.call(r0, fin, 700, 710);
    h.call(r1, init, 0, 10);
    h.enter(r1, 100, recv);
    h.builder().recv(r1, 640, 0, world, 0, 64);
    h.leave(r1, 700, recv);
    h.call(r1, fin, 700, 710);
    return std::make_shared<const Trace>(h.finish());
}

} // namespace

class TestTraceAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void figuresOfAHandTrace()
    {
        std::vector<double> seen;
        const TraceAnalysis a = analyseTrace(lateSender(), [&](double f) {
            seen.push_back(f);
            return true;
        });
        QVERIFY(a.trace && a.timeline && a.profile && a.waits && a.rootCauses && a.waitSummary);
        QVERIFY(a.callTree && a.criticalPath && a.messages);
        // The one message: 64 B sent at 610, received at 640 (30 ns: bin 5, [16, 32)).
        QCOMPARE(a.messages->all.count, 1u);
        QCOMPARE(a.messages->all.bytes, 64u);
        QCOMPARE(a.messages->all.maxNs, 30);
        QCOMPARE(a.messages->all.time.counts, (std::vector<uint64_t>{0, 0, 0, 0, 0, 1}));
        // Both ranks end at 710; the path starts on the lower one, rank 0, which never waited:
        // its whole run. The call tree's roots: MPI_Init, MPI_Send, MPI_Finalize, MPI_Recv.
        QCOMPARE(a.criticalPath->lengthNs, 710);
        QCOMPARE(a.criticalPath->byRank, (std::vector<int64_t>{710, 0}));
        QCOMPARE(a.callTree->roots.size(), size_t(4));
        // Late sender: rank 1 entered MPI_Recv at 100, the send started at 600: 500 ns.
        QCOMPARE(a.waits->totalNs, 500);
        QCOMPARE(a.waits->byPattern[size_t(WaitPattern::LateSender)], 500);
        QCOMPARE(a.waits->byRank.at(1), 500);
        QCOMPARE(a.waits->byRank.at(0), 0);
        // MPI time per rank: rank 0 10 + 50 + 10 = 70, rank 1 10 + 600 + 10 = 620.
        QCOMPARE(a.profile->ranks.at(0).mpiTime, 70);
        QCOMPARE(a.profile->ranks.at(1).mpiTime, 620);
        QCOMPARE(a.profile->mpiTimePerRank.min, 70);
        QCOMPARE(a.profile->mpiTimePerRank.max, 620);
        QCOMPARE(a.headline.ranks, uint64_t(2));
        QCOMPARE(a.headline.messages, uint64_t(1));
        QCOMPARE(a.headline.bytesSent, uint64_t(64));
        // Progress: from at least 0, never back, 1 at the end.
        QVERIFY(!seen.empty());
        QVERIFY(seen.front() >= 0.0);
        for (size_t i = 1; i < seen.size(); ++i)
            QVERIFY2(seen[i] >= seen[i - 1],
                     qPrintable(QString("%1 after %2").arg(seen[i]).arg(seen[i - 1])));
        QCOMPARE(seen.back(), 1.0);
    }

    void stopsWithCancelled_data()
    {
        QTest::addColumn<double>("stopAt");
        // In the summary, the profile, the call tree, the wait states, the critical path, the
        // root causes, and at the very end.
        for (double f : {0.0, 0.4, 0.5, 0.6, 0.8, 0.9, 1.0})
            QTest::newRow(qPrintable(QString::number(f))) << f;
    }

    void stopsWithCancelled()
    {
        QFETCH(double, stopAt);
        bool threw = false;
        try {
            analyseTrace(lateSender(), [&](double f) { return f < stopAt; });
        } catch (const Cancelled&) {
            threw = true;
        }
        QVERIFY(threw);
    }
};

QTEST_GUILESS_MAIN(TestTraceAnalysis)
#include "tst_traceanalysis.moc"
