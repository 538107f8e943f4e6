// TimeColumn stores int64 times as per-block bases plus uint32 offsets, with an escape table
// for values that do not fit. These tests check values against a plain std::vector.

#include "model/trace/stringpool.h"
#include "model/trace/timecolumn.h"

#include <QTest>
#include <vector>

using namespace rankscope;

class TestTimeColumn : public QObject
{
    Q_OBJECT
private slots:
    void roundTripsValues_data()
    {
        QTest::addColumn<std::vector<int64_t>>("values");
        QTest::newRow("empty") << std::vector<int64_t>{};
        QTest::newRow("small steps") << std::vector<int64_t>{0, 1, 2, 3, 1000, 1001};
        // 5e9 ns after the block's first value does not fit in 32 bits: escaped.
        QTest::newRow("gap over 4.29 s")
            << std::vector<int64_t>{10, 20, 5'000'000'010, 5'000'000'020};
        QTest::newRow("negative and huge")
            << std::vector<int64_t>{-9'000'000'000'000, -5, 0, 7'000'000'000'000'000};
        std::vector<int64_t> blocks;
        // 1000 values cross three block boundaries (256 per block); every 7th jumps by 2^33.
        int64_t t = 0;
        for (int i = 0; i < 1000; ++i) {
            t += (i % 7 == 0) ? (int64_t(1) << 33) : 3;
            blocks.push_back(t);
        }
        QTest::newRow("several blocks with escapes") << blocks;
    }
    void roundTripsValues()
    {
        QFETCH(std::vector<int64_t>, values);
        TimeColumn c;
        for (int64_t v : values)
            c.push_back(v);
        QCOMPARE(c.size(), values.size());
        for (size_t i = 0; i < values.size(); ++i)
            QCOMPARE(c[i], values[i]);
    }

    void findsWindows()
    {
        // Times 0, 10, 10, 20, ..., built so that equal values sit at the window edges.
        const std::vector<int64_t> v = {0, 10, 10, 20, 30, 30, 30, 40};
        TimeColumn c;
        for (int64_t x : v)
            c.push_back(x);
        QCOMPARE(c.lowerBound(10), size_t(1));
        QCOMPARE(c.upperBound(10), size_t(3));
        QCOMPARE(c.lowerBound(30), size_t(4));
        QCOMPARE(c.upperBound(30), size_t(7));
        QCOMPARE(c.lowerBound(-1), size_t(0));
        QCOMPARE(c.lowerBound(41), size_t(8));
        QCOMPARE(c.lowerBound(15), size_t(3));
    }

    void usesAboutFourBytesPerValue()
    {
        TimeColumn c;
        const size_t n = 1 << 16;
        c.reserve(n);
        for (size_t i = 0; i < n; ++i)
            c.push_back(int64_t(i) * 1000);
        c.shrinkToFit();
        // 4 bytes per offset + 8 bytes per 256-value block = 4.03125 bytes per value.
        QCOMPARE(c.memoryBytes(), n * 4 + (n / 256) * 8);
    }

    void internsStrings()
    {
        StringPool p;
        const StringId a = p.intern("MPI_Send");
        const StringId b = p.intern("MPI_Recv");
        QCOMPARE(p.intern("MPI_Send"), a);
        QVERIFY(a != b);
        QCOMPARE(p.str(b), std::string_view("MPI_Recv"));
        QCOMPARE(p.intern(""), StringId(0));
        QVERIFY(!p.find("nothing").valid());
        StringPool copy = p; // the copy must own its own index
        QCOMPARE(copy.find("MPI_Recv"), b);
    }
};

QTEST_GUILESS_MAIN(TestTimeColumn)
#include "tst_timecolumn.moc"
