#include "importers/paje/pajeexport.h"

#include "model/matching/messageend.h"
#include "model/support/atomicfile.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <ostream>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope {

namespace paje {

void appendQuoted(std::string& out, std::string_view s)
{
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"')
            out += '\'';
        else if (u < 0x20 || u == 0x7f)
            out += ' ';
        else
            out += c;
    }
    out += '"';
}

void appendSeconds(std::string& out, int64_t ns)
{
    uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (ns < 0) out += '-';
    char digits[32];
    std::snprintf(digits, sizeof digits, "%llu.%09llu",
                  static_cast<unsigned long long>(magnitude / 1'000'000'000u),
                  static_cast<unsigned long long>(magnitude % 1'000'000'000u));
    out += digits;
}

} // namespace paje

namespace {

using paje::appendQuoted;
using paje::appendSeconds;

// The event numbers of the header below.
enum Event
{
    DefineContainerType,
    DefineStateType,
    DefineLinkType,
    DefineEntityValue,
    CreateContainer,
    DestroyContainer,
    PushState,
    PopState,
    StartLink,
    EndLink,
    DefineRegionValue,
    DefineEventType,
    CollectiveEvent,
    CommunicatorEvent
};

constexpr std::string_view kHeader = R"(%EventDef PajeDefineContainerType 0
%	Alias string
%	Type string
%	Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%	Alias string
%	Type string
%	Name string
%EndEventDef
%EventDef PajeDefineLinkType 2
%	Alias string
%	Type string
%	StartContainerType string
%	EndContainerType string
%	Name string
%EndEventDef
%EventDef PajeDefineEntityValue 3
%	Alias string
%	Type string
%	Name string
%	Color color
%EndEventDef
%EventDef PajeCreateContainer 4
%	Time date
%	Alias string
%	Type string
%	Container string
%	Name string
%EndEventDef
%EventDef PajeDestroyContainer 5
%	Time date
%	Type string
%	Name string
%EndEventDef
%EventDef PajePushState 6
%	Time date
%	Type string
%	Container string
%	Value string
%EndEventDef
%EventDef PajePopState 7
%	Time date
%	Type string
%	Container string
%EndEventDef
%EventDef PajeStartLink 8
%	Time date
%	Type string
%	Container string
%	StartContainer string
%	Value string
%	Key string
%	Size int
%	Tag int
%	Comm int
%EndEventDef
%EventDef PajeEndLink 9
%	Time date
%	Type string
%	Container string
%	EndContainer string
%	Value string
%	Key string
%	Post string
%EndEventDef
%EventDef PajeDefineEntityValue 10
%	Alias string
%	Type string
%	Name string
%	Color color
%	Paradigm int
%	Role int
%EndEventDef
%EventDef PajeDefineEventType 11
%	Alias string
%	Type string
%	Name string
%EndEventDef
%EventDef PajeNewEvent 12
%	Time date
%	Type string
%	Container string
%	Value string
%	Op int
%	Comm int
%	Root int
%	Sent int
%	Received int
%EndEventDef
%EventDef PajeNewEvent 13
%	Time date
%	Type string
%	Container string
%	Value string
%	Id int
%	Parent int
%	Members string
%EndEventDef
0 CT_Run 0 "MPI run"
0 CT_Rank CT_Run "Rank"
0 CT_Thread CT_Rank "Thread"
1 ST_Rank CT_Rank "Region"
1 ST_Thread CT_Thread "Thread region"
2 LT_Message CT_Run CT_Rank CT_Rank "Message"
3 V_Message LT_Message "message" "0.5 0.5 0.5"
11 ET_Collective CT_Rank "Collective"
11 ET_Communicator CT_Run "Communicator"
3 V_Begin ET_Collective "begin" "0.9 0.3 0.3"
3 V_End ET_Collective "end" "0.9 0.3 0.3"
3 V_Comm ET_Communicator "communicator" "0.5 0.5 0.5"
)";

const char* colorOf(Paradigm p)
{
    switch (p) {
    case Paradigm::Mpi:
        return "\"0.9 0.3 0.3\"";
    case Paradigm::User:
    case Paradigm::Compiler:
        return "\"0.4 0.6 0.9\"";
    case Paradigm::OpenMp:
    case Paradigm::Pthread:
        return "\"0.4 0.8 0.4\"";
    case Paradigm::Cuda:
    case Paradigm::OpenAcc:
        return "\"0.9 0.7 0.2\"";
    default:
        return "\"0.7 0.7 0.7\"";
    }
}

/// One location in the merge: its next event.
struct Cursor
{
    int64_t time = 0;
    uint32_t location = 0;
    bool operator>(const Cursor& o) const
    {
        return time != o.time ? time > o.time : location > o.location;
    }
};

class PajeWriter
{
public:
    using Sink = std::function<void(std::string_view)>;

    PajeWriter(const Trace& trace, Sink sink) : trace_(trace), sink_(std::move(sink)) {}

    PajeExportReport write()
    {
        text_ += "# Paje trace written by rankscope: times in seconds since the trace's start\n";
        if (const std::string mark = partialMark(trace_.diagnostics()); !mark.empty())
            text_ += "# " + mark + "\n";
        text_ += kHeader;
        prepareContainers();
        numberValues();
        const int64_t begin = std::min<int64_t>(0, trace_.beginTime());
        const int64_t end = std::max<int64_t>(begin, trace_.endTime());
        line(CreateContainer, begin) += " run CT_Run 0 \"MPI run\"\n";
        for (size_t l = 0; l < trace_.locations().size(); ++l) {
            if (container_[l].empty()) continue;
            const LocationId loc(static_cast<uint32_t>(l));
            const RankId rank = trace_.rankOf(loc);
            const bool main = trace_.rank(rank).mainLocation == loc;
            line(CreateContainer, begin) += ' ';
            text_ += container_[l];
            text_ += main ? " CT_Rank run " : " CT_Thread ";
            if (!main) text_ += rankContainer(rank);
            text_ += ' ';
            appendQuoted(text_, containerName_[l]);
            text_ += '\n';
        }
        writeCommunicators(begin);
        writeEvents();
        for (size_t l = trace_.locations().size(); l-- > 0;) {
            if (container_[l].empty()) continue;
            const bool main = trace_.rank(trace_.rankOf(LocationId(uint32_t(l)))).mainLocation ==
                              LocationId(uint32_t(l));
            line(DestroyContainer, end) += main ? " CT_Rank " : " CT_Thread ";
            text_ += container_[l];
            text_ += '\n';
        }
        line(DestroyContainer, end) += " CT_Run run\n";
        flush();
        return report_;
    }

private:
    /// Starts an event line: its number and time.
    std::string& line(Event e, int64_t t)
    {
        if (text_.size() >= kBlock) flush();
        if (e >= 10) text_ += char('0' + e / 10);
        text_ += char('0' + e % 10);
        text_ += ' ';
        appendSeconds(text_, t);
        return text_;
    }

    void flush()
    {
        if (text_.empty()) return;
        sink_(text_);
        report_.bytes += text_.size();
        text_.clear();
    }

    std::string rankContainer(RankId rank) const
    {
        return container_[trace_.rank(rank).mainLocation.value];
    }

    /// Aliases and names of the containers: every rank's main location, and each further
    /// location that has events.
    void prepareContainers()
    {
        container_.resize(trace_.locations().size());
        containerName_.resize(container_.size());
        for (size_t r = 0; r < trace_.rankCount(); ++r) {
            const Rank& rank = trace_.rank(RankId(uint32_t(r)));
            for (size_t k = 0; k < rank.locations.size(); ++k) {
                const uint32_t l = rank.locations[k].value;
                const bool main = rank.locations[k] == rank.mainLocation;
                if (!main && trace_.events(rank.locations[k]).empty()) continue;
                container_[l] = main ? "r" + std::to_string(r) : "t" + std::to_string(l);
                containerName_[l] = "rank " + std::to_string(r);
                if (!main) containerName_[l] += " thread " + std::to_string(k);
            }
        }
    }

    /// One entity value per distinct region name (and state type): its number by RegionId.
    void numberValues()
    {
        std::unordered_map<std::string_view, uint32_t> byName;
        value_.resize(trace_.regions().size());
        for (size_t r = 0; r < trace_.regions().size(); ++r) {
            const std::string_view name = trace_.str(trace_.regions()[r].name);
            value_[r] = byName.emplace(name, uint32_t(byName.size())).first->second;
        }
        defined_.assign(2 * byName.size(), false);
    }

    /// Defines the entity value of `region` for the rank or thread state type before its first
    /// use, coloured by the paradigm of the first region entered with that name.
    void defineValue(RegionId region, bool main)
    {
        const uint32_t v = value_[region.value];
        if (defined_[2 * v + (main ? 0 : 1)]) return;
        defined_[2 * v + (main ? 0 : 1)] = true;
        text_ += main ? "10 a" : "10 b";
        text_ += std::to_string(v);
        text_ += main ? " ST_Rank " : " ST_Thread ";
        appendQuoted(text_, trace_.regionName(region));
        text_ += ' ';
        text_ += colorOf(trace_.region(region).paradigm);
        text_ += ' ';
        text_ += std::to_string(int(trace_.region(region).paradigm));
        text_ += ' ';
        text_ += std::to_string(int(trace_.region(region).role));
        text_ += '\n';
    }

    /// All locations' events in time order (ties: by location), each location's in its order.
    void writeEvents()
    {
        const size_t n = trace_.locations().size();
        next_.assign(n, 0);
        stacks_.assign(n, {});
        std::priority_queue<Cursor, std::vector<Cursor>, std::greater<Cursor>> heap;
        for (size_t l = 0; l < n; ++l) {
            const EventStream& es = trace_.events(LocationId(uint32_t(l)));
            if (!es.empty() && !container_[l].empty()) heap.push({es.time(0), uint32_t(l)});
        }
        while (!heap.empty()) {
            const uint32_t l = heap.top().location;
            heap.pop();
            const LocationId loc(l);
            const EventStream& es = trace_.events(loc);
            const size_t i = next_[l]++;
            event(loc, es, i);
            if (next_[l] < es.size()) {
                heap.push({es.time(next_[l]), l});
            } else {
                // Regions open at the end of the location close at its last timestamp.
                while (!stacks_[l].empty()) {
                    ++report_.unclosedStates;
                    pop(loc, es.time(i));
                }
            }
        }
    }

    void event(LocationId loc, const EventStream& es, size_t i)
    {
        const EventKind kind = es.kind(i);
        const int64_t t = es.time(i);
        if (kind == EventKind::Enter) {
            const bool main = container_[loc.value][0] == 'r';
            defineValue(es.region(i), main);
            line(PushState, t) += main ? " ST_Rank " : " ST_Thread ";
            text_ += container_[loc.value];
            text_ += main ? " a" : " b";
            text_ += std::to_string(value_[es.region(i).value]);
            text_ += '\n';
            stacks_[loc.value].push_back(es.region(i));
            ++report_.states;
        } else if (kind == EventKind::Leave) {
            std::vector<RegionId>& stack = stacks_[loc.value];
            const auto open = std::find(stack.rbegin(), stack.rend(), es.region(i));
            if (open == stack.rend()) {
                ++report_.skippedLeaves;
                return;
            }
            const size_t depth = size_t(stack.rend() - open) - 1;
            while (stack.size() > depth)
                pop(loc, t);
        } else if (kind == EventKind::MpiSend || kind == EventKind::MpiIsend ||
                   kind == EventKind::MpiRecv || kind == EventKind::MpiIrecv) {
            linkEnd(loc, es, i);
        } else if (kind == EventKind::MpiIrecvRequest) {
            if (es.message(i).valid()) posted_[es.message(i).value] = t;
        } else if (kind == EventKind::MpiCollectiveBegin || kind == EventKind::MpiCollectiveEnd) {
            collectiveEvent(loc, es, i);
        } else if (kind == EventKind::MpiIsendComplete) {
            ++report_.requestCompletions;
        } else if (kind == EventKind::MpiRequestTest || kind == EventKind::MpiRequestCancelled) {
            ++report_.requestTests;
        } else if (kind == EventKind::Misc) {
            ++report_.miscEvents;
        }
    }

    void pop(LocationId loc, int64_t t)
    {
        const bool main = container_[loc.value][0] == 'r';
        line(PopState, t) += main ? " ST_Rank " : " ST_Thread ";
        text_ += container_[loc.value];
        text_ += '\n';
        stacks_[loc.value].pop_back();
    }

    void linkEnd(LocationId loc, const EventStream& es, size_t i)
    {
        const MessageEnd end = messageEndOf(trace_, loc, es, i);
        if (end == MessageEnd::Unmatched) ++report_.unmatchedMessages;
        if (end != MessageEnd::Send && end != MessageEnd::Receive) return;
        const MessageId id = es.message(i);
        const bool start = end == MessageEnd::Send;
        line(start ? StartLink : EndLink, es.time(i)) += " LT_Message run ";
        text_ += rankContainer(trace_.rankOf(loc));
        text_ += " V_Message m";
        text_ += std::to_string(id.value);
        const Message& m = trace_.message(id);
        if (start) {
            text_ += ' ';
            text_ += std::to_string(m.bytes);
            text_ += ' ';
            text_ += std::to_string(m.tag);
            text_ += ' ';
            text_ += m.comm.valid() ? std::to_string(m.comm.value) : std::string("-1");
            ++report_.links;
        } else {
            const auto post = posted_.find(id.value);
            if (post == posted_.end()) {
                text_ += " -";
            } else {
                text_ += ' ';
                appendSeconds(text_, post->second);
                posted_.erase(post);
            }
        }
        text_ += '\n';
    }

    /// Every communicator as an event of the run at its start: id, parent (-1: none), name
    /// (the event's value) and members (world ranks, blank-separated).
    void writeCommunicators(int64_t begin)
    {
        const auto& comms = trace_.communicators();
        for (size_t c = 0; c < comms.size(); ++c) {
            line(CommunicatorEvent, begin) += " ET_Communicator run ";
            const std::string_view name = comms[c].name.valid() ? trace_.str(comms[c].name) : "";
            appendQuoted(text_, name.empty() ? "comm " + std::to_string(c) : std::string(name));
            text_ += ' ';
            text_ += std::to_string(c);
            text_ += ' ';
            text_ += comms[c].parent.valid() ? std::to_string(comms[c].parent.value) : "-1";
            text_ += " \"";
            for (size_t i = 0; i < comms[c].members.size(); ++i) {
                if (i > 0) text_ += ' ';
                text_ += std::to_string(comms[c].members[i].value);
            }
            text_ += "\"\n";
        }
        for (size_t i = 0; i < trace_.collectiveMembers().size(); ++i) {
            const CollectiveMember& m = trace_.collectiveMembers()[i];
            memberAt_[(uint64_t(m.location.value) << 32) | m.endEvent] = uint32_t(i);
        }
        for (size_t c = 0; c < trace_.collectives().size(); ++c) {
            const CollectiveInstance& ci = trace_.collectives()[c];
            for (uint32_t k = 0; k < ci.memberCount; ++k)
                collectiveOfMember_[ci.firstMember + k] = uint32_t(c);
        }
    }

    /// A collective's begin, and its end with what the model knows of it: operation,
    /// communicator, root (its rank in the communicator, -1: none) and this rank's bytes.
    void collectiveEvent(LocationId loc, const EventStream& es, size_t i)
    {
        const bool main = container_[loc.value][0] == 'r';
        const bool begin = es.kind(i) == EventKind::MpiCollectiveBegin;
        if (!main) {
            report_.offRankCollectiveEvents += begin ? 0 : 1;
            return;
        }
        line(CollectiveEvent, es.time(i)) += " ET_Collective ";
        text_ += container_[loc.value];
        if (begin) {
            text_ += " V_Begin 0 -1 -1 0 0\n";
            return;
        }
        const auto member = memberAt_.find((uint64_t(loc.value) << 32) | uint32_t(i));
        const auto of = member == memberAt_.end() ? collectiveOfMember_.end()
                                                  : collectiveOfMember_.find(member->second);
        if (of == collectiveOfMember_.end()) {
            text_ += " V_End " + std::to_string(int(CollectiveOp::Other)) + " -1 -1 0 0\n";
            return;
        }
        const CollectiveInstance& c = trace_.collectives()[of->second];
        const CollectiveMember& m = trace_.collectiveMembers()[member->second];
        long long root = -1;
        if (c.root.valid() && c.comm.valid()) {
            const auto& members = trace_.communicator(c.comm).members;
            const auto at = std::find(members.begin(), members.end(), c.root);
            if (at != members.end()) root = at - members.begin();
        }
        text_ += " V_End ";
        text_ += std::to_string(int(c.op));
        text_ += ' ';
        text_ += c.comm.valid() ? std::to_string(c.comm.value) : std::string("-1");
        text_ += ' ';
        text_ += std::to_string(root);
        text_ += ' ';
        text_ += std::to_string(m.bytesSent);
        text_ += ' ';
        text_ += std::to_string(m.bytesReceived);
        text_ += '\n';
        ++report_.collectiveEnds;
    }

    static constexpr size_t kBlock = size_t(1) << 20;

    const Trace& trace_;
    Sink sink_;
    std::string text_;
    PajeExportReport report_;
    std::vector<std::string> container_;     ///< alias by LocationId; empty: not written
    std::vector<std::string> containerName_; ///< by LocationId
    std::vector<uint32_t> value_;            ///< entity value number by RegionId
    std::vector<bool> defined_;              ///< by 2 * value (+ 1: the thread state type)
    std::vector<size_t> next_;               ///< next event by LocationId
    std::vector<std::vector<RegionId>> stacks_;
    std::unordered_map<uint32_t, int64_t> posted_;              ///< receive posting by MessageId
    std::unordered_map<uint64_t, uint32_t> memberAt_;           ///< (location, end event) -> member
    std::unordered_map<uint32_t, uint32_t> collectiveOfMember_; ///< member -> CollectiveId
};

} // namespace

PajeExportReport writePajeTrace(const Trace& trace, std::ostream& out)
{
    PajeWriter writer(trace, [&out](std::string_view block) {
        out.write(block.data(), std::streamsize(block.size()));
        if (!out) throw TraceError("cannot write the Paje trace: the output stream failed");
    });
    PajeExportReport report = writer.write();
    out.flush();
    if (!out) throw TraceError("cannot write the Paje trace: the output stream failed");
    return report;
}

PajeExportReport writePajeTraceFile(const Trace& trace, const std::string& path)
{
    PajeExportReport report;
    writeStreamAtomically(
        path,
        [&](const BlockSink& sink) {
            PajeWriter writer(trace, sink);
            report = writer.write();
        },
        "the Paje trace");
    return report;
}

} // namespace rankscope
