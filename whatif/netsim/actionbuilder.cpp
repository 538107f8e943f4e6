#include "whatif/netsim/actionbuilder.h"

#include "model/analysis/runspan.h"
#include "model/matching/mpicallscanner.h"
#include "model/trace/mpilifecycle.h"

#include <algorithm>
#include <unordered_map>

namespace rankscope::netsim {

namespace {

struct CommIndex
{
    uint32_t programComm = 0;
    std::vector<uint32_t> indexOf; // world rank -> member index (empty for the world)
};

/// A call before the span is not replayed: its messages lose that end (the other end then
/// completes locally instead of waiting forever).
void dropPayload(ActionProgram& p, const std::vector<CallPayload>& payload, const CallRecord& call)
{
    for (uint32_t i = 0; i < call.payloadCount; ++i) {
        const CallPayload& e = payload[call.firstPayload + i];
        if (e.ref >= p.messages.size()) continue;
        switch (e.kind) {
        case EventKind::MpiSend:
        case EventKind::MpiIsend:
            p.messages[e.ref].src = kNoRank;
            break;
        case EventKind::MpiRecv:
        case EventKind::MpiIrecv:
        case EventKind::MpiIrecvRequest:
            p.messages[e.ref].dst = kNoRank;
            break;
        default:
            break;
        }
    }
}

} // namespace

ActionProgram buildActions(const Trace& trace, double cpuFactor,
                           std::vector<std::vector<ActionAnchor>>* anchors)
{
    ActionProgram p;
    const uint32_t ranks = uint32_t(trace.rankCount());
    p.rankBegin.assign(ranks + 1, 0);
    p.startNs.assign(ranks, 0.0);
    if (anchors) anchors->assign(ranks, {});
    const RunSpan span = runSpan(trace);
    const MpiLifecycle life = MpiLifecycle::of(trace);
    p.spanStartNs = double(span.startNs);
    p.synchronisedStart = span.fromInit;

    p.messages.resize(trace.messages().size());
    for (size_t m = 0; m < trace.messages().size(); ++m) {
        const Message& msg = trace.messages()[m];
        p.messages[m].src =
            msg.sendLocation.valid() ? trace.rankOf(msg.sendLocation).value : kNoRank;
        p.messages[m].dst =
            msg.recvLocation.valid() ? trace.rankOf(msg.recvLocation).value : kNoRank;
        p.messages[m].bytes = msg.bytes;
    }

    // Communicators as the program sees them: the world (in rank order) costs no member list.
    std::unordered_map<uint32_t, CommIndex> comms;
    auto commOf = [&](CommId id) -> CommIndex& {
        auto [it, added] = comms.try_emplace(id.value);
        if (added) {
            const Communicator& c = trace.communicator(id);
            bool world = c.members.size() == ranks;
            for (size_t i = 0; world && i < c.members.size(); ++i)
                world = c.members[i].value == i;
            it->second.programComm = uint32_t(p.comms.size());
            p.comms.emplace_back();
            if (!world) {
                it->second.indexOf.assign(ranks, kNoRank);
                for (size_t i = 0; i < c.members.size(); ++i) {
                    p.comms.back().push_back(c.members[i].value);
                    it->second.indexOf[c.members[i].value] = uint32_t(i);
                }
            }
        }
        return it->second;
    };

    p.collectives.resize(trace.collectives().size());
    for (size_t i = 0; i < trace.collectives().size(); ++i) {
        const CollectiveInstance& c = trace.collectives()[i];
        ProgramCollective& pc = p.collectives[i];
        pc.kind = c.complete ? collKindOf(c.op) : CollKind::None;
        if (pc.kind == CollKind::None || !c.comm.valid()) {
            pc.kind = CollKind::None;
            continue;
        }
        const CommIndex& ci = commOf(c.comm);
        pc.comm = ci.programComm;
        if (c.root.valid()) pc.root = ci.indexOf.empty() ? c.root.value : ci.indexOf[c.root.value];
        if (pc.root == kNoRank) pc.root = 0;
        for (uint32_t k = 0; k < c.memberCount; ++k) {
            const CollectiveMember& m = trace.collectiveMembers()[c.firstMember + k];
            pc.bytes = std::max({pc.bytes, m.bytesSent, m.bytesReceived});
        }
    }

    std::vector<bool> recvPosted(p.messages.size(), false);
    std::vector<CallPayload> payload;
    std::vector<std::pair<Action, uint32_t>> waits; // with their event
    for (uint32_t r = 0; r < ranks; ++r) {
        p.rankBegin[r] = p.actions.size();
        const EventStream& ev = trace.rankEvents(RankId(r));
        if (ev.empty()) continue;
        auto anchor = [&](uint32_t event) {
            if (anchors) (*anchors)[r].push_back(ActionAnchor{event, p.actions.size()});
        };
        p.startNs[r] = double(ev.time(0));
        int64_t previous = ev.time(0);
        // The span rule (model/analysis/runspan.h): a rank that calls MPI_Init starts when the last
        // rank left it, together with the others; what it did before is not replayed.
        bool skipping = span.ranks[r].initEndNs >= 0;
        if (skipping) p.startNs[r] = p.spanStartNs;
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        payload.clear();
        bool finalized = false;
        while (!finalized && scanner.next(call, &payload)) {
            if (skipping) {
                dropPayload(p, payload, call);
                payload.clear();
                if (!life.isInit(call.region)) continue;
                skipping = false;
                previous = call.leaveTime;
                // The rank leaves MPI_Init at the common start.
                anchor(call.leaveEvent == kNoEvent ? uint32_t(ev.size() - 1) : call.leaveEvent);
                p.actions.push_back({ActionKind::Compute, 0, 0.0});
                continue;
            }
            finalized = life.isFinalize(call.region);
            if (call.enterTime > previous)
                p.actions.push_back(
                    {ActionKind::Compute, 0, double(call.enterTime - previous) * cpuFactor});
            anchor(call.enterEvent);
            p.actions.push_back({ActionKind::Enter, 0, 0});
            waits.clear();
            bool sends = false;
            for (uint32_t i = 0; i < call.payloadCount; ++i) {
                const CallPayload& e = payload[call.firstPayload + i];
                const uint32_t m = e.ref;
                switch (e.kind) {
                case EventKind::MpiSend:
                    anchor(e.event);
                    p.actions.push_back({ActionKind::PostSend, m, 0});
                    waits.push_back({{ActionKind::WaitSend, m, 0}, e.event});
                    sends = true;
                    break;
                case EventKind::MpiIsend:
                    anchor(e.event);
                    p.actions.push_back({ActionKind::PostSend, m, 0});
                    sends = true;
                    break;
                case EventKind::MpiIrecvRequest:
                    if (m < recvPosted.size()) recvPosted[m] = true;
                    anchor(e.event);
                    p.actions.push_back({ActionKind::PostRecv, m, 0});
                    break;
                case EventKind::MpiRecv:
                case EventKind::MpiIrecv:
                    if (m >= recvPosted.size()) break;
                    if (!recvPosted[m] || e.kind == EventKind::MpiRecv)
                        p.actions.push_back({ActionKind::PostRecv, m, 0});
                    recvPosted[m] = true;
                    waits.push_back({{ActionKind::WaitRecv, m, 0}, e.event});
                    break;
                case EventKind::MpiIsendComplete:
                    waits.push_back({{ActionKind::WaitSend, m, 0}, e.event});
                    break;
                case EventKind::MpiCollectiveEnd: {
                    if (m >= p.collectives.size() || p.collectives[m].kind == CollKind::None) break;
                    const auto it = comms.find(trace.collective(CollectiveId(m)).comm.value);
                    const uint32_t member = it->second.indexOf.empty() ? r : it->second.indexOf[r];
                    waits.push_back({{ActionKind::Collective, m, double(member)}, e.event});
                    break;
                }
                default:
                    break;
                }
            }
            // A call the network model gives no time (it neither sends nor waits: a receive
            // posted, MPI_Comm_rank, a collective the replay does not model) is local work of
            // the MPI library: it keeps its measured duration, as o_s and o_r are kept for the
            // others. MPI_Finalize is not replayed (simulation.h).
            if (!sends && waits.empty() && !finalized && call.leaveTime > call.enterTime)
                p.actions.push_back(
                    {ActionKind::Compute, 0, double(call.leaveTime - call.enterTime)});
            for (const auto& [w, event] : waits) {
                anchor(event);
                p.actions.push_back(w);
            }
            anchor(call.leaveEvent == kNoEvent ? uint32_t(ev.size() - 1) : call.leaveEvent);
            p.actions.push_back({ActionKind::Leave, 0, 0});
            previous = call.leaveTime;
            payload.clear();
        }
        const int64_t last = ev.time(ev.size() - 1);
        if (!finalized && last > previous)
            p.actions.push_back({ActionKind::Compute, 0, double(last - previous) * cpuFactor});
    }
    p.rankBegin[ranks] = p.actions.size();
    return p;
}

} // namespace rankscope::netsim
