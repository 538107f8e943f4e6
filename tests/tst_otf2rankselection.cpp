// readOtf2 with Otf2ReadOptions::selectRanks: the definitions whole, the events of the chosen
// ranks only (every location of theirs). Event counts per location are the "# Events" of
// `otf2-print -G` (location definitions) and the per-location record counts of `otf2-print`.

#include "importers/otf2/otf2reader.h"
#include "testsupport/testpaths.h"

#include <QTest>

using namespace rankscope;

class TestOtf2RankSelection : public QObject
{
    Q_OBJECT

private slots:
    void readsTheChosenRanksOnly()
    {
        // casita-mpi-late-sender-barrier-4r: one location per rank with 25, 30, 30, 25 events.
        const QString anchor = test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        QVERIFY(!anchor.isEmpty());
        std::vector<uint64_t> seen;
        Otf2ReadOptions options;
        options.selectRanks = [&](const std::vector<uint64_t>& events) {
            seen = events;
            return std::vector<bool>{false, true, false, true};
        };
        const Trace part = readOtf2(anchor.toStdString(), options);
        QCOMPARE(seen, (std::vector<uint64_t>{25, 30, 30, 25}));
        QCOMPARE(part.rankCount(), size_t(4));
        QCOMPARE(part.rankEvents(RankId(0)).size(), size_t(0));
        QCOMPARE(part.rankEvents(RankId(1)).size(), size_t(30));
        QCOMPARE(part.rankEvents(RankId(2)).size(), size_t(0));
        QCOMPARE(part.rankEvents(RankId(3)).size(), size_t(25));
        QCOMPARE(part.eventCount(), uint64_t(55));

        // The definitions are those of the whole trace.
        const Trace whole = readOtf2(anchor.toStdString());
        QCOMPARE(part.regions().size(), whole.regions().size());
        QCOMPARE(part.locations().size(), whole.locations().size());
        QCOMPARE(part.communicators().size(), whole.communicators().size());
    }

    void aRankBringsAllItsLocations()
    {
        // casita-cloverleaf-mpi-openacc-2r: each rank has a CPU thread, a metric location (61
        // records) and a CUDA stream (10890 events); rank 0's thread 57980 events, rank 1's
        // 58072.
        const QString anchor = test::sharedTraceAnchor("casita-cloverleaf-mpi-openacc-2r");
        if (anchor.isEmpty()) QSKIP("the shared traces are not here");
        std::vector<uint64_t> seen;
        Otf2ReadOptions options;
        options.selectRanks = [&](const std::vector<uint64_t>& events) {
            seen = events;
            return std::vector<bool>{false, true};
        };
        const Trace part = readOtf2(anchor.toStdString(), options);
        QCOMPARE(seen, (std::vector<uint64_t>{57980 + 61 + 10890, 58072 + 61 + 10890}));
        QCOMPARE(part.eventCount(), uint64_t(58072 + 61 + 10890));
        QCOMPARE(part.rankEvents(RankId(0)).size(), size_t(0));
        QCOMPARE(part.rankEvents(RankId(1)).size(), size_t(58072));
    }

    void noRankChosen()
    {
        const QString anchor = test::traceAnchor("casita-mpi-late-sender-barrier-4r");
        Otf2ReadOptions options;
        options.selectRanks = [](const std::vector<uint64_t>&) { return std::vector<bool>{}; };
        const Trace part = readOtf2(anchor.toStdString(), options);
        QCOMPARE(part.rankCount(), size_t(4));
        QCOMPARE(part.eventCount(), uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestOtf2RankSelection)
#include "tst_otf2rankselection.moc"
