// The timeline's message index (views/timeline/messageindex): the matched messages touching a
// window, found per displayed rank by send and receive time, thinned evenly. The messages are
// numbered by the matcher receiver by receiver, not in time order, so the index must sort.

#include "testsupport/handtrace.h"
#include "views/timeline/messageindex.h"

#include <QTest>
#include <algorithm>

using namespace rankscope;
using rankscope::test::HandTrace;

namespace {

/// Three ranks. Rank 2 sends to rank 0 at 10 (arrives 20) and rank 0 sends to rank 1 at 30
/// (arrives 40), then rank 1 sends to rank 0 at 50 (arrives 90); an unmatched send from rank 1
/// to rank 2 at 60. Message ids follow the receivers (0 first), so rank 0's receives come before
/// rank 1's in id order whatever their times.
Trace threeRanks()
{
    HandTrace h;
    const LocationId r0 = h.addRank(), r1 = h.addRank(), r2 = h.addRank();
    const CommId world = h.addWorld();
    TraceBuilder& b = h.builder();
    b.recv(r0, 20, 2, world, 0, 8);
    b.send(r0, 30, 1, world, 0, 8);
    b.recv(r0, 90, 1, world, 0, 8);
    b.recv(r1, 40, 0, world, 0, 8);
    b.send(r1, 50, 0, world, 0, 8);
    b.send(r1, 60, 2, world, 0, 8); // never received
    b.send(r2, 10, 0, world, 0, 8);
    return h.finish();
}

std::vector<std::pair<int64_t, int64_t>> times(const std::vector<MessageIndex::Line>& lines)
{
    std::vector<std::pair<int64_t, int64_t>> t;
    for (const MessageIndex::Line& l : lines)
        t.emplace_back(l.sendTime, l.recvTime);
    std::sort(t.begin(), t.end());
    return t;
}

} // namespace

class TestMessageIndex : public QObject
{
    Q_OBJECT

private slots:
    void windowsFindTheirMessages()
    {
        const Trace t = threeRanks();
        MessageIndex index;
        index.build(t);
        std::vector<MessageIndex::Line> out;
        const RankId all[] = {RankId(0), RankId(1), RankId(2)};
        // Every matched message: 3 sends and their 3 receives are candidates; a receive whose
        // send is in the window is drawn once, from the sender.
        QCOMPARE(index.collect(all, 0, 100, 100, out), size_t(6));
        QCOMPARE(times(out),
                 (std::vector<std::pair<int64_t, int64_t>>{{10, 20}, {30, 40}, {50, 90}}));
        // [35, 60): rank 1's receive at 40 (sent at 30, before the window) and its send at 50.
        QCOMPARE(index.collect(all, 35, 60, 100, out), size_t(2));
        QCOMPARE(times(out), (std::vector<std::pair<int64_t, int64_t>>{{30, 40}, {50, 90}}));
        // Rank 0 alone over [15, 95): its send at 30 and receives at 20 and 90 are the
        // candidates; the receive at 90 was sent inside the window (at 50), so it is left to
        // its sender's row.
        const RankId zero[] = {RankId(0)};
        QCOMPARE(index.collect(zero, 15, 95, 100, out), size_t(3));
        QCOMPARE(times(out), (std::vector<std::pair<int64_t, int64_t>>{{10, 20}, {30, 40}}));
        QCOMPARE(out.front().message.valid(), true);
        // Nothing after the last receive; at most one line when asked for one.
        QCOMPARE(index.collect(all, 91, 200, 100, out), size_t(0));
        QVERIFY(out.empty());
        index.collect(all, 0, 100, 1, out);
        QCOMPARE(out.size(), size_t(1));
    }

    void linesNameTheirEnds()
    {
        const Trace t = threeRanks();
        MessageIndex index;
        index.build(t);
        std::vector<MessageIndex::Line> out;
        const RankId two[] = {RankId(2)};
        QCOMPARE(index.collect(two, 0, 15, 10, out), size_t(1));
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(out[0].sender, RankId(2));
        QCOMPARE(out[0].receiver, RankId(0));
        QCOMPARE(out[0].sendTime, int64_t(10));
        QCOMPARE(out[0].recvTime, int64_t(20));
    }
};

QTEST_GUILESS_MAIN(TestMessageIndex)
#include "tst_messageindex.moc"
