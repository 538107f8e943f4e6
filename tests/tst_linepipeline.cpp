// The two-stage reading of the text imports (importers/linepipeline.h): every line reaches the
// consumer once, in order, with its number, on one thread and on two, whatever the block size
// and however the source cuts its reads; errors of the source, the tokenizer and the consumer
// come in file order and stop the reading thread. Then the Paje and Paraver imports of the same
// multi-block files give the same trace on one thread and on two (tst_textimport: a truncated
// .prv.gz fails at the line where its data ends, on both).

#include "importers/linepipeline.h"
#include "importers/paje/pajeexport.h"
#include "importers/paje/pajereader.h"
#include "importers/paraver/paraverexport.h"
#include "importers/paraver/paraverreader.h"
#include "model/generator/tracegenerator.h"
#include "model/trace/traceerror.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace rankscope;

namespace {

/// A source over a string that hands out reads of random sizes (1 to 37 bytes) and can fail
/// after `failAt` bytes.
struct StringSource
{
    std::string text;
    size_t at = 0;
    size_t failAt = std::string::npos;
    std::mt19937 random{5};

    size_t read(char* into, size_t max)
    {
        if (at >= failAt) return text::kReadFailed;
        size_t n = std::min<size_t>({max, text.size() - at, 1 + random() % 37});
        if (failAt != std::string::npos) n = std::min(n, failAt - at);
        std::memcpy(into, text.data() + at, n);
        at += n;
        return n;
    }
    std::exception_ptr failure(uint64_t nextLine) const
    {
        return std::make_exception_ptr(
            std::runtime_error("failed at line " + std::to_string(nextLine)));
    }
    uint64_t offset() const { return at; }
};

struct Seen
{
    std::vector<std::pair<uint64_t, std::string>> lines;
    void clear() { lines.clear(); }
};

/// Runs the pipeline over `text`, the tokenizer keeping each line and its number; returns what
/// the consumer saw in order and the error message ("" when none).
std::pair<std::vector<std::pair<uint64_t, std::string>>, std::string>
run(const std::string& text, unsigned threads, size_t block, size_t failAt = std::string::npos,
    uint64_t throwAtLine = 0, int consumerThrowsAtBlock = -1, size_t maxLine = size_t(1) << 26)
{
    StringSource source;
    source.text = text;
    source.failAt = failAt;
    std::vector<std::pair<uint64_t, std::string>> seen;
    std::string error;
    int blocks = 0;
    try {
        text::runLinePipeline<Seen>(
            source,
            [&](std::string_view line, uint64_t n, Seen& out) {
                if (n == throwAtLine) throw std::runtime_error("bad line " + std::to_string(n));
                out.lines.emplace_back(n, std::string(line));
            },
            [&](const text::LineBlock<Seen>& b) {
                if (blocks++ == consumerThrowsAtBlock) throw std::runtime_error("consumer");
                QCOMPARE(b.tokens.lines.empty() ? b.firstLine : b.tokens.lines.front().first,
                         b.firstLine);
                seen.insert(seen.end(), b.tokens.lines.begin(), b.tokens.lines.end());
            },
            [&](uint64_t n) {
                throw std::runtime_error("line " + std::to_string(n) + " too long");
            },
            threads, block, maxLine);
    } catch (const std::exception& e) {
        error = e.what();
    }
    return {seen, error};
}

std::string numberedLines(int n, std::vector<std::string>& expected)
{
    // Lines of 0 to ~60 bytes, some empty, some with CR before the newline (kept: the
    // pipeline leaves line ends other than '\n' to the format), one of 300 bytes.
    std::string text;
    for (int i = 0; i < n; ++i) {
        std::string line =
            i % 11 == 0 ? "" : "line " + std::to_string(i) + std::string(i % 53, 'x');
        if (i % 7 == 0) line += '\r';
        if (i == 123) line = std::string(300, 'L');
        expected.push_back(line);
        text += line + "\n";
    }
    return text;
}

/// Whether two traces hold the same definitions, events, messages and collectives (the
/// model's own comparison) and the same warnings.
void compareTraces(const Trace& a, const Trace& b)
{
    QCOMPARE(a.eventCount(), b.eventCount());
    QCOMPARE(a.messages().size(), b.messages().size());
    QVERIFY(a.sameContent(b));
    QCOMPARE(a.diagnostics().warnings, b.diagnostics().warnings);
}

} // namespace

class TestLinePipeline : public QObject
{
    Q_OBJECT

private slots:
    void everyLineOnceInOrder_data()
    {
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<int>("block");
        for (unsigned t : {1u, 2u})
            for (int b : {1, 16, 64, 4096}) // 1 and 16: shorter than most lines
                QTest::addRow("%u thread(s), %d-byte blocks", t, b) << t << b;
    }
    void everyLineOnceInOrder()
    {
        QFETCH(unsigned, threads);
        QFETCH(int, block);
        std::vector<std::string> expected;
        std::string text = numberedLines(1000, expected);
        text += "no newline at the end";
        expected.push_back("no newline at the end");
        const auto [seen, error] = run(text, threads, size_t(block));
        QCOMPARE(error, std::string());
        QCOMPARE(seen.size(), expected.size());
        for (size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].first, uint64_t(i + 1));
            QCOMPARE(seen[i].second, expected[i]);
        }
    }

    void emptySourceGivesNoLines()
    {
        for (unsigned t : {1u, 2u}) {
            const auto [seen, error] = run("", t, 16);
            QVERIFY(seen.empty());
            QCOMPARE(error, std::string());
        }
    }

    void tokenizerErrorComesAfterTheLinesBeforeIt()
    {
        std::vector<std::string> expected;
        const std::string text = numberedLines(500, expected);
        for (unsigned t : {1u, 2u}) {
            const auto [seen, error] = run(text, t, 64, std::string::npos, 321);
            QCOMPARE(error, std::string("bad line 321"));
            QCOMPARE(seen.size(), size_t(320));
            QCOMPARE(seen.back().first, uint64_t(320));
        }
    }

    void readFailureNamesTheLineAfterTheLastWholeOne()
    {
        // The source fails inside line 201 (after 200 lines of "abcdefghi\n" and 4 bytes).
        std::string text;
        for (int i = 0; i < 400; ++i)
            text += "abcdefghi\n";
        for (unsigned t : {1u, 2u})
            for (size_t block : {size_t(8), size_t(64), size_t(4096)}) {
                const auto [seen, error] = run(text, t, block, 200 * 10 + 4);
                QCOMPARE(error, std::string("failed at line 201"));
                QCOMPARE(seen.size(), size_t(200));
            }
    }

    void consumerErrorStopsTheReader()
    {
        std::vector<std::string> expected;
        const std::string text = numberedLines(5000, expected);
        for (unsigned t : {1u, 2u}) {
            const auto [seen, error] = run(text, t, 32, std::string::npos, 0, 3);
            QCOMPARE(error, std::string("consumer"));
            QVERIFY(seen.size() < expected.size());
        }
    }

    void lineLongerThanTheLimitIsRefused()
    {
        // Line 3 has 5000 bytes against a limit of 1000; the lines before it arrive.
        const std::string text = "a\nb\n" + std::string(5000, 'z') + "\nc\n";
        for (unsigned t : {1u, 2u}) {
            const auto [seen, error] = run(text, t, 64, std::string::npos, 0, -1, 1000);
            QCOMPARE(error, std::string("line 3 too long"));
        }
    }

    void importsAgreeOnOneThreadAndTwo()
    {
        // A generated stencil of 16 ranks, about 5 MiB as text: several 1 MiB blocks.
        GeneratorOptions g;
        g.pattern = "stencil2d";
        g.ranks = 16;
        g.iterations = 400;
        const Trace original = generateTrace(g);
        QTemporaryDir dir;
        const std::string paje = dir.filePath("t.paje").toStdString();
        const std::string prv = dir.filePath("t.prv").toStdString();
        writePajeTraceFile(original, paje);
        writeParaverTrace(original, prv);
        QVERIFY(QFileInfo(QString::fromStdString(paje)).size() > (3 << 20));
        const Trace paje1 = readPaje(paje, PajeReadOptions{{}, 1});
        const Trace paje2 = readPaje(paje, PajeReadOptions{{}, 2});
        compareTraces(paje1, paje2);
        QCOMPARE(paje1.messages().size(), original.messages().size());
        ParaverReadOptions o;
        o.threads = 1;
        const Trace prv1 = readParaver(prv, o);
        o.threads = 2;
        const Trace prv2 = readParaver(prv, o);
        compareTraces(prv1, prv2);
        QCOMPARE(prv1.messages().size(), original.messages().size());
    }
};

QTEST_GUILESS_MAIN(TestLinePipeline)
#include "tst_linepipeline.moc"
