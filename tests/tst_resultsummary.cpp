// Result summary files (.rsum, importers/rsum): what a summary of a trace holds after a write
// and a read equals the desktop's analyses of the trace, the pyramids are the full-resolution
// ones with the finest levels dropped, equal summaries are equal bytes, and a damaged or foreign
// file is a clear error naming the file, never a crash.

#include "importers/otf2/otf2reader.h"
#include "importers/rsum/resultsummary.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitscan.h"
#include "testsupport/testpaths.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <zlib.h>

using namespace rankscope;

namespace {

std::vector<char> bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::vector<char>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

class TestResultSummary : public QObject
{
    Q_OBJECT

private slots:
    void storedResolutionByHand()
    {
        // 2^24 cells over all ranks, a power of two between 2^10 and 2^15 per rank.
        QCOMPARE(storedBaseBuckets(1), uint64_t(1) << 15);
        QCOMPARE(storedBaseBuckets(256), uint64_t(1) << 15);   // 2^24 / 2^8 = 2^16 -> 2^15
        QCOMPARE(storedBaseBuckets(1024), uint64_t(1) << 14);  // 2^24 / 2^10
        QCOMPARE(storedBaseBuckets(1000), uint64_t(1) << 14);  // 16777 -> 16384
        QCOMPARE(storedBaseBuckets(10000), uint64_t(1) << 10); // 1677 -> 1024
        QCOMPARE(storedBaseBuckets(1000000), uint64_t(1) << 10);
    }

    void roundTripEqualsTheDesktop_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("late-sender-barrier") << "casita-mpi-late-sender-barrier-4r";
        QTest::newRow("stencil2d-9") << "stencil2d-9";
        QTest::newRow("tracer-stencil4d-64r") << "tracer-stencil4d-64r";
    }

    void roundTripEqualsTheDesktop()
    {
        QFETCH(QString, trace);
        const QString anchor = test::checkedInTraceAnchor(trace);
        QVERIFY(!anchor.isEmpty());
        auto whole = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.rsum").toStdString();
        writeResultSummary(path, summarizeWholeTrace(whole, anchor.toStdString()));
        const ResultSummary s = readResultSummary(path);

        // Definitions and span.
        const Trace& t = *s.trace;
        QCOMPARE(t.eventCount(), uint64_t(0));
        QVERIFY(t.regions() == whole->regions());
        QVERIFY(t.ranks() == whole->ranks());
        QVERIFY(t.locations() == whole->locations());
        QVERIFY(t.communicators() == whole->communicators());
        QCOMPARE(t.worldCommunicator(), whole->worldCommunicator());
        QCOMPARE(t.beginTime(), whole->beginTime());
        QCOMPARE(t.endTime(), whole->endTime());
        QCOMPARE(s.events, whole->eventCount());
        QCOMPARE(s.source, anchor.toStdString());

        // Analyses, merged again from the stored per-rank parts.
        QVERIFY(summaryProfile(s) == computeProfile(*whole));
        QVERIFY(summaryIntervals(s) == computeIntervals(*whole));
        const WaitStateAnalysis waits = analyzeWaitStates(*whole);
        QVERIFY(s.waits.callSites == waits.callSites);
        QCOMPARE(s.waits.byPattern, waits.byPattern);
        QCOMPARE(s.waits.byRank, waits.byRank);
        QCOMPARE(s.waits.byCallSite, waits.byCallSite);
        QCOMPARE(s.waits.totalNs, waits.totalNs);
        QCOMPARE(s.waits.directNs, waits.directNs);
        QVERIFY(s.waits.waits.empty());
        QVERIFY(s.rootCauses == analyzeRootCauses(*whole, waits));

        // The rows add up to the totals they refine (a second route to the same sums).
        std::vector<int64_t> byRank(t.rankCount(), 0);
        std::map<std::pair<uint32_t, int>, int64_t> bySite;
        int64_t longest = 0;
        for (const WaitRow& r : s.waits.rows) {
            byRank[r.rank.value] += r.waitNs;
            bySite[{r.callSite.value, int(r.pattern)}] += r.waitNs;
            QVERIFY(r.longestNs <= r.waitNs && r.longestNs > 0);
            longest = std::max(longest, r.longestNs);
        }
        QCOMPARE(byRank, waits.byRank);
        for (const CallSiteWait& c : waits.byCallSite)
            QCOMPARE((bySite[{c.callSite.value, int(c.pattern)}]), c.waitNs);
        int64_t longestWait = 0;
        for (const WaitState& w : waits.waits)
            longestWait = std::max(longestWait, w.duration());
        QCOMPARE(longest, longestWait);

        // Pyramids: the full-resolution summary without its finest levels.
        const TimelineSummary full = TimelineSummary::build(*whole);
        const unsigned drop = storedLevelDrop(full.geometry(), whole->rankCount());
        QCOMPARE(s.timeline.levelCount(), full.levelCount() - drop);
        QCOMPARE(s.timeline.baseWidthNs(), full.baseWidthNs() << drop);
        for (uint32_t r = 0; r < whole->rankCount(); ++r)
            for (unsigned level = 0; level < s.timeline.levelCount(); ++level)
                for (uint64_t b = 0; b < s.timeline.bucketCount(level); ++b)
                    QCOMPARE(s.timeline.cell(RankId(r), level, b),
                             full.cell(RankId(r), level + drop, b));
        const WaitSummary fullWaits =
            WaitSummary::build(waits, whole->rankCount(), whole->beginTime(), whole->endTime());
        for (uint32_t r = 0; r < whole->rankCount(); ++r)
            for (unsigned level = 0; level < s.waitSummary.levels().levels(); ++level)
                for (uint64_t b = 0; b < s.waitSummary.levels().bucketCount(level); ++b)
                    QCOMPARE(s.waitSummary.cell(RankId(r), level, b),
                             fullWaits.cell(RankId(r), level + drop, b));

        // Equal summaries are equal bytes (no padding or clock reaches the file).
        const std::string again = dir.filePath("again.rsum").toStdString();
        writeResultSummary(again, s);
        QVERIFY(bytesOf(again) == bytesOf(path));
    }

    void damagedFilesAreClearErrors()
    {
        const QString anchor = test::checkedInTraceAnchor("casita-mpi-late-sender-barrier-4r");
        auto whole = std::make_shared<const Trace>(readOtf2(anchor.toStdString()));
        QTemporaryDir dir;
        const std::string good = dir.filePath("good.rsum").toStdString();
        writeResultSummary(good, summarizeWholeTrace(whole, "t"));
        const std::vector<char> bytes = bytesOf(good);
        const std::string bad = dir.filePath("bad.rsum").toStdString();
        const auto expectError = [&](const std::vector<char>& content, const char* needle) {
            writeBytes(bad, content);
            try {
                (void)readResultSummary(bad);
                QFAIL("a damaged summary was read");
            } catch (const TraceError& e) {
                const std::string what = e.what();
                QVERIFY2(what.find(bad) != std::string::npos, what.c_str());
                QVERIFY2(what.find(needle) != std::string::npos, what.c_str());
            }
        };
        expectError({}, "not a Rankscope result summary");
        expectError({'P', 'K', 3, 4, 0, 0, 0, 0}, "not a Rankscope result summary");
        std::vector<char> newer = bytes;
        newer[4] = 3;
        expectError(newer, "version 3");
        // Cut anywhere: every length is checked before it is used.
        for (size_t cut :
             {size_t(9), size_t(20), bytes.size() / 3, bytes.size() / 2, bytes.size() - 1})
            expectError(std::vector<char>(bytes.begin(), bytes.begin() + ptrdiff_t(cut)), "byte");
        // A count that asks for more than the file holds is refused before anything is
        // allocated (fuzz_rsum found a region count of about 2^60 allocating). The RANK
        // section starts with rank 0's id (4 bytes), then its region count.
        {
            std::vector<char> huge = bytes;
            const std::string tagRank = "RANK";
            const auto at = std::search(huge.begin(), huge.end(), tagRank.begin(), tagRank.end());
            QVERIFY(at != huge.end());
            const size_t head = size_t(at - huge.begin());
            const size_t count = head + 4 + 8 + 4 + 4; // tag, length, crc, rank id
            const uint64_t n = uint64_t(1) << 60;
            std::memcpy(huge.data() + count, &n, sizeof n);
            expectError(huge, "fails its checksum");
            // With the checksum made to match, the count itself is refused.
            uint64_t length = 0;
            std::memcpy(&length, huge.data() + head + 4, sizeof length);
            uLong crc = crc32(0L, Z_NULL, 0);
            crc = crc32(crc, reinterpret_cast<const Bytef*>(huge.data() + head), 12);
            crc = crc32(crc, reinterpret_cast<const Bytef*>(huge.data() + head + 16), uInt(length));
            const uint32_t crc32bit = uint32_t(crc);
            std::memcpy(huge.data() + head + 12, &crc32bit, sizeof crc32bit);
            expectError(huge, "runs past the data");
        }
        try {
            (void)readResultSummary(dir.filePath("missing.rsum").toStdString());
            QFAIL("a missing file was read");
        } catch (const TraceError& e) {
            QVERIFY(std::string(e.what()).find("no such file") != std::string::npos);
        }

        // Any changed byte after the header is an error naming the file (each section's
        // CRC-32 covers its tag, length and bytes; CRC-32 detects every error within 32
        // consecutive bits): every byte of the file in turn, and one to four bits changed at
        // random places, 400 times. Before the checksum, 4 of 14 such damages were read as
        // summaries with a new region or a call count of 10^13.
        for (size_t at = 8; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 2000)) {
            std::vector<char> d = bytes;
            d[at] = char(d[at] ^ 0x5A);
            expectError(d, ":");
        }
        std::mt19937 random(7);
        for (int round = 0; round < 400; ++round) {
            std::vector<char> d = bytes;
            const int flips = 1 + int(random() % 4);
            for (int f = 0; f < flips; ++f)
                d[8 + random() % (d.size() - 8)] ^= char(1 << (random() % 8));
            if (d == bytes) continue; // two flips of one bit
            expectError(d, ":");
        }
    }
};

QTEST_GUILESS_MAIN(TestResultSummary)
#include "tst_resultsummary.moc"
