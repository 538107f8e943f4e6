// rankBlockStarts: contiguous blocks of ranks with about equal event counts. Expected blocks
// worked out by hand from the rule "block p starts at the first rank whose preceding ranks hold
// at least p/parts of all events".

#include "model/support/rankblocks.h"

#include <QTest>

using rankscope::rankBlockStarts;
using Starts = std::vector<uint32_t>;
using Events = std::vector<uint64_t>;

Q_DECLARE_METATYPE(Events)
Q_DECLARE_METATYPE(Starts)

class TestRankBlocks : public QObject
{
    Q_OBJECT

private slots:
    void blocks_data()
    {
        QTest::addColumn<Events>("events");
        QTest::addColumn<int>("parts");
        QTest::addColumn<Starts>("starts");
        // 4 equal ranks in 2: half the events (2 ranks) before rank 2.
        QTest::newRow("equal") << Events{5, 5, 5, 5} << 2 << Starts{0, 2, 4};
        // Half of 20 is reached before rank 1: rank 0 alone, then the rest.
        QTest::newRow("heavy ends") << Events{10, 0, 0, 10} << 2 << Starts{0, 1, 4};
        // Half of 103 (51.5) is first reached before rank 1 (100 events).
        QTest::newRow("one heavy rank") << Events{100, 1, 1, 1} << 2 << Starts{0, 1, 4};
        // Thirds of 6 equal ranks: 2, 4 events before ranks 2 and 4.
        QTest::newRow("thirds") << Events{1, 1, 1, 1, 1, 1} << 3 << Starts{0, 2, 4, 6};
        // No events: split by count, 5 * 1 / 2 = 2.
        QTest::newRow("no events") << Events{0, 0, 0, 0, 0} << 2 << Starts{0, 2, 5};
        // More parts than ranks: thresholds 0.5, 1, 1.5 events; rank 1 has 1 before it, rank 2
        // (the end) 2; blocks 1 and 3 are empty.
        QTest::newRow("more parts than ranks") << Events{1, 1} << 4 << Starts{0, 1, 1, 2, 2};
        QTest::newRow("one part") << Events{3, 1, 4} << 1 << Starts{0, 3};
        QTest::newRow("no ranks") << Events{} << 2 << Starts{0, 0, 0};
    }

    void blocks()
    {
        QFETCH(Events, events);
        QFETCH(int, parts);
        QFETCH(Starts, starts);
        QCOMPARE(rankBlockStarts(events, uint32_t(parts)), starts);
    }

    void hugeCountsDoNotOverflow()
    {
        // 4 ranks of 2^61 events (total 2^63), 3 parts: a naive total * p overflows at p = 2.
        // Thresholds 2^63/3 = 1.33 * 2^61 and 2 * 2^63/3 = 2.67 * 2^61 are first reached by
        // the prefixes 2 * 2^61 (before rank 2) and 3 * 2^61 (before rank 3).
        const uint64_t e = uint64_t(1) << 61;
        QCOMPARE(rankBlockStarts(Events{e, e, e, e}, 3), (Starts{0, 2, 3, 4}));
    }
};

QTEST_GUILESS_MAIN(TestRankBlocks)
#include "tst_rankblocks.moc"
