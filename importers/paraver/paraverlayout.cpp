#include "importers/paraver/paraverlayout.h"

#include "importers/paraver/paravermpi.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace rankscope::paraver {

namespace {

// The state values Extrae's .pcf files define (STATES block), so Paraver colours them as usual.
constexpr std::array<std::string_view, 17> kStates = {"Idle",
                                                      "Running",
                                                      "Not created",
                                                      "Waiting a message",
                                                      "Blocking Send",
                                                      "Synchronization",
                                                      "Test/Probe",
                                                      "Scheduling and Fork/Join",
                                                      "Wait/WaitAll",
                                                      "Blocked",
                                                      "Immediate Send",
                                                      "Immediate Receive",
                                                      "I/O",
                                                      "Group Communication",
                                                      "Tracing Disabled",
                                                      "Others",
                                                      "Send Receive"};

constexpr std::string_view kStatesPrefix = "states of thread ";

/// A label on one line: control characters (newlines included) become blanks.
std::string oneLine(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    return out;
}

/// K of a name "<prefix>K", 0 when the name is not of that form.
uint32_t numberAfter(std::string_view name, std::string_view prefix)
{
    if (name.substr(0, prefix.size()) != prefix) return 0;
    uint32_t k = 0;
    const std::string_view digits = name.substr(prefix.size());
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    return ec == std::errc() && end == digits.data() + digits.size() ? k : 0;
}

/// The thread number K of a location named "states of thread K" (an imported state location).
uint32_t stateThreadNumber(const Trace& trace, const Location& l)
{
    return l.type == LocationType::Other ? numberAfter(trace.str(l.name), kStatesPrefix) : 0;
}

void layThreads(const Trace& trace, Layout& out)
{
    const size_t nloc = trace.locations().size();
    out.threadOf.assign(nloc, kNotWritten);
    out.stateThreadOf.assign(nloc, kNotWritten);
    std::map<uint32_t, uint32_t> nodeOfHost; // StringId -> node
    for (size_t r = 0; r < trace.rankCount(); ++r) {
        const Rank& rank = trace.rank(RankId(uint32_t(r)));
        std::vector<std::pair<uint32_t, LocationId>> states; // (thread number, location)
        std::map<uint32_t, uint32_t> byNumber; // K of a thread named "thread K" -> threads index
        uint32_t threads = 0;
        for (const LocationId loc : rank.locations) {
            const Location& l = trace.location(loc);
            if (const uint32_t k = stateThreadNumber(trace, l)) {
                states.emplace_back(k, loc);
                continue;
            }
            const bool main = loc == rank.mainLocation;
            if (!main && (l.type != LocationType::CpuThread || trace.events(loc).empty())) {
                ++out.skippedLocations;
                continue;
            }
            ExportThread t;
            t.location = loc;
            t.task = uint32_t(r + 1);
            t.thread = ++threads;
            t.cpu = uint32_t(out.threads.size() + 1);
            out.threadOf[loc.value] = uint32_t(out.threads.size());
            if (const uint32_t k = numberAfter(trace.str(l.name), "thread "))
                byNumber.emplace(k, uint32_t(out.threads.size()));
            out.threads.push_back(t);
        }
        if (threads == 0) { // a rank without a location still needs a thread
            ExportThread t;
            t.task = uint32_t(r + 1);
            t.thread = ++threads;
            t.cpu = uint32_t(out.threads.size() + 1);
            out.threads.push_back(t);
        }
        // A state location goes with the thread it was read with (the import names them
        // "thread K" and "states of thread K"), whatever threads were left out before it.
        for (const auto& [k, loc] : states) {
            const auto thread = byNumber.find(k);
            if (thread == byNumber.end()) {
                ++out.skippedLocations;
                continue;
            }
            out.threads[thread->second].states = loc;
            out.anyStates = true;
            out.stateThreadOf[loc.value] = thread->second;
        }
        out.taskThreads.push_back(threads);
        // Nodes: one per recorded host; ranks without one share a node of their own.
        const uint32_t key = rank.host.valid() ? rank.host.value : 0xFFFFFFFFu;
        auto [it, added] = nodeOfHost.try_emplace(key, uint32_t(out.nodeNames.size() + 1));
        out.hostsKnown = out.hostsKnown || rank.host.valid();
        if (added) {
            out.nodeNames.push_back(rank.host.valid() ? oneLine(trace.str(rank.host))
                                                      : std::string("node"));
            out.nodeCpus.push_back(0);
        }
        out.taskNode.push_back(it->second);
        out.nodeCpus[it->second - 1] += threads;
    }
}

void layRegions(const Trace& trace, Layout& out)
{
    const size_t n = trace.regions().size();
    out.regionType.assign(n, 0);
    out.regionValue.assign(n, 0);
    std::map<std::string, uint32_t, std::less<>> byName[3]; // per MPI type: name -> value
    std::map<std::string, uint32_t, std::less<>> functions;
    std::map<std::string, uint32_t, std::less<>> states;
    uint32_t nextMpi[3] = {1000, 1000, 1000};
    // Regions entered on state locations are states.
    std::vector<bool> isState(n, false);
    for (size_t l = 0; l < trace.locations().size(); ++l) {
        if (out.stateThreadOf[l] == kNotWritten) continue;
        const EventStream& es = trace.events(LocationId(uint32_t(l)));
        for (size_t i = 0; i < es.size(); ++i)
            if (es.kind(i) == EventKind::Enter) isState[es.region(i).value] = true;
    }
    for (size_t v = 0; v < kStates.size(); ++v)
        out.stateLabels[uint32_t(v)] = std::string(kStates[v]);
    uint32_t nextState = 100;
    for (size_t r = 0; r < n; ++r) {
        const Region& region = trace.regions()[r];
        const std::string name = oneLine(trace.str(region.name));
        if (isState[r]) {
            const auto known = std::find(kStates.begin(), kStates.end(), name);
            uint32_t value = known != kStates.end() ? uint32_t(known - kStates.begin()) : 0;
            if (known == kStates.end()) {
                auto [it, added] = states.try_emplace(name, nextState);
                if (added) out.stateLabels[nextState++] = name;
                value = it->second;
            }
            out.regionValue[r] = value;
            continue;
        }
        if (region.isMpi()) {
            const uint32_t type = mpiTypeOf(region.role);
            auto& names = byName[type - kMpiPointToPoint];
            auto [it, added] = names.try_emplace(name, 0);
            if (added) {
                const auto known = extraeMpiValue(name);
                const bool free = known && !out.valueLabels[type].count(*known);
                it->second = free ? *known : nextMpi[type - kMpiPointToPoint]++;
                out.valueLabels[type][it->second] = name;
            }
            out.regionType[r] = type;
            out.regionValue[r] = it->second;
        } else {
            auto [it, added] = functions.try_emplace(name, uint32_t(functions.size() + 1));
            if (added) out.valueLabels[kUserFunction][it->second] = name;
            out.regionType[r] = kUserFunction;
            out.regionValue[r] = it->second;
        }
    }
}

} // namespace

Layout layoutOf(const Trace& trace)
{
    Layout out;
    layThreads(trace, out);
    layRegions(trace, out);
    return out;
}

std::string pcfText(const Layout& layout)
{
    std::string s = "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
                    "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
                    "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\n"
                    "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\nSTATES\n";
    for (const auto& [value, label] : layout.stateLabels)
        s += std::to_string(value) + "    " + label + "\n";
    for (const uint32_t type : {kMpiPointToPoint, kMpiCollective, kMpiOther}) {
        s += "\n\nEVENT_TYPE\n0    " + std::to_string(type) + "    " +
             std::string(mpiTypeLabel(type)) + "\nVALUES\n0   Outside MPI\n";
        const auto it = layout.valueLabels.find(type);
        if (it != layout.valueLabels.end())
            for (const auto& [value, label] : it->second)
                s += std::to_string(value) + "   " + label + "\n";
    }
    s += "\n\nEVENT_TYPE\n"
         "1    50100001    Send Size in MPI Global OP\n"
         "1    50100002    Recv Size in MPI Global OP\n"
         "0    50100003    Root in MPI Global OP\n"
         "0    50100004    Communicator in MPI Global OP\n";
    s += "\n\nEVENT_TYPE\n0    " + std::to_string(kCollectiveOp) +
         "    Collective operation (Rankscope)\nVALUES\n";
    for (int op = 0; op <= int(CollectiveOp::Other); ++op)
        s +=
            std::to_string(op + 1) + "   " + std::string(collectiveOpName(CollectiveOp(op))) + "\n";
    s += "\n\nEVENT_TYPE\n0    60000019    User function\nVALUES\n0   End\n";
    const auto it = layout.valueLabels.find(kUserFunction);
    if (it != layout.valueLabels.end())
        for (const auto& [value, label] : it->second)
            s += std::to_string(value) + "   " + label + "\n";
    return s;
}

std::string rowText(const Layout& layout)
{
    // The CPU and NODE levels name the hosts the trace recorded; without any, only threads are
    // named, so that reading the trace back records no host either.
    std::string s;
    if (layout.hostsKnown) {
        s += "LEVEL CPU SIZE " + std::to_string(layout.threads.size()) + "\n";
        for (const ExportThread& t : layout.threads)
            s += std::to_string(t.cpu) + "." + layout.nodeNames[layout.taskNode[t.task - 1] - 1] +
                 "\n";
        s += "\nLEVEL NODE SIZE " + std::to_string(layout.nodeNames.size()) + "\n";
        for (const std::string& name : layout.nodeNames)
            s += name + "\n";
        s += "\n";
    }
    s += "LEVEL THREAD SIZE " + std::to_string(layout.threads.size()) + "\n";
    for (const ExportThread& t : layout.threads)
        s += "THREAD 1." + std::to_string(t.task) + "." + std::to_string(t.thread) + "\n";
    return s;
}

} // namespace rankscope::paraver
