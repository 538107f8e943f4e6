// The pieces the text imports read with: the Paje import's string table (open addressing,
// deletion by shifting back) checked against std::map over a long run of adds and removals,
// and the Paraver line reader, which cuts lines out of blocks of a few MiB: lines across
// block ends, a line longer than a block, CRLF ends, a last line without newline, and a
// truncated .gz that fails at the line where the data ends (in the reader, and in the import on
// one thread and on two).

#include "importers/paje/pajeimport_p.h"
#include "importers/paje/pajetext.h"
#include "importers/paraver/paraverinput.h"
#include "importers/paraver/paraverreader.h"
#include "model/trace/traceerror.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>
#include <zlib.h>

using namespace rankscope;

namespace {

void writeFile(const std::string& path, const std::string& text)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    QVERIFY(f);
    QCOMPARE(std::fwrite(text.data(), 1, text.size(), f), text.size());
    std::fclose(f);
}

/// `text` gzip-compressed and cut after half of its compressed bytes, as `name` in `dir`: the
/// data ends somewhere inside the lines. Returns its path.
std::string writeCutGzip(const QTemporaryDir& dir, const std::string& text, const char* name)
{
    const std::string whole = dir.filePath("whole.gz").toStdString();
    gzFile gz = gzopen(whole.c_str(), "wb");
    if (!gz || gzwrite(gz, text.data(), unsigned(text.size())) != int(text.size())) return {};
    gzclose(gz);
    FILE* f = std::fopen(whole.c_str(), "rb");
    if (!f) return {};
    std::string bytes(size_t(1) << 24, '\0');
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
    std::fclose(f);
    const std::string cut = dir.filePath(name).toStdString();
    writeFile(cut, bytes.substr(0, bytes.size() / 2));
    return cut;
}

std::vector<std::string> readLines(const std::string& path)
{
    paraver::LineReader in(path);
    std::vector<std::string> lines;
    std::string_view line;
    while (in.next(line))
        lines.emplace_back(line);
    return lines;
}

} // namespace

class TestTextImport : public QObject
{
    Q_OBJECT

private slots:
    void stringTableAgreesWithMap()
    {
        // Keys like the import's: short link keys "m<id>" and longer "<type>\n<key>" forms,
        // added, matched and removed in random order as links open and close.
        paje::StringTable<uint64_t> table;
        std::map<std::string, uint64_t> model;
        std::mt19937_64 random(21);
        for (int step = 0; step < 200000; ++step) {
            const uint64_t id = random() % 5000;
            const std::string key = (id % 3 == 0 ? "LT_Message\nm" : "m") + std::to_string(id);
            switch (random() % 3) {
            case 0: {
                const auto [value, added] = table.insert(key);
                QCOMPARE(added, model.count(key) == 0);
                *value = uint64_t(step);
                model[key] = uint64_t(step);
                break;
            }
            case 1:
                table.erase(key);
                model.erase(key);
                break;
            default: {
                const uint64_t* value = table.find(key);
                const auto it = model.find(key);
                QCOMPARE(value != nullptr, it != model.end());
                if (value) QCOMPARE(*value, it->second);
            }
            }
            QCOMPARE(table.size(), model.size());
        }
        // Every key the model holds is found with its value, and nothing else is.
        size_t seen = 0;
        table.forEach([&](std::string_view key, uint64_t value) {
            const auto it = model.find(std::string(key));
            QVERIFY(it != model.end());
            QCOMPARE(value, it->second);
            ++seen;
        });
        QCOMPARE(seen, model.size());
        for (const auto& [key, value] : model)
            QCOMPARE(*table.find(key), value);
    }

    void splitAgreesWithAByteLoop()
    {
        // Random lines of blanks, tabs, quotes, letters and bytes above 127, split by the
        // word-at-a-time split and by a plain byte loop written here.
        std::mt19937 random(8);
        const std::string alphabet = std::string("  \t\"abcxyz019.-_") + char(0xC3) + char(0xA9);
        for (int i = 0; i < 20000; ++i) {
            std::string line;
            const size_t length = random() % 70;
            for (size_t k = 0; k < length; ++k)
                line += alphabet[random() % alphabet.size()];
            std::vector<std::string> expected;
            bool closed = true;
            for (size_t p = 0; p < line.size();) {
                while (p < line.size() && (line[p] == ' ' || line[p] == '\t'))
                    ++p;
                if (p == line.size()) break;
                if (line[p] == '"') {
                    const size_t q = line.find('"', p + 1);
                    if (q == std::string::npos) {
                        closed = false;
                        break;
                    }
                    expected.push_back(line.substr(p + 1, q - p - 1));
                    p = q + 1;
                } else {
                    size_t q = p;
                    while (q < line.size() && line[q] != ' ' && line[q] != '\t')
                        ++q;
                    expected.push_back(line.substr(p, q - p));
                    p = q;
                }
            }
            paje::Fields f;
            QCOMPARE(paje::split(line, f), closed);
            if (!closed) continue;
            const size_t kept = std::min(expected.size(), paje::kMaxFields);
            QCOMPARE(f.n, kept);
            for (size_t k = 0; k < kept; ++k)
                QCOMPARE(std::string(f.f[k]), expected[k]);
        }
    }

    void timesAgreeWithDigitArithmetic()
    {
        // Random "[-]W.F" times (0 to 9 whole digits, 0 to 12 fraction digits), worked here
        // digit by digit: W s + the first nine fraction digits in ns, plus 1 when the tenth is
        // 5 or more; one fraction byte in ten replaced by 'x', ':' or ' ' makes it no time.
        std::mt19937 random(9);
        for (int i = 0; i < 50000; ++i) {
            const bool negative = random() % 4 == 0;
            const size_t whole = random() % 10, fraction = random() % 13;
            if (whole + fraction == 0) continue;
            std::string text = negative ? "-" : "";
            int64_t expected = 0;
            for (size_t k = 0; k < whole; ++k) {
                const int d = int(random() % 10);
                text += char('0' + d);
                expected = expected * 10 + d;
            }
            expected *= 1'000'000'000;
            text += '.';
            int64_t scale = 100'000'000;
            bool bad = false;
            for (size_t k = 0; k < fraction; ++k) {
                const int d = int(random() % 10);
                if (random() % 10 == 0) {
                    text += ":x "[random() % 3];
                    bad = true;
                    continue;
                }
                text += char('0' + d);
                if (k < 9) expected += d * scale;
                if (k == 9 && d >= 5) expected += 1;
                scale /= 10;
            }
            if (negative) expected = -expected;
            int64_t ns = 0;
            QCOMPARE(paje::parseSeconds(text, ns), !bad);
            if (!bad) QCOMPARE(ns, expected);
        }
    }

    void longDigitRunsAreNoTime()
    {
        // Found by fuzz_pajeimport: twenty digits before the point overflowed the whole
        // seconds (undefined behaviour) before the length check refused them. A plain time has
        // at most nine digits before its point (31 years); the exponent form reaches 9e9 s.
        int64_t ns = 0;
        QVERIFY(!paje::parseSeconds("44444444444444444444.5", ns));
        QVERIFY(!paje::parseSeconds("-4444444444444444444444", ns));
        QVERIFY(!paje::parseSeconds("1234567890.5", ns));
        QVERIFY(paje::parseSeconds("999999999.5", ns));
        QCOMPARE(ns, int64_t(999999999500000000));
        QVERIFY(paje::parseSeconds("1.2345678905e9", ns));
        QCOMPARE(ns, int64_t(1234567890500000000));
    }

    void emptyKeyIsAKeyLikeAnyOther()
    {
        // A default string_view has a null data pointer (found by fuzz_pajeimport: an empty
        // field hashed with memcpy from null). It hashes like "" and is found again.
        QCOMPARE(paje::hashOf(std::string_view()), paje::hashOf(std::string_view("", 0)));
        paje::StringTable<uint64_t> table;
        *table.insert(std::string_view()).first = 7;
        QVERIFY(table.find(std::string_view("")));
        QCOMPARE(*table.find(std::string_view("")), uint64_t(7));
        QCOMPARE(table.size(), size_t(1));
    }

    void lineReaderCutsLinesAcrossBlocks()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("lines.prv").toStdString();
        // 300000 numbered lines of 20-odd bytes (about 7 MiB: lines cross the 4 MiB block end),
        // every seventh ending in CRLF, then a 5 MiB line and a last line without newline.
        std::string text;
        for (int i = 0; i < 300000; ++i)
            text += "2:1:1:1:1:" + std::to_string(i) + (i % 7 == 0 ? ":9\r\n" : ":9\n");
        const std::string longLine(size_t(5) << 20, 'x');
        text += longLine + "\n";
        text += "last";
        writeFile(path, text);
        const std::vector<std::string> lines = readLines(path);
        QCOMPARE(lines.size(), size_t(300002));
        for (int i = 0; i < 300000; i += 997)
            QCOMPARE(lines[size_t(i)], "2:1:1:1:1:" + std::to_string(i) + ":9");
        QCOMPARE(lines[299999], std::string("2:1:1:1:1:299999:9"));
        QCOMPARE(lines[300000].size(), longLine.size());
        QCOMPARE(lines[300001], std::string("last"));
    }

    void lineReaderNamesTheLineOfTruncatedGzip()
    {
        QTemporaryDir dir;
        std::string text;
        for (int i = 0; i < 200000; ++i)
            text += "2:1:1:1:1:" + std::to_string(i * 1000) + ":50000001:1\n";
        const std::string cut = writeCutGzip(dir, text, "cut.prv.gz");
        QVERIFY(!cut.empty());
        paraver::LineReader in(cut);
        std::string_view line;
        uint64_t read = 0;
        try {
            while (in.next(line))
                ++read;
            QFAIL("a truncated .gz read to its end without an error");
        } catch (const TraceError& e) {
            // The error names the file and the line after the last whole one returned.
            const std::string expected =
                cut + ": line " + std::to_string(read + 1) + ": damaged or truncated";
            QVERIFY2(std::string(e.what()).rfind(expected, 0) == 0, e.what());
        }
        QVERIFY(read > 1000);
        QVERIFY(read < 200000);
    }

    void importOfTruncatedGzipFailsWhereItsDataEnds()
    {
        // 200000 records of "2:1:1:1:1:<t>:50000001:1" (an event per line), compressed, cut
        // in half: the import fails at the line after the last whole one the data holds,
        // counted here by decompressing the cut file with zlib directly.
        QTemporaryDir dir;
        std::string text = "#Paraver (01/01/26 at 00:00):100000000000_ns:1(1):1:1(1:1)\n";
        for (int i = 0; i < 200000; ++i)
            text += "2:1:1:1:1:" + std::to_string(i * 1000) + ":50000001:1\n";
        const std::string cut = writeCutGzip(dir, text, "cut.prv.gz");
        QVERIFY(!cut.empty());
        // Whole lines in what zlib can decompress of the cut file.
        gzFile gz = gzopen(cut.c_str(), "rb");
        std::string out(text.size(), '\0');
        int got = 0, total = 0;
        while ((got = gzread(gz, out.data() + total, unsigned(out.size() - size_t(total)))) > 0)
            total += got;
        gzclose(gz);
        const uint64_t lines = uint64_t(std::count(out.begin(), out.begin() + total, '\n'));
        QVERIFY(lines > 1000 && lines < 200000);
        for (unsigned t : {1u, 2u}) {
            ParaverReadOptions o;
            o.threads = t;
            try {
                readParaver(cut, o);
                QFAIL("a truncated .prv.gz imported without an error");
            } catch (const TraceError& e) {
                const std::string expected =
                    cut + ": line " + std::to_string(lines + 1) + ": damaged or truncated";
                QVERIFY2(std::string(e.what()).rfind(expected, 0) == 0, e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTextImport)
#include "tst_textimport.moc"
