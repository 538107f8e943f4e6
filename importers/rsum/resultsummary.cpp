#include "importers/rsum/resultsummary.h"

#include "importers/rsum/rsumdefinitions.h"
#include "model/analysis/runspan.h"
#include "model/support/atomicfile.h"
#include "model/support/bytecodec.h"
#include "model/trace/traceerror.h"
#include "model/waits/waitcodec.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <tuple>
#include <zlib.h>

namespace fs = std::filesystem;

namespace rankscope {

namespace {

constexpr char kMagic[4] = {'R', 'S', 'U', 'M'};

constexpr uint32_t tag(const char (&t)[5])
{
    return uint32_t(uint8_t(t[0])) | uint32_t(uint8_t(t[1])) << 8 | uint32_t(uint8_t(t[2])) << 16 |
           uint32_t(uint8_t(t[3])) << 24;
}

constexpr uint32_t kDefs = tag("DEFS");
constexpr uint32_t kMeta = tag("META");
constexpr uint32_t kRank = tag("RANK");
constexpr uint32_t kWait = tag("WAIT");
constexpr uint32_t kRoot = tag("ROOT");
constexpr uint32_t kTimeline = tag("TLOD");
constexpr uint32_t kWaitLod = tag("WLOD");
/// Optional (readers before it skip it): the source trace's partial flag and warnings.
constexpr uint32_t kNote = tag("NOTE");
/// Most warnings a NOTE section holds (a reader refuses more: a damaged count).
constexpr uint64_t kMostNotes = 1'000'000;

std::string tagName(uint32_t t)
{
    std::string s(4, ' ');
    for (int i = 0; i < 4; ++i) {
        const char c = char((t >> (8 * i)) & 0xFF);
        s[size_t(i)] = c >= 32 && c < 127 ? c : '?';
    }
    return s;
}

/// zlib's CRC-32 of a section's tag and length (its first 12 bytes) and its body.
uint32_t sectionCrc(const char* head, const char* body, size_t length)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(head), 12);
    for (size_t at = 0; at < length;) { // crc32 takes at most 4 GiB at once
        const size_t n = std::min<size_t>(length - at, size_t(1) << 30);
        crc = crc32(crc, reinterpret_cast<const Bytef*>(body + at), uInt(n));
        at += n;
    }
    return uint32_t(crc);
}

void putSection(std::vector<char>& file, uint32_t t, const std::vector<char>& bytes)
{
    const size_t head = file.size();
    ByteWriter w(file);
    w.put(t);
    w.put<uint64_t>(bytes.size());
    w.put<uint32_t>(sectionCrc(file.data() + head, bytes.data(), bytes.size()));
    file.insert(file.end(), bytes.begin(), bytes.end());
}

// ---- pyramids: geometry, then each rank's cells compressed on their own -------------------

template <class Cell> PackedCells pack(std::span<const Cell> cells)
{
    PackedCells p;
    p.count = cells.size();
    if (cells.empty()) return p;
    const uLong raw = uLong(cells.size_bytes());
    p.bytes.resize(compressBound(raw));
    uLongf size = uLongf(p.bytes.size());
    if (compress2(p.bytes.data(), &size, reinterpret_cast<const Bytef*>(cells.data()), raw,
                  Z_BEST_SPEED) != Z_OK)
        throw TraceError("zlib could not compress a summary pyramid");
    p.bytes.resize(size);
    return p;
}

void putPacked(ByteWriter& w, const PackedCells& p)
{
    w.put(p.count);
    if (p.count > 0) w.putList(p.bytes);
}

template <class Cell> std::vector<Cell> getCompressed(ByteReader& r, uint64_t expected)
{
    const auto count = r.get<uint64_t>();
    if (count == 0) return {};
    if (count != expected)
        throw std::runtime_error("a rank has " + std::to_string(count) + " cells, not " +
                                 std::to_string(expected));
    const std::vector<Bytef> packed = r.getList<Bytef>();
    std::vector<Cell> cells(count);
    uLongf size = uLongf(count * sizeof(Cell));
    if (uncompress(reinterpret_cast<Bytef*>(cells.data()), &size, packed.data(),
                   uLong(packed.size())) != Z_OK ||
        size != count * sizeof(Cell))
        throw std::runtime_error("a rank's cells do not decompress (damaged zlib data)");
    return cells;
}

void putGeometry(ByteWriter& w, const SummaryLevels& g)
{
    w.put(g.origin);
    w.put(g.end);
    w.put(uint32_t(g.shift));
    w.putList(g.offset);
}

SummaryLevels getGeometry(ByteReader& r)
{
    SummaryLevels g;
    g.origin = r.get<int64_t>();
    g.end = r.get<int64_t>();
    g.shift = r.get<uint32_t>();
    g.offset = r.getList<uint64_t>();
    if (g.shift > 62 || g.offset.size() < 2 || g.offset.size() > 70 || g.offset.front() != 0 ||
        !std::is_sorted(g.offset.begin(), g.offset.end()) || g.end < g.origin)
        throw std::runtime_error("inconsistent pyramid geometry");
    // The levels a writer makes (SummaryLevels::forRun): at most 2^15 buckets at level 0, each
    // level half the one below (rounded up), down to one bucket. This bounds every allocation.
    uint64_t count = g.offset[1];
    if (count == 0 || count > TimelineSummary::kMaxBaseBuckets)
        throw std::runtime_error("pyramid level 0 has " + std::to_string(count) + " buckets");
    for (size_t k = 1; k + 1 < g.offset.size(); ++k) {
        const uint64_t next = g.offset[k + 1] - g.offset[k];
        if (count == 1 || next != (count + 1) / 2)
            throw std::runtime_error("inconsistent pyramid levels");
        count = next;
    }
    if (count != 1) throw std::runtime_error("the pyramid does not end in one bucket");
    return g;
}

/// A pyramid section: geometry, rank count, each rank's packed cells.
template <class Cell>
std::pair<SummaryLevels, std::vector<std::vector<Cell>>> getPyramid(ByteReader& r, size_t ranks)
{
    std::pair<SummaryLevels, std::vector<std::vector<Cell>>> p;
    p.first = getGeometry(r);
    if (r.get<uint64_t>() != ranks) throw std::runtime_error("pyramids for other ranks");
    p.second.resize(ranks);
    for (size_t k = 0; k < ranks; ++k)
        p.second[k] = getCompressed<Cell>(r, p.first.cellCount());
    return p;
}

// ---- root causes ------------------------------------------------------------------------------
// Field by field: the structs have padding, which must not reach the file (its bytes are
// whatever memory held, so two equal summaries would differ).

void putRootCauses(ByteWriter& w, const RootCauseReport& c)
{
    std::vector<uint32_t> hotspots;
    for (RegionId h : c.hotspots)
        hotspots.push_back(h.value);
    w.putList(hotspots);
    w.putRecords(c.perFunctionRank, [&](const RootCauseCost& k) {
        w.put(k.function.value);
        w.put(k.rank.value);
        w.put(k.costNs);
    });
    w.putRecords(c.perFunction, [&](const FunctionCause& f) {
        w.put(f.function.value);
        w.put(f.costNs);
        w.put(f.shareOfWaiting);
    });
    w.putRecords(c.perCallSite, [&](const CallSiteCause& k) {
        w.put(k.callSite.value);
        w.put(k.function.value);
        w.put(k.costNs);
        w.put(k.shareOfWaitingAtCallSite);
    });
    w.put(c.totalWaitNs);
    w.put(c.explainedNs);
}

RootCauseReport getRootCauses(ByteReader& r, const Trace& trace, size_t callSites)
{
    RootCauseReport c;
    const size_t regions = trace.regions().size();
    const auto region = [&](RegionId g) {
        if (g.value >= regions) throw std::runtime_error("root causes name an unknown region");
        return g;
    };
    for (uint32_t h : r.getList<uint32_t>())
        c.hotspots.push_back(region(RegionId(h)));
    c.perFunctionRank = r.getRecords<RootCauseCost>(16, [&] {
        RootCauseCost k;
        k.function = RegionId(r.get<uint32_t>());
        k.rank = RankId(r.get<uint32_t>());
        k.costNs = r.get<int64_t>();
        return k;
    });
    for (const RootCauseCost& k : c.perFunctionRank)
        if (region(k.function).valid() && k.rank.value >= trace.rankCount())
            throw std::runtime_error("root causes name an unknown rank");
    c.perFunction = r.getRecords<FunctionCause>(20, [&] {
        FunctionCause f;
        f.function = RegionId(r.get<uint32_t>());
        f.costNs = r.get<int64_t>();
        f.shareOfWaiting = r.get<double>();
        return f;
    });
    for (const FunctionCause& f : c.perFunction)
        region(f.function);
    c.perCallSite = r.getRecords<CallSiteCause>(24, [&] {
        CallSiteCause k;
        k.callSite = CallSiteId(r.get<uint32_t>());
        k.function = RegionId(r.get<uint32_t>());
        k.costNs = r.get<int64_t>();
        k.shareOfWaitingAtCallSite = r.get<double>();
        return k;
    });
    for (const CallSiteCause& s : c.perCallSite)
        if (region(s.function).valid() && s.callSite.value >= callSites)
            throw std::runtime_error("root causes name an unknown call site");
    c.totalWaitNs = r.get<int64_t>();
    c.explainedNs = r.get<int64_t>();
    return c;
}

std::vector<char> readWholeFile(const std::string& path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw TraceError(path + ": no such file");
    if (fs::is_directory(status))
        throw TraceError(path + ": is a folder; a result summary is one .rsum file");
    if (!fs::is_regular_file(status)) // a FIFO would block the read, a device never end
        throw TraceError(path + ": not a regular file (a FIFO, a device or a socket); a result "
                                "summary is one .rsum file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceError(path + ": cannot be opened");
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw TraceError(path + ": read error");
    return bytes;
}

} // namespace

PackedCells packCells(std::span<const uint32_t> cells)
{
    return pack(cells);
}

PackedCells packCells(std::span<const uint8_t> cells)
{
    return pack(cells);
}

uint64_t storedBaseBuckets(size_t ranks)
{
    const uint64_t budget = (uint64_t(1) << 24) / std::max<uint64_t>(1, ranks);
    return std::clamp<uint64_t>(std::bit_floor(std::max<uint64_t>(1, budget)), uint64_t(1) << 10,
                                uint64_t(1) << 15);
}

unsigned storedLevelDrop(const SummaryLevels& levels, size_t ranks)
{
    const uint64_t keep = storedBaseBuckets(ranks);
    unsigned drop = 0;
    while (drop + 1 < levels.levels() && levels.bucketCount(drop) > keep)
        ++drop;
    return drop;
}

bool isResultSummaryPath(const std::string& path)
{
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".rsum") == 0;
}

void writeResultSummary(const std::string& path, const ResultSummary& s)
{
    if (!s.trace) throw TraceError(path + ": a summary needs the trace's definitions");
    const Trace& trace = *s.trace;
    const size_t ranks = trace.rankCount();
    if (s.ranks.size() != ranks)
        throw TraceError(path + ": per-rank results for " + std::to_string(s.ranks.size()) +
                         " of " + std::to_string(ranks) + " ranks");
    std::vector<char> file(std::begin(kMagic), std::end(kMagic));
    ByteWriter(file).put(kResultSummaryVersion);

    std::vector<char> bytes;
    ByteWriter w(bytes);
    // The pyramids at the stored resolution, packed (rankscope-mpi hands them in packed).
    PackedPyramids own;
    const bool given = !s.packed.timeline.empty();
    if (given) {
        if (s.packed.timeline.size() != ranks || s.packed.waits.size() != ranks)
            throw TraceError(path + ": packed pyramids for other ranks");
    } else {
        const TimelineSummary timeline =
            s.timeline.coarsened(storedLevelDrop(s.timeline.geometry(), ranks));
        own.timelineLevels = timeline.geometry();
        for (uint32_t r = 0; r < ranks; ++r)
            own.timeline.push_back(packCells(timeline.rankCells(RankId(r))));
        const WaitSummary waitLod =
            s.waitSummary.coarsened(storedLevelDrop(s.waitSummary.levels(), ranks));
        own.waitLevels = waitLod.levels();
        for (uint32_t r = 0; r < ranks; ++r)
            own.waits.push_back(packCells(waitLod.rankCells(RankId(r))));
    }
    const PackedPyramids& pyramids = given ? s.packed : own;
    // The run's span is the timeline's (a part of a trace, rankscope-mpi, spans less).
    const SummaryLevels& span = pyramids.timelineLevels;
    encodeDefinitions(trace, span.origin, span.end, w);
    putSection(file, kDefs, bytes);

    bytes.clear();
    w.putString(s.source);
    w.put(s.events);
    putSection(file, kMeta, bytes);

    bytes.clear();
    for (const RankShare& share : s.ranks)
        encodeShare(share, bytes);
    putSection(file, kRank, bytes);

    bytes.clear();
    encodeWaitTotals(s.waits, s.waits.waits.empty() ? s.waits.rows : waitRows(s.waits), 0,
                     uint32_t(ranks), w);
    putSection(file, kWait, bytes);

    bytes.clear();
    putRootCauses(w, s.rootCauses);
    putSection(file, kRoot, bytes);

    for (const auto& [t, levels, cells] :
         {std::tie(kTimeline, pyramids.timelineLevels, pyramids.timeline),
          std::tie(kWaitLod, pyramids.waitLevels, pyramids.waits)}) {
        bytes.clear();
        putGeometry(w, levels);
        w.put<uint64_t>(cells.size());
        for (const PackedCells& p : cells)
            putPacked(w, p);
        putSection(file, t, bytes);
    }

    if (s.sourcePartial || !s.sourceProblems.empty()) {
        bytes.clear();
        w.put<uint8_t>(s.sourcePartial ? 1 : 0);
        w.put<uint64_t>(s.sourceProblems.size());
        for (const std::string& p : s.sourceProblems)
            w.putString(p);
        putSection(file, kNote, bytes);
    }

    // A temporary in the same folder, synced, then renamed over the old file.
    writeFileAtomically(path, std::string_view(file.data(), file.size()), "the result summary");
}

ResultSummary readResultSummary(const std::string& path)
{
    const std::vector<char> file = readWholeFile(path);
    if (file.size() < 8 || std::memcmp(file.data(), kMagic, 4) != 0)
        throw TraceError(path + ": not a Rankscope result summary (no RSUM header)");
    ByteReader head(file.data() + 4, 4);
    const auto version = head.get<uint32_t>();
    if (version > kResultSummaryVersion || version == 0)
        throw TraceError(path + ": result summary version " + std::to_string(version) +
                         "; this Rankscope reads version " + std::to_string(kResultSummaryVersion) +
                         " (a newer Rankscope wrote it)");

    std::map<uint32_t, std::pair<size_t, size_t>> sections; // tag -> (offset, length)
    const size_t headBytes = version >= 2 ? 16 : 12;
    for (size_t at = 8; at < file.size();) {
        ByteReader r(file.data() + at, file.size() - at);
        try {
            const auto t = r.get<uint32_t>();
            const auto length = r.get<uint64_t>();
            const uint32_t crc = version >= 2 ? r.get<uint32_t>() : 0;
            if (length > r.left())
                throw std::runtime_error("section " + tagName(t) + " runs past the end");
            if (version >= 2 &&
                sectionCrc(file.data() + at, file.data() + at + 16, size_t(length)) != crc)
                throw std::runtime_error("section " + tagName(t) +
                                         " fails its checksum (a changed byte)");
            if (!sections.emplace(t, std::make_pair(at + headBytes, size_t(length))).second)
                throw std::runtime_error("section " + tagName(t) + " is given twice");
            at += headBytes + size_t(length);
        } catch (const std::exception& e) {
            throw TraceError(path + ", byte " + std::to_string(at) + ": " + e.what() +
                             " (truncated or damaged file)");
        }
    }

    ResultSummary s;
    const auto section = [&](uint32_t t) {
        const auto it = sections.find(t);
        if (it == sections.end())
            throw TraceError(path + ": no " + tagName(t) + " section (damaged file)");
        return std::make_pair(ByteReader(file.data() + it->second.first, it->second.second),
                              it->second.first);
    };
    const auto decode = [&](uint32_t t, const auto& body) {
        auto [reader, offset] = section(t);
        try {
            body(reader);
            if (!reader.atEnd()) throw std::runtime_error("unexpected bytes at its end");
        } catch (const TraceError&) {
            throw;
        } catch (const std::exception& e) {
            throw TraceError(path + ", section " + tagName(t) + " (byte " + std::to_string(offset) +
                             "): " + e.what());
        }
    };
    if (sections.count(kNote))
        decode(kNote, [&](ByteReader& r) {
            const auto flag = r.get<uint8_t>();
            if (flag > 1) throw std::runtime_error("partial flag " + std::to_string(flag));
            s.sourcePartial = flag == 1;
            const auto n = r.get<uint64_t>();
            if (n > kMostNotes || n > r.left())
                throw std::runtime_error(std::to_string(n) + " warnings");
            for (uint64_t i = 0; i < n; ++i)
                s.sourceProblems.push_back(r.getString());
        });
    TraceDiagnostics note;
    note.partial = s.sourcePartial;
    note.warnings = s.sourceProblems;
    decode(kDefs, [&](ByteReader& r) {
        s.trace = std::make_shared<const Trace>(decodeDefinitions(r, note));
    });
    const Trace& trace = *s.trace;
    const size_t ranks = trace.rankCount();
    decode(kMeta, [&](ByteReader& r) {
        s.source = r.getString();
        s.events = r.get<uint64_t>();
    });
    decode(kRank, [&](ByteReader& r) {
        const size_t size = r.left();
        s.ranks = decodeShares(file.data() + section(kRank).second, size);
        r = ByteReader(nullptr, 0);
        if (s.ranks.size() != ranks)
            throw std::runtime_error(std::to_string(s.ranks.size()) + " ranks' results for " +
                                     std::to_string(ranks) + " ranks");
        for (size_t k = 0; k < ranks; ++k) {
            const RankShare& share = s.ranks[k];
            if (share.profile.rank.value != k || share.intervals.rank.value != k ||
                share.profile.regions.size() > trace.regions().size())
                throw std::runtime_error("rank " + std::to_string(k) + "'s results are misplaced");
        }
    });
    decode(kWait, [&](ByteReader& r) { s.waits = decodeWaitTotals(r, ranks); });
    decode(kRoot, [&](ByteReader& r) {
        s.rootCauses = getRootCauses(r, trace, s.waits.callSites.size());
    });
    decode(kTimeline, [&](ByteReader& r) {
        auto [g, cells] = getPyramid<uint32_t>(r, ranks);
        for (size_t k = 0; k < ranks; ++k)
            for (uint32_t c : cells[k])
                if (c != RegionId().value && c >= trace.regions().size())
                    throw std::runtime_error("rank " + std::to_string(k) +
                                             "'s pyramid names an unknown region");
        s.timeline = TimelineSummary::fromCells(g, std::move(cells));
    });
    decode(kWaitLod, [&](ByteReader& r) {
        auto [g, cells] = getPyramid<uint8_t>(r, ranks);
        s.waitSummary = WaitSummary::fromCells(g, std::move(cells));
    });
    return s;
}

Profile summaryProfile(const ResultSummary& s)
{
    std::vector<RankProfile> profiles;
    std::vector<RankSpan> spans;
    for (const RankShare& share : s.ranks) {
        profiles.push_back(share.profile);
        spans.push_back(share.span);
    }
    return mergeRankProfiles(*s.trace, std::move(profiles), combineRankSpans(std::move(spans)));
}

IntervalTable summaryIntervals(const ResultSummary& s)
{
    std::vector<RankIntervals> intervals;
    for (const RankShare& share : s.ranks)
        intervals.push_back(share.intervals);
    return mergeRankIntervals(s.ranks.size(), intervals);
}

} // namespace rankscope
