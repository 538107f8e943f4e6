// Reads the records of a .prv into ImportData (paraverimport_p.h).
//
// Records (BSC's Paraver trace format; fields separated by ':'):
//   1:cpu:appl:task:thread:begin:end:state                      a state interval
//   2:cpu:appl:task:thread:time:type:value[:type:value...]      events at one time
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
//                                                                a message, logical and
//                                                                physical send/receive times
//   c:appl:id:ntasks:task:task...                               a communicator
// Applications, tasks and threads count from 1.

#include "importers/linepipeline.h"
#include "importers/paraver/paraverimport_p.h"
#include "importers/paraver/paravermpi.h"
#include "importers/paraver/paraverrecords.h"
#include "importers/textsource.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <array>
#include <charconv>
#include <filesystem>
#include <limits>
#include <type_traits>

namespace rankscope::paraver {

namespace {

constexpr const char* kUnsorted = "a record earlier than its thread's previous one: the trace is "
                                  "not sorted by time (Paraver's sort utility sorts it)";

class Parser
{
public:
    Parser(const std::string& path, ImportData& data, uint64_t fileSize)
        : path_(path), d_(data), fileSize_(fileSize)
    {
    }

    /// The second stage: each line the tokenizer cut, in file order.
    void take(const text::LineBlock<RecordTokens>& block)
    {
        tok_ = &block.tokens;
        for (const Record& r : block.tokens.records) {
            rec_ = &r;
            if (!headerDone_) {
                header(r);
                continue;
            }
            if (r.count == 0) { // a blank line or a comment
                if (d_.partialMark.empty() && !r.text.empty() && r.text[0] == '#' &&
                    isPartialMark(r.text.substr(1))) {
                    d_.partialMark = std::string(r.text.substr(1));
                    d_.partialMarkLine = r.number;
                }
                continue;
            }
            switch (r.kind) {
            case '1':
                stateRecord();
                break;
            case '2':
                eventRecord();
                break;
            case '3':
                commRecord();
                break;
            case 'c':
            case 'C':
                communicatorRecord();
                break;
            case 'i':
            case 'I':
                break; // inter-communicators: not modelled
            default:
                fail("unknown record type '" + std::string(recordField(r.text, 0).substr(0, 20)) +
                     "' (Paraver records are 1 state, 2 event, 3 communication, c "
                     "communicator)");
            }
        }
        if (!reserved_ && fileSize_ > 0 && block.offset >= fileSize_ / 50 && !block.last) {
            // Growing the threads' lists by doubling copied each entry twice on average: once
            // 2 % of the file is read, each is sized for the whole file at its rate so far.
            reserved_ = true;
            const double scale = 1.05 * double(fileSize_) / double(block.offset);
            const auto grow = [scale](auto& v) {
                v.reserve(size_t(double(v.size()) * scale) + 16);
            };
            for (ThreadData& t : d_.threads) {
                grow(t.items);
                grow(t.ends);
                grow(t.states);
            }
        }
    }

    /// After the last line: a file without its header is an error.
    void finish(uint64_t lines)
    {
        if (headerDone_) return;
        if (!newFormat_) throw TraceError(path_ + ": empty file: not a Paraver trace");
        lineNumber_ = lines;
        throw TraceError(path_ + ": line " + std::to_string(lines) +
                         ": no header after \"new format\"");
    }

private:
    /// The first line (after "new format"): the header.
    void header(const Record& r)
    {
        if (!newFormat_ && r.number == 1 && r.text == "new format") {
            newFormat_ = true;
            return;
        }
        try {
            d_.header = parseHeader(r.text);
        } catch (const TraceError& e) {
            fail(e.what());
        }
        headerDone_ = true;
        defineRanks();
    }

    /// TraceError "<path>: line N: <what>" for the line being parsed.
    [[noreturn]] void fail(std::string_view what) const
    {
        throw TraceError(path_ + ": line " + std::to_string(rec_ ? rec_->number : lineNumber_) +
                         ": " + std::string(what));
    }

    size_t fieldCount() const { return rec_->count; }

    template <class Int> Int number(size_t field, const char* what)
    {
        static_assert(std::is_same_v<Int, uint64_t> || std::is_same_v<Int, int64_t>);
        const size_t at = rec_->first + field;
        const uint8_t need = std::is_same_v<Int, uint64_t> ? kUnsigned : kSigned;
        if (field < rec_->count && (tok_->ok[at] & need)) [[likely]]
            return Int(tok_->values[at]);
        badNumber(field, what);
    }

    [[noreturn, gnu::noinline, gnu::cold]] void badNumber(size_t field, const char* what) const
    {
        if (field >= rec_->count) fail(std::string("the record ends before its ") + what);
        fail(std::string("bad ") + what + " '" +
             std::string(recordField(rec_->text, field).substr(0, 40)) + "'");
    }

    int64_t time(size_t field, const char* what)
    {
        const uint64_t v = number<uint64_t>(field, what);
        const uint64_t limit =
            uint64_t(std::numeric_limits<int64_t>::max()) / uint64_t(d_.header.nsPerUnit);
        if (v > limit) fail(std::string(what) + " beyond the 292 years a trace can span");
        return int64_t(v) * d_.header.nsPerUnit;
    }

    void defineRanks()
    {
        TraceBuilder& b = d_.builder;
        b.setClock(ClockProperties{uint64_t(1'000'000'000 / d_.header.nsPerUnit), 0});
        const bool several = d_.header.applications.size() > 1;
        std::vector<RankId> all;
        for (size_t a = 0; a < d_.header.applications.size(); ++a) {
            d_.appFirstRank.push_back(uint32_t(all.size()));
            const auto& tasks = d_.header.applications[a];
            for (size_t t = 0; t < tasks.size(); ++t) {
                const std::string name = several ? "application " + std::to_string(a + 1) +
                                                       " task " + std::to_string(t + 1)
                                                 : "rank " + std::to_string(t);
                const RankId rank = b.addRank(b.intern(name));
                if (const uint32_t node = tasks[t].node; node > 0 && node <= d_.nodeNames.size())
                    b.setRankHost(rank, b.intern(d_.nodeNames[node - 1]));
                all.push_back(rank);
                d_.rankFirstThread.push_back(uint32_t(d_.threads.size()));
                for (uint32_t th = 1; th <= tasks[t].threads; ++th) {
                    ThreadData& thread = d_.threads.emplace_back();
                    thread.rank = rank.value;
                    thread.app = uint32_t(a);
                    thread.thread = th;
                }
            }
        }
        d_.world = addCommunicator(several ? "all applications" : "MPI_COMM_WORLD", all);
        b.setWorldCommunicator(d_.world);
        for (size_t a = 0; a < d_.header.applications.size(); ++a) {
            if (!several) {
                d_.appWorld.push_back(d_.world);
                continue;
            }
            std::vector<RankId> members;
            for (size_t t = 0; t < d_.header.applications[a].size(); ++t)
                members.push_back(RankId(d_.appFirstRank[a] + uint32_t(t)));
            d_.appWorld.push_back(
                addCommunicator("MPI_COMM_WORLD of application " + std::to_string(a + 1), members));
        }
    }

    CommId addCommunicator(const std::string& name, const std::vector<RankId>& members)
    {
        const CommId id = d_.builder.addCommunicator(d_.builder.intern(name), members);
        d_.commMembers.resize(std::max<size_t>(d_.commMembers.size(), id.value + 1));
        d_.commMembers[id.value] = members;
        return id;
    }

    /// The application (0-based) named by field `at`.
    uint32_t application(size_t at)
    {
        const auto app = number<uint64_t>(at, "application");
        if (app == 0 || app > d_.header.applications.size())
            fail("names application " + std::to_string(app) + ", but the header defines " +
                 std::to_string(d_.header.applications.size()));
        return uint32_t(app - 1);
    }

    /// The thread (index into threads) named by fields at+1 (application) to at+3 (thread).
    uint32_t thread(size_t at)
    {
        // Records of one thread come in runs: the last thread named is checked first.
        const uint64_t* v = tok_->values.data() + rec_->first + at + 1;
        if (rec_->count > at + 3 && (tok_->ok[rec_->first + at + 1] & kUnsigned) &&
            (tok_->ok[rec_->first + at + 2] & kUnsigned) &&
            (tok_->ok[rec_->first + at + 3] & kUnsigned) && lastThread_ != kNone &&
            v[0] == lastThreadKey_[0] && v[1] == lastThreadKey_[1] && v[2] == lastThreadKey_[2])
            return lastThread_;
        const uint32_t found = findThread(at);
        lastThreadKey_ = {v[0], v[1], v[2]};
        lastThread_ = found;
        return found;
    }

    uint32_t findThread(size_t at)
    {
        const uint32_t app = application(at + 1);
        const auto task = number<uint64_t>(at + 2, "task");
        const auto& tasks = d_.header.applications[app];
        if (task == 0 || task > tasks.size())
            fail("names task " + std::to_string(task) + " of application " +
                 std::to_string(app + 1) + ", which has " + std::to_string(tasks.size()) +
                 " tasks");
        const auto th = number<uint64_t>(at + 3, "thread");
        if (th == 0 || th > tasks[task - 1].threads)
            fail("names thread " + std::to_string(th) + " of task " + std::to_string(task) +
                 ", which has " + std::to_string(tasks[task - 1].threads) + " threads");
        const uint32_t rank = d_.appFirstRank[app] + uint32_t(task - 1);
        return d_.rankFirstThread[rank] + uint32_t(th - 1);
    }

    void communicatorRecord()
    {
        const uint32_t app = application(1);
        const auto id = number<uint64_t>(2, "communicator id");
        const auto n = number<uint64_t>(3, "communicator size");
        if (fieldCount() != 4 + n)
            fail("a communicator of " + std::to_string(n) + " tasks lists " +
                 std::to_string(fieldCount() - 4));
        const auto& tasks = d_.header.applications[app];
        std::vector<RankId> members;
        for (size_t i = 0; i < n; ++i) {
            const auto task = number<uint64_t>(4 + i, "task");
            if (task == 0 || task > tasks.size())
                fail("a communicator names task " + std::to_string(task) + " of application " +
                     std::to_string(app + 1) + ", which has " + std::to_string(tasks.size()) +
                     " tasks");
            members.push_back(RankId(d_.appFirstRank[app] + uint32_t(task - 1)));
        }
        d_.comms[{app, id}] = addCommunicator("communicator " + std::to_string(id), members);
    }

    void stateRecord()
    {
        if (fieldCount() != 8) fail("a state record has 8 fields");
        ThreadData& t = d_.threads[thread(1)];
        const int64_t begin = time(5, "state begin");
        const int64_t end = time(6, "state end");
        if (end < begin) fail("a state ends before it begins");
        if (begin < t.lastState) fail(kUnsorted);
        t.lastState = begin;
        const auto value = number<uint64_t>(7, "state");
        auto [it, added] = d_.stateRegions.try_emplace(value);
        if (added) {
            const auto label = d_.labels.states.find(value);
            Region r;
            r.name = d_.builder.intern(
                label != d_.labels.states.end() ? label->second : "State " + std::to_string(value));
            r.role = RegionRole::Other;
            r.paradigm = Paradigm::Other;
            it->second = d_.builder.addRegion(r);
            setRegion(it->second, "", false);
        }
        t.states.push_back({begin, it->second.value, ItemKind::Enter});
        t.states.push_back({end, it->second.value, ItemKind::Leave});
    }

    void setRegion(RegionId id, const std::string& name, bool mpi)
    {
        d_.regionNames.resize(std::max<size_t>(d_.regionNames.size(), id.value + 1));
        d_.regionIsMpi.resize(d_.regionNames.size());
        d_.regionNames[id.value] = name;
        d_.regionIsMpi[id.value] = mpi;
    }

    RegionId region(uint64_t type, int64_t value)
    {
        // Most records name a few calls over and over: a small cache before the map.
        RecentRegion& recent = recent_[(type * 31 + uint64_t(value)) % recent_.size()];
        if (recent.region.valid() && recent.type == type && recent.value == value)
            return recent.region;
        const RegionId found = regionOf(type, value);
        recent = {type, value, found};
        return found;
    }

    RegionId regionOf(uint64_t type, int64_t value)
    {
        auto [it, added] = d_.regions.try_emplace({type, value});
        if (!added) return it->second;
        const std::string* label = d_.haveLabels ? d_.labels.value(type, value) : nullptr;
        std::string name;
        Region r;
        if (isMpiCallType(type)) {
            if (label) {
                name = *label;
            } else if (const auto known = extraeMpiName(uint64_t(value))) {
                name = std::string(*known);
            } else {
                name = "MPI call " + std::to_string(value);
                ++d_.unlabelledMpiValues;
            }
            r.role = mpiRole(uint32_t(type), name);
            r.paradigm = Paradigm::Mpi;
        } else {
            name = label ? *label : "function " + std::to_string(value);
            if (!label) ++d_.unlabelledRegionValues;
            r.paradigm = Paradigm::User;
        }
        r.name = d_.builder.intern(name);
        const auto [byName, fresh] = regionsByName_.try_emplace(name);
        if (fresh) {
            byName->second = d_.builder.addRegion(r);
            setRegion(byName->second, name, r.paradigm == Paradigm::Mpi);
        }
        it->second = byName->second;
        return it->second;
    }

    void enter(ThreadData& t, int64_t now, uint64_t type, int64_t value)
    {
        const RegionId r = region(type, value);
        t.items.push_back({now, r.value, ItemKind::Enter});
        uint32_t collective = kNone;
        if (type == kMpiCollective) {
            collective = uint32_t(d_.collectives.size());
            CollectiveData& c = d_.collectives.emplace_back();
            c.op = collectiveOpOf(d_.regionNames[r.value]);
            c.comm = d_.appWorld[t.app];
            t.items.push_back({now, collective, ItemKind::CollectiveBegin});
        }
        t.open.push_back({type, r, collective});
    }

    void leave(ThreadData& t, int64_t now, uint64_t type)
    {
        size_t k = t.open.size();
        while (k > 0 && t.open[k - 1].type != type)
            --k;
        if (k == 0) {
            ++d_.unmatchedExits;
            return;
        }
        // Regions entered inside the one left are left with it.
        while (t.open.size() >= k) {
            const ThreadData::Open o = t.open.back();
            t.open.pop_back();
            if (o.collective != kNone)
                t.items.push_back({now, o.collective, ItemKind::CollectiveEnd});
            t.items.push_back({now, o.region.value, ItemKind::Leave});
        }
    }

    void misc(ThreadData& t, int64_t now, uint64_t type, int64_t value)
    {
        if (type != lastMiscType_ || !lastMiscName_.valid()) {
            lastMiscType_ = type;
            lastMiscName_ = miscName(type);
        }
        t.items.push_back({now, uint32_t(d_.misc.size()), ItemKind::Misc});
        d_.misc.push_back(MiscEvent{MiscKind::Other, lastMiscName_.value, value});
    }

    StringId miscName(uint64_t type)
    {
        auto [it, added] = d_.miscNames.try_emplace(type);
        if (added) {
            const auto label = d_.labels.types.find(type);
            it->second = d_.builder.intern(label != d_.labels.types.end()
                                               ? label->second
                                               : "Paraver event " + std::to_string(type));
        }
        return it->second;
    }

    void eventRecord()
    {
        if (fieldCount() < 8 || fieldCount() % 2 != 0)
            fail("an event record has 6 fields and then type:value pairs");
        ThreadData& t = d_.threads[thread(1)];
        const int64_t now = time(5, "event time");
        if (now < t.lastEvent) fail(kUnsorted);
        t.lastEvent = now;
        bool globalOp = false;
        CollectiveData details;
        int64_t commId = -1;
        int64_t op = -1;
        for (size_t f = 6; f + 1 < fieldCount(); f += 2) {
            const auto type = number<uint64_t>(f, "event type");
            const auto value = number<int64_t>(f + 1, "event value");
            if (isMpiCallType(type)) {
                if (value != 0)
                    enter(t, now, type, value);
                else
                    leave(t, now, type);
            } else if (type == kUserFunction) {
                if (value != 0)
                    enter(t, now, type, value);
                else
                    leave(t, now, type);
            } else if (type >= kGlobalOpSendSize && type <= kGlobalOpComm) {
                globalOp = true;
                if (value < 0) fail("a negative collective size, root or communicator");
                if (type == kGlobalOpSendSize) details.sent = uint64_t(value);
                if (type == kGlobalOpRecvSize) details.received = uint64_t(value);
                if (type == kGlobalOpRoot) details.isRoot = value != 0;
                if (type == kGlobalOpComm) commId = value;
            } else if (type == kCollectiveOp && value > 0 &&
                       value <= int64_t(CollectiveOp::Other) + 1) {
                globalOp = true;
                op = value - 1;
            } else {
                misc(t, now, type, value);
            }
        }
        if (!globalOp) return;
        // The details belong to the MPI call this thread is in (entered by this record); a
        // call of another type than collective (MPI_Init...) becomes a collective with them.
        size_t k = t.open.size();
        while (k > 0 && t.open[k - 1].region.value < d_.regionIsMpi.size() &&
               !d_.regionIsMpi[t.open[k - 1].region.value])
            --k;
        if (k == 0) return;
        ThreadData::Open& call = t.open[k - 1];
        if (call.collective == kNone) {
            call.collective = uint32_t(d_.collectives.size());
            CollectiveData& c = d_.collectives.emplace_back();
            c.op = collectiveOpOf(d_.regionNames[call.region.value]);
            c.comm = d_.appWorld[t.app];
            t.items.push_back({now, call.collective, ItemKind::CollectiveBegin});
        }
        CollectiveData& target = d_.collectives[call.collective];
        target.sent = details.sent;
        target.received = details.received;
        target.isRoot = details.isRoot;
        if (op >= 0) target.op = CollectiveOp(op);
        target.hasDetails = true;
        d_.anyDetails = true;
        if (commId >= 0) {
            const auto comm = d_.comms.find({t.app, uint64_t(commId)});
            if (comm != d_.comms.end())
                target.comm = comm->second;
            else
                ++d_.unknownComms;
        }
    }

    void commRecord()
    {
        if (fieldCount() != 15) fail("a communication record has 15 fields");
        const uint32_t from = thread(1);
        const int64_t logicalSend = time(5, "logical send time");
        time(6, "physical send time");
        const uint32_t to = thread(7);
        const int64_t logicalRecv = time(11, "logical receive time");
        const int64_t physicalRecv = time(12, "physical receive time");
        const auto bytes = number<int64_t>(13, "message size");
        const auto tag = number<int64_t>(14, "tag");
        if (bytes < 0) fail("a negative message size");
        if (tag < std::numeric_limits<int32_t>::min() || tag > std::numeric_limits<int32_t>::max())
            fail("a tag beyond 32 bits");
        if (d_.messages >= kMaxEventRef) fail("more messages than a trace can hold");
        const uint32_t m = d_.messages++;
        const uint32_t sender = d_.threads[from].rank, receiver = d_.threads[to].rank;
        const auto end = [&](int64_t t, uint32_t partner, EndKind kind) {
            return End{t, uint64_t(bytes), m, partner, int32_t(tag), kind};
        };
        d_.threads[from].ends.push_back(end(logicalSend, receiver, EndKind::Send));
        d_.threads[to].ends.push_back(end(logicalRecv, sender, EndKind::Post));
        d_.threads[to].ends.push_back(end(physicalRecv, sender, EndKind::Receive));
    }

    std::string path_;
    ImportData& d_;
    const RecordTokens* tok_ = nullptr;
    const Record* rec_ = nullptr;
    uint64_t lineNumber_ = 0; ///< for an error after the last line
    bool newFormat_ = false;  ///< the first line said "new format"
    bool headerDone_ = false;
    uint64_t fileSize_ = 0; ///< bytes (compressed for a .gz, whose offsets count the same)
    bool reserved_ = false;
    std::array<uint64_t, 3> lastThreadKey_{}; ///< application, task, thread of lastThread_
    uint32_t lastThread_ = kNone;
    std::map<std::string, RegionId> regionsByName_;
    struct RecentRegion
    {
        uint64_t type = 0;
        int64_t value = 0;
        RegionId region;
    };
    std::array<RecentRegion, 64> recent_{};
    uint64_t lastMiscType_ = 0;
    StringId lastMiscName_;
};

} // namespace

void parseParaver(const std::string& path, ImportData& data,
                  const std::function<bool(double)>& progress, unsigned threads)
{
    text::TextSource source(path, "Paraver trace");
    Parser parser(path, data, source.size());
    uint64_t lines = 0;
    int reported = 0;
    text::runLinePipeline<RecordTokens>(
        source,
        [](std::string_view line, uint64_t n, RecordTokens& out) { tokenizeRecord(line, n, out); },
        [&](const text::LineBlock<RecordTokens>& block) {
            parser.take(block);
            lines = block.firstLine + block.lines - 1;
            if (progress && source.size() > 0) {
                const double done = std::min(1.0, double(block.offset) / double(source.size()));
                if (int(100 * done) > reported) {
                    reported = int(100 * done);
                    if (!progress(done)) throw Cancelled();
                }
            }
        },
        [&](uint64_t n) {
            throw TraceError(path + ": line " + std::to_string(n) +
                             ": a line longer than 64 MiB: not a Paraver trace");
        },
        threads);
    parser.finish(lines);
}

} // namespace rankscope::paraver
