// Message matching, as MPI defines it: a receive matches a send with the same communicator,
// sender, receiver and tag; between one pair, messages do not overtake each other. So within
// one such key, the k-th send (in send order) pairs with the k-th receive (in posting order:
// the MpiIrecvRequest of a non-blocking receive, the MpiRecv itself for a blocking one).
//
// Design note: rather than replaying queues per key with hash maps on every event, both sides
// are collected into flat vectors, sorted by (key, order) and merged: O(m log m) in the number
// of messages, cache-friendly, and deterministic. Requests (isend -> completion, irecv request
// -> irecv, tests, cancels) are linked per location first with one small map of open requests.

#include "model/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rankscope {

namespace {

struct Side
{
    uint32_t comm;
    uint32_t sender;
    uint32_t receiver;
    int32_t tag;
    int64_t order; ///< send time, or posting time of the receive
    uint32_t location;
    uint32_t record; ///< index into that location's raw p2p records
    uint32_t event;  ///< event index, to break ties deterministically

    auto key() const { return std::tie(comm, sender, receiver, tag); }
    bool operator<(const Side& o) const
    {
        return std::tie(comm, sender, receiver, tag, order, location, event) <
               std::tie(o.comm, o.sender, o.receiver, o.tag, o.order, o.location, o.event);
    }
};

std::string where(const Trace& defs, uint32_t loc, uint32_t event)
{
    return "location " + std::to_string(defs.location(LocationId(loc)).otf2Id) + ", event " +
           std::to_string(event);
}

/// World rank of communicator rank `partner` of `comm`, as seen from `self`.
uint32_t worldRank(const Trace& defs, CommId comm, uint32_t partner, RankId self, uint32_t loc,
                   uint32_t event)
{
    if (!comm.valid() || comm.value >= defs.communicators().size())
        throw TraceError(where(defs, loc, event) + ": message on undefined communicator " +
                         std::to_string(comm.value));
    const Communicator& c = defs.communicator(comm);
    if (c.members.empty()) { // a self communicator: the only partner is the rank itself
        if (partner != 0)
            throw TraceError(where(defs, loc, event) + ": partner rank " +
                             std::to_string(partner) + " on a self communicator");
        return self.value;
    }
    if (partner >= c.members.size())
        throw TraceError(where(defs, loc, event) + ": partner rank " + std::to_string(partner) +
                         " outside communicator '" + std::string(defs.str(c.name)) + "' of " +
                         std::to_string(c.members.size()) + " ranks");
    return c.members[partner].value;
}

} // namespace

void matchMessages(const Trace& defs, std::vector<EventStream>& streams,
                   std::vector<LocationBuildState>& locations, std::vector<Message>& messages,
                   TraceDiagnostics& diagnostics)
{
    std::vector<Side> sends, recvs;
    std::unordered_map<uint64_t, uint32_t> open;

    // Pass 1: link request events within each location; collect both sides of every message.
    for (uint32_t l = 0; l < locations.size(); ++l) {
        auto& p2p = locations[l].p2p;
        const RankId self = defs.rankOf(LocationId(l));
        const EventStream& es = streams[l];
        open.clear();
        for (uint32_t i = 0; i < p2p.size(); ++i) {
            RawP2P& r = p2p[i];
            switch (r.kind) {
            case EventKind::MpiSend:
            case EventKind::MpiIsend:
                sends.push_back({r.comm.value, self.value,
                                 worldRank(defs, r.comm, r.partner, self, l, r.event), r.tag,
                                 es.time(r.event), l, i, r.event});
                if (r.kind == EventKind::MpiIsend)
                    open[r.request] = i;
                break;
            case EventKind::MpiIrecvRequest:
                open[r.request] = i;
                break;
            case EventKind::MpiRecv:
            case EventKind::MpiIrecv: {
                uint32_t postEvent = r.event;
                if (r.kind == EventKind::MpiIrecv) {
                    if (auto it = open.find(r.request); it != open.end()) {
                        r.link = it->second;
                        postEvent = p2p[it->second].event;
                        open.erase(it);
                    } else {
                        ++diagnostics.orphanRequestEvents;
                    }
                }
                recvs.push_back({r.comm.value, worldRank(defs, r.comm, r.partner, self, l, r.event),
                                 self.value, r.tag, es.time(postEvent), l, i, r.event});
                break;
            }
            case EventKind::MpiIsendComplete:
            case EventKind::MpiRequestTest:
            case EventKind::MpiRequestCancelled:
                if (auto it = open.find(r.request); it != open.end()) {
                    r.link = it->second;
                    if (r.kind != EventKind::MpiRequestTest)
                        open.erase(it);
                    if (r.kind == EventKind::MpiRequestCancelled)
                        ++diagnostics.cancelledRequests;
                } else {
                    ++diagnostics.orphanRequestEvents;
                }
                break;
            default:
                break;
            }
        }
    }

    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());

    // Message id of each raw record, per location (completions take their posting's id later).
    std::vector<std::vector<uint32_t>> idOf(locations.size());
    for (size_t l = 0; l < locations.size(); ++l)
        idOf[l].assign(locations[l].p2p.size(), kNoEventRef);

    messages.clear();
    messages.reserve(std::max(sends.size(), recvs.size()));
    auto newId = [&]() {
        if (messages.size() > kMaxEventRef)
            throw TraceError("too many messages (more than " + std::to_string(kMaxEventRef) + ")");
        return static_cast<uint32_t>(messages.size());
    };
    auto addSend = [&](const Side& s, Message& m) {
        const RawP2P& r = locations[s.location].p2p[s.record];
        m.sendLocation = LocationId(s.location);
        m.sendEvent = r.event;
        m.tag = r.tag;
        m.comm = r.comm;
        m.bytes = r.bytes;
    };
    auto addRecv = [&](const Side& s, Message& m, uint32_t id) {
        RawP2P& r = locations[s.location].p2p[s.record];
        m.recvLocation = LocationId(s.location);
        m.recvEvent = r.event;
        if (!m.sendLocation.valid()) {
            m.tag = r.tag;
            m.comm = r.comm;
            m.bytes = r.bytes;
        }
        if (r.link != kNoEvent)
            idOf[s.location][r.link] = id;
    };

    size_t si = 0, ri = 0;
    while (si < sends.size() || ri < recvs.size()) {
        const bool haveS = si < sends.size(), haveR = ri < recvs.size();
        const uint32_t id = newId();
        Message m;
        if (haveS && haveR && sends[si].key() == recvs[ri].key()) {
            addSend(sends[si], m);
            addRecv(recvs[ri], m, id);
            idOf[sends[si].location][sends[si].record] = id;
            idOf[recvs[ri].location][recvs[ri].record] = id;
            ++si, ++ri;
        } else if (haveS && (!haveR || sends[si].key() < recvs[ri].key())) {
            addSend(sends[si], m);
            idOf[sends[si].location][sends[si].record] = id;
            ++diagnostics.unmatchedSends;
            ++si;
        } else {
            addRecv(recvs[ri], m, id);
            idOf[recvs[ri].location][recvs[ri].record] = id;
            ++diagnostics.unmatchedReceives;
            ++ri;
        }
        messages.push_back(m);
    }

    // Pass 2: every p2p event refers to its message.
    for (size_t l = 0; l < locations.size(); ++l) {
        auto& p2p = locations[l].p2p;
        for (uint32_t i = 0; i < p2p.size(); ++i) {
            uint32_t id = idOf[l][i];
            if (id == kNoEventRef && p2p[i].link != kNoEvent)
                id = idOf[l][p2p[i].link];
            streams[l].setRef(p2p[i].event, id);
        }
        std::vector<RawP2P>().swap(p2p);
    }

    if (diagnostics.unmatchedSends + diagnostics.unmatchedReceives > 0)
        diagnostics.warnings.push_back(
            std::to_string(diagnostics.unmatchedSends) + " send(s) and " +
            std::to_string(diagnostics.unmatchedReceives) +
            " receive(s) have no matching partner; they are kept as unmatched messages");
    if (diagnostics.orphanRequestEvents > 0)
        diagnostics.warnings.push_back(std::to_string(diagnostics.orphanRequestEvents) +
                                       " request completion/test record(s) name a request that "
                                       "was never posted");
}

} // namespace rankscope
