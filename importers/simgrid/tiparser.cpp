// Reading a SimGrid TI trace into an action program (tiimport.h): the files are tokenised into
// raw actions per rank first, then sends and receives are paired over all ranks, then each
// rank's actions become the program's.

#include "importers/simgrid/tiimport_p.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace rankscope {

using namespace netsim;
namespace fs = std::filesystem;

namespace ti {

namespace {

const std::map<std::string_view, TiCall>& callNames()
{
    static const std::map<std::string_view, TiCall> names = {
        {"init", TiCall::Init},
        {"finalize", TiCall::Finalize},
        {"send", TiCall::Send},
        {"isend", TiCall::Isend},
        {"recv", TiCall::Recv},
        {"irecv", TiCall::Irecv},
        {"wait", TiCall::Wait},
        {"waitall", TiCall::Waitall},
        {"test", TiCall::Test},
        {"barrier", TiCall::Barrier},
        {"bcast", TiCall::Bcast},
        {"reduce", TiCall::Reduce},
        {"allreduce", TiCall::Allreduce},
        {"allgather", TiCall::Allgather},
        {"gather", TiCall::Gather},
        {"scatter", TiCall::Scatter},
        {"alltoall", TiCall::Alltoall},
        {"reducescatter", TiCall::ReduceScatter},
        {"alltoallv", TiCall::Alltoallv},
        {"gatherv", TiCall::Gatherv},
        {"allgatherv", TiCall::Allgatherv},
        {"scatterv", TiCall::Scatterv},
    };
    return names;
}

/// Parses the fields of one action line; errors name "file:line".
class LineParser
{
public:
    LineParser(const std::string& file, uint32_t line, const std::vector<std::string_view>& fields,
               uint32_t ranks, uint32_t defaultTypeBytes)
        : file_(file), line_(line), f_(fields), ranks_(ranks), typeBytes_(defaultTypeBytes)
    {
    }

    [[noreturn]] void fail(const std::string& what) const
    {
        throw TraceError(file_ + ":" + std::to_string(line_) + ": " + what);
    }
    size_t args() const { return f_.size() - 2; }
    void need(size_t n, const char* form) const
    {
        if (args() < n)
            fail("truncated line: " + std::string(f_[1]) + " needs " + form + ", it has " +
                 std::to_string(args()) + " argument(s)");
    }
    double number(size_t i, const char* what) const
    {
        const std::string_view s = f_[i + 2];
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
            fail(std::string(what) + " '" + std::string(s) + "' is not a number >= 0");
        return v;
    }
    int64_t integer(size_t i, const char* what) const
    {
        const std::string_view s = f_[i + 2];
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size())
            fail(std::string(what) + " '" + std::string(s) + "' is not an integer");
        return v;
    }
    uint32_t rank(size_t i, const char* what) const
    {
        const int64_t r = integer(i, what);
        if (r < 0 || r >= int64_t(ranks_))
            fail(std::string(what) + " " + std::to_string(r) + " is not a rank (the trace has " +
                 std::to_string(ranks_) + ")");
        return uint32_t(r);
    }
    /// SimGrid's datatype id at field i (if there) sets the element size.
    uint32_t typeBytes(size_t i) const
    {
        if (args() <= i) return typeBytes_;
        static constexpr uint32_t sizes[] = {8, 4, 1, 2, 8, 4, 1};
        const int64_t id = integer(i, "datatype");
        if (id < 0 || id > 6)
            fail("datatype " + std::to_string(id) +
                 " is not one SimGrid's TI traces use (0 double ... 6 byte)");
        return sizes[id];
    }
    /// Sizes above 2^53 bytes (8 PiB) are refused: no message is that large, and doubles
    /// stop counting bytes exactly there.
    uint64_t bytes(size_t i, const char* what, uint32_t typeBytes) const
    {
        return checked(number(i, what) * typeBytes);
    }
    uint64_t checked(double bytes) const
    {
        if (bytes > 9007199254740992.0)
            fail("size " + std::to_string(bytes) + " bytes is beyond 2^53");
        return uint64_t(std::llround(bytes));
    }
    /// A rank's share times the ranks: the operation's size.
    uint64_t whole(uint64_t share, uint32_t ranks) const { return checked(double(share) * ranks); }
    /// Sum of `count` element counts from field i.
    uint64_t counts(size_t i, size_t count, uint32_t typeBytes) const
    {
        double sum = 0;
        for (size_t k = 0; k < count; ++k)
            sum += number(i + k, "count");
        return checked(sum * typeBytes);
    }
    std::string_view name() const { return f_[1]; }

private:
    const std::string& file_;
    uint32_t line_;
    const std::vector<std::string_view>& f_;
    uint32_t ranks_;
    uint32_t typeBytes_;
};

/// Fills `a` from the line; returns false for an action without time or message (bookkeeping).
bool parseAction(const LineParser& p, TiCall call, RawAction& a, uint32_t ranks,
                 uint32_t& typeBytes)
{
    a.call = call;
    const uint32_t n = ranks;
    switch (call) {
    case TiCall::Init:
        // SimGrid: any argument makes MPI_DOUBLE the default datatype.
        typeBytes = p.args() > 0 ? 8 : 1;
        break;
    case TiCall::Finalize:
    case TiCall::Waitall:
    case TiCall::Barrier:
        break;
    case TiCall::Send:
    case TiCall::Isend:
    case TiCall::Recv:
    case TiCall::Irecv: {
        const bool send = call == TiCall::Send || call == TiCall::Isend;
        p.need(3, send ? "<dst> <tag> <size>" : "<src> <tag> <size>");
        a.a = p.rank(0, send ? "destination" : "source");
        const int64_t tag = p.integer(1, "tag");
        if (tag < INT32_MIN || tag > INT32_MAX) p.fail("tag " + std::to_string(tag) + " too large");
        a.tag = int32_t(tag);
        a.bytes = p.bytes(2, "size", p.typeBytes(3));
        break;
    }
    case TiCall::Wait:
    case TiCall::Test: {
        p.need(3, "<src> <dst> <tag>");
        a.a = p.rank(0, "source");
        a.b = p.rank(1, "destination");
        const int64_t tag = p.integer(2, "tag");
        if (tag < INT32_MIN || tag > INT32_MAX) p.fail("tag " + std::to_string(tag) + " too large");
        a.tag = int32_t(tag);
        break;
    }
    case TiCall::Bcast:
        p.need(1, "<size>");
        a.a = p.args() > 1 ? p.rank(1, "root") : 0;
        a.bytes = p.bytes(0, "size", p.typeBytes(2));
        break;
    case TiCall::Reduce:
        p.need(2, "<size> <flops>");
        p.number(1, "flops");
        a.a = p.args() > 2 ? p.rank(2, "root") : 0;
        a.bytes = p.bytes(0, "size", p.typeBytes(3));
        break;
    case TiCall::Allreduce:
        p.need(2, "<size> <flops>");
        p.number(1, "flops");
        a.bytes = p.bytes(0, "size", p.typeBytes(2));
        break;
    case TiCall::Alltoall:
    case TiCall::Allgather:
        p.need(2, "<send size> <recv size>");
        p.number(1, "receive size");
        a.bytes = p.whole(p.bytes(0, "send size", p.typeBytes(2)), n);
        break;
    case TiCall::Gather:
    case TiCall::Scatter:
        p.need(2, "<send size> <recv size>");
        a.a = p.args() > 2 ? p.rank(2, "root") : 0;
        a.bytes = p.whole(p.bytes(call == TiCall::Gather ? 0 : 1, "size", p.typeBytes(3)), n);
        p.number(call == TiCall::Gather ? 1 : 0, "size");
        break;
    case TiCall::ReduceScatter:
        p.need(n + 1, "a receive count per rank and <flops>");
        p.number(n, "flops");
        a.bytes = p.counts(0, n, p.typeBytes(n + 1));
        break;
    case TiCall::Alltoallv:
        p.need(2 * n + 2, "<send buffer> <send counts...> <recv buffer> <recv counts...>");
        p.number(0, "send buffer");
        p.number(n + 1, "receive buffer");
        a.bytes = std::max(p.counts(1, n, p.typeBytes(2 * n + 2)),
                           p.counts(n + 2, n, p.typeBytes(2 * n + 2)));
        break;
    case TiCall::Gatherv:
    case TiCall::Allgatherv:
        p.need(n + 1, "<send size> <recv counts...>");
        p.number(0, "send size");
        a.bytes = p.counts(1, n, p.typeBytes(n + 2));
        if (call == TiCall::Gatherv && p.args() > n + 1) a.a = p.rank(n + 1, "root");
        break;
    case TiCall::Scatterv:
        p.need(n + 1, "<send counts...> <recv size>");
        p.number(n, "receive size");
        a.bytes = p.counts(0, n, p.typeBytes(n + 2));
        if (p.args() > n + 1) a.a = p.rank(n + 1, "root");
        break;
    case TiCall::Count:
        return false;
    }
    return true;
}

std::string readWhole(const std::string& path, const std::string& namedBy)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        throw TraceError(namedBy + ": rank file " + path + " does not exist or is not a file");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof()) throw TraceError(path + ": cannot be read");
    return std::move(text).str();
}

/// Splits `line` at blanks.
void fieldsOf(std::string_view line, std::vector<std::string_view>& out)
{
    out.clear();
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > b) out.push_back(line.substr(b, i - b));
    }
}

struct Unknown
{
    std::string file;
    uint32_t line = 0;
    uint64_t count = 0;
};

/// Reads one action file into `ranks` (all of it into `only` when given, else each line into
/// the rank it starts with).
void parseFile(const std::string& path, const std::string& namedBy, std::vector<RankActions>& ranks,
               int64_t only, const TiReadOptions& options, std::map<std::string, Unknown>& unknown,
               TiImport& out)
{
    const std::string text = readWhole(path, namedBy);
    const double nsPerFlop = 1e9 / options.flopsPerSecond;
    const uint32_t n = uint32_t(ranks.size());
    std::vector<uint32_t> typeBytes(n, 1);
    std::vector<std::string_view> fields;
    uint32_t line = 0;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string_view l(text.data() + at, end - at);
        at = end + 1;
        ++line;
        fieldsOf(l, fields);
        if (!fields.empty() && fields[0][0] == '#' && line == 1 && out.partialMark.empty()) {
            const std::string_view comment = l.substr(l.find('#') + 1);
            if (isPartialMark(comment)) {
                out.partialMark = std::string(comment);
                out.partialMarkWhere = path + ":1";
            }
        }
        if (fields.empty() || fields[0][0] == '#') continue;
        if (fields.size() < 2)
            throw TraceError(path + ":" + std::to_string(line) +
                             ": truncated line: a rank without an action");
        int64_t r = only;
        if (r < 0) {
            const auto [p, ec] =
                std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), r);
            if (ec != std::errc() || p != fields[0].data() + fields[0].size() || r < 0 ||
                r >= int64_t(n))
                throw TraceError(path + ":" + std::to_string(line) + ": '" +
                                 std::string(fields[0]) + "' is not a rank of the trace (0.." +
                                 std::to_string(n - 1) + ")");
        }
        ++out.actions;
        RawAction a;
        a.line = line;
        const LineParser parser(path, line, fields, n, typeBytes[r]);
        const std::string_view name = fields[1];
        if (name == "compute" || name == "sleep") {
            parser.need(1, name == "compute" ? "<flops>" : "<seconds>");
            const double v = parser.number(0, name == "compute" ? "flops" : "seconds");
            a.compute = true;
            a.ns = name == "compute" ? v * nsPerFlop : v * 1e9;
            ranks[r].actions.push_back(a);
            continue;
        }
        if (name == "comm_size" || name == "comm_split" || name == "comm_dup" || name == "location")
            continue;
        const auto it = callNames().find(name);
        if (it == callNames().end()) {
            Unknown& u = unknown[std::string(name)];
            if (u.count++ == 0) {
                u.file = path;
                u.line = line;
            }
            ++out.skippedActions;
            continue;
        }
        if (parseAction(parser, it->second, a, n, typeBytes[r])) ranks[r].actions.push_back(a);
    }
}

/// The ranks a shared file holds: one more than the largest leading rank.
uint32_t ranksInSharedFile(const std::string& path, const std::string& namedBy)
{
    const std::string text = readWhole(path, namedBy);
    int64_t most = -1;
    uint64_t lines = 0;
    std::vector<std::string_view> fields;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        fieldsOf(std::string_view(text.data() + at, end - at), fields);
        at = end + 1;
        if (fields.empty() || fields[0][0] == '#') continue;
        int64_t r = -1;
        std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), r);
        most = std::max(most, std::min<int64_t>(r, 1 << 30));
        ++lines;
    }
    // Every rank has actions (at least init and finalize), so a rank number beyond the lines
    // is a damaged file, not a trace of that many ranks.
    if (most >= 0 && uint64_t(most) >= lines)
        throw TraceError(path + ": names rank " + std::to_string(most) + " but has only " +
                         std::to_string(lines) + " action line(s): every rank 0.." +
                         std::to_string(most) + " needs its actions");
    return uint32_t(most + 1);
}

} // namespace

std::vector<RankActions> parseTiFiles(const std::string& listPath, const TiReadOptions& options,
                                      TiImport& out)
{
    if (!(options.flopsPerSecond > 0) || !std::isfinite(options.flopsPerSecond))
        throw TraceError("the flop rate of a TI import must be a number > 0");
    out.listPath = listPath;
    std::error_code ec;
    if (!fs::is_regular_file(listPath, ec))
        throw TraceError(listPath + ": no such file (a TI trace is a list file naming one "
                                    "action file per rank)");
    const std::string list = readWhole(listPath, listPath);
    const fs::path folder = fs::path(listPath).parent_path();
    std::vector<std::string_view> fields;
    uint32_t line = 0;
    std::vector<uint32_t> lines;
    for (size_t at = 0; at < list.size();) {
        size_t end = list.find('\n', at);
        if (end == std::string::npos) end = list.size();
        std::string_view l(list.data() + at, end - at);
        at = end + 1;
        ++line;
        while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t'))
            l.remove_suffix(1);
        while (!l.empty() && (l.front() == ' ' || l.front() == '\t'))
            l.remove_prefix(1);
        if (l.empty() || l[0] == '#') continue;
        if (l.find('\0') != std::string_view::npos)
            throw TraceError(listPath + ":" + std::to_string(line) +
                             ": not a file name (a NUL byte)");
        const fs::path named(l);
        out.rankFiles.push_back(named.is_absolute() ? named.string() : (folder / named).string());
        lines.push_back(line);
    }
    if (out.rankFiles.empty())
        throw TraceError(listPath + ": names no action file (one per rank, or one for all)");
    std::map<std::string, Unknown> unknown;
    std::vector<RankActions> ranks;
    const auto namedBy = [&](size_t i) { return listPath + ":" + std::to_string(lines[i]); };
    if (out.rankFiles.size() == 1) {
        const uint32_t n = ranksInSharedFile(out.rankFiles[0], namedBy(0));
        if (n == 0) throw TraceError(out.rankFiles[0] + ": holds no action");
        ranks.resize(n);
        for (RankActions& r : ranks)
            r.file = out.rankFiles[0];
        parseFile(out.rankFiles[0], namedBy(0), ranks, -1, options, unknown, out);
    } else {
        ranks.resize(out.rankFiles.size());
        for (size_t r = 0; r < ranks.size(); ++r) {
            ranks[r].file = out.rankFiles[r];
            parseFile(out.rankFiles[r], namedBy(r), ranks, int64_t(r), options, unknown, out);
        }
    }
    for (const auto& [name, u] : unknown)
        out.warnings.push_back(u.file + ":" + std::to_string(u.line) + ": unknown action '" + name +
                               "' skipped (" + std::to_string(u.count) + " time" +
                               (u.count == 1 ? "" : "s") + ")");
    return ranks;
}

} // namespace ti

const char* tiCallName(TiCall call)
{
    static constexpr const char* names[] = {
        "MPI_Init",       "MPI_Finalize", "MPI_Send",           "MPI_Isend",     "MPI_Recv",
        "MPI_Irecv",      "MPI_Wait",     "MPI_Waitall",        "MPI_Test",      "MPI_Barrier",
        "MPI_Bcast",      "MPI_Reduce",   "MPI_Allreduce",      "MPI_Allgather", "MPI_Gather",
        "MPI_Scatter",    "MPI_Alltoall", "MPI_Reduce_scatter", "MPI_Alltoallv", "MPI_Gatherv",
        "MPI_Allgatherv", "MPI_Scatterv"};
    return call < TiCall::Count ? names[size_t(call)] : "MPI_Unknown";
}

bool isTiPath(const std::string& path)
{
    return path.size() > 3 && path[path.size() - 3] == '.' &&
           (path[path.size() - 2] | 0x20) == 't' && (path[path.size() - 1] | 0x20) == 'i';
}

} // namespace rankscope
