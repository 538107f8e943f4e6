// Message matching, as MPI defines it: a receive matches a send with the same communicator,
// sender, receiver and tag; between one pair, messages do not overtake each other. So within
// one such key, the k-th send (in send order) pairs with the k-th receive (in posting order:
// the MpiIrecvRequest of a non-blocking receive, the MpiRecv itself for a blocking one).
//
// Design note: rather than replaying queues per key with hash maps on every event, both sides
// are collected into flat vectors, bucketed by receiver rank with a counting sort, and each
// (small, cache-resident) bucket is sorted by (communicator, sender, tag, order) and merged:
// O(m log(m/P)) for m messages on P ranks, and deterministic. Requests (isend -> completion, irecv request
// -> irecv, tests, cancels) are linked per location first with one small map of open requests.

#include "model/openrequests.h"
#include "model/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace rankscope {

namespace {

struct Side
{
    uint64_t commSender; ///< communicator << 32 | sender world rank
    uint32_t tag;
    uint32_t location;
    int64_t order;   ///< send time, or posting time of the receive
    uint32_t record; ///< index into that location's raw p2p records
    uint32_t event;  ///< event index, to break ties deterministically

    bool sameKey(const Side& o) const { return commSender == o.commSender && tag == o.tag; }
    bool keyLess(const Side& o) const
    {
        return commSender != o.commSender ? commSender < o.commSender : tag < o.tag;
    }
    bool operator<(const Side& o) const
    {
        return std::tie(commSender, tag, order, location, event) <
               std::tie(o.commSender, o.tag, o.order, o.location, o.event);
    }
};

/// One side of a message; the receiver is implied by the bucket it sits in.
Side makeSide(uint32_t comm, uint32_t sender, int32_t tag, int64_t order, uint32_t location,
              uint32_t record, uint32_t event)
{
    return {(uint64_t(comm) << 32) | sender, uint32_t(tag), location, order, record, event};
}

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
    const size_t ranks = defs.rankCount();
    std::vector<size_t> sendStart(ranks + 1, 0), recvStart(ranks + 1, 0);
    OpenRequests open;

    // Pass 1: link request events within each location, translate partners to world ranks
    // (stored back into `partner`) and count both sides per receiver rank.
    for (uint32_t l = 0; l < locations.size(); ++l) {
        auto& p2p = locations[l].p2p;
        const RankId self = defs.rankOf(LocationId(l));
        open.clear();
        for (uint32_t i = 0; i < p2p.size(); ++i) {
            RawP2P& r = p2p[i];
            switch (r.kind) {
            case EventKind::MpiSend:
            case EventKind::MpiIsend:
                r.partner = worldRank(defs, r.comm, r.partner, self, l, r.event);
                ++sendStart[r.partner + 1];
                if (r.kind == EventKind::MpiIsend)
                    open.post(r.request, i);
                break;
            case EventKind::MpiIrecvRequest:
                open.post(r.request, i);
                break;
            case EventKind::MpiRecv:
            case EventKind::MpiIrecv:
                r.partner = worldRank(defs, r.comm, r.partner, self, l, r.event);
                ++recvStart[self.value + 1];
                if (r.kind == EventKind::MpiIrecv) {
                    r.link = open.find(r.request, true);
                    if (r.link == OpenRequests::kNone)
                        ++diagnostics.orphanRequestEvents;
                }
                break;
            case EventKind::MpiIsendComplete:
            case EventKind::MpiRequestTest:
            case EventKind::MpiRequestCancelled:
                r.link = open.find(r.request, r.kind != EventKind::MpiRequestTest);
                if (r.link == OpenRequests::kNone)
                    ++diagnostics.orphanRequestEvents;
                else if (r.kind == EventKind::MpiRequestCancelled)
                    ++diagnostics.cancelledRequests;
                break;
            default:
                break;
            }
            // From here on `request` holds the record's message id (none yet).
            r.request = kNoEventRef;
        }
    }

    // Pass 2: place both sides in per-receiver buckets (counting sort, exact sizes).
    for (size_t r = 0; r < ranks; ++r) {
        sendStart[r + 1] += sendStart[r];
        recvStart[r + 1] += recvStart[r];
    }
    std::vector<Side> sends(sendStart[ranks]), recvs(recvStart[ranks]);
    {
        std::vector<size_t> sendFill(sendStart.begin(), sendStart.end() - 1);
        std::vector<size_t> recvFill(recvStart.begin(), recvStart.end() - 1);
        for (uint32_t l = 0; l < locations.size(); ++l) {
            const auto& p2p = locations[l].p2p;
            const uint32_t self = defs.rankOf(LocationId(l)).value;
            const EventStream& es = streams[l];
            for (uint32_t i = 0; i < p2p.size(); ++i) {
                const RawP2P& r = p2p[i];
                if (r.kind == EventKind::MpiSend || r.kind == EventKind::MpiIsend) {
                    sends[sendFill[r.partner]++] = makeSide(r.comm.value, self, r.tag,
                                                            es.time(r.event), l, i, r.event);
                } else if (r.kind == EventKind::MpiRecv || r.kind == EventKind::MpiIrecv) {
                    // A non-blocking receive takes its place in matching order when posted.
                    const uint32_t post = r.link != kNoEvent ? p2p[r.link].event : r.event;
                    recvs[recvFill[self]++] = makeSide(r.comm.value, r.partner, r.tag,
                                                       es.time(post), l, i, r.event);
                }
            }
        }
    }

    messages.clear();
    messages.reserve(std::max(sends.size(), recvs.size()));
    auto newId = [&]() {
        if (messages.size() > kMaxEventRef)
            throw TraceError("too many messages (more than " + std::to_string(kMaxEventRef) + ")");
        return static_cast<uint32_t>(messages.size());
    };
    auto takeSend = [&](const Side& s, Message& m, uint32_t id) {
        RawP2P& r = locations[s.location].p2p[s.record];
        r.request = id;
        m.sendLocation = LocationId(s.location);
        m.sendEvent = r.event;
        m.tag = r.tag;
        m.comm = r.comm;
        m.bytes = r.bytes;
    };
    auto takeRecv = [&](const Side& s, Message& m, uint32_t id) {
        RawP2P& r = locations[s.location].p2p[s.record];
        r.request = id;
        m.recvLocation = LocationId(s.location);
        m.recvEvent = r.event;
        if (!m.sendLocation.valid()) {
            m.tag = r.tag;
            m.comm = r.comm;
            m.bytes = r.bytes;
        }
        if (r.link != kNoEvent) // the MpiIrecvRequest that posted it
            locations[s.location].p2p[r.link].request = id;
    };

    // Pass 3: within each receiver's bucket, the k-th send and the k-th receive of one
    // (communicator, sender, tag) pair up.
    for (size_t rank = 0; rank < ranks; ++rank) {
        size_t si = sendStart[rank], ri = recvStart[rank];
        const size_t sLast = sendStart[rank + 1], rLast = recvStart[rank + 1];
        std::sort(sends.begin() + ptrdiff_t(si), sends.begin() + ptrdiff_t(sLast));
        std::sort(recvs.begin() + ptrdiff_t(ri), recvs.begin() + ptrdiff_t(rLast));
        while (si < sLast || ri < rLast) {
            const bool haveS = si < sLast, haveR = ri < rLast;
            const uint32_t id = newId();
            Message m;
            if (haveS && haveR && sends[si].sameKey(recvs[ri])) {
                takeSend(sends[si++], m, id);
                takeRecv(recvs[ri++], m, id);
            } else if (haveS && (!haveR || sends[si].keyLess(recvs[ri]))) {
                takeSend(sends[si++], m, id);
                m.recvEvent = static_cast<uint32_t>(rank); // the intended receiver
                ++diagnostics.unmatchedSends;
            } else {
                m.sendEvent = static_cast<uint32_t>(recvs[ri].commSender); // the named sender
                takeRecv(recvs[ri++], m, id);
                ++diagnostics.unmatchedReceives;
            }
            messages.push_back(m);
        }
    }

    // Pass 4: every p2p event refers to its message (completions and tests via their posting).
    for (size_t l = 0; l < locations.size(); ++l) {
        auto& p2p = locations[l].p2p;
        for (const RawP2P& r : p2p) {
            uint64_t id = r.request;
            if (id == kNoEventRef && r.link != kNoEvent)
                id = p2p[r.link].request;
            streams[l].setRef(r.event, static_cast<uint32_t>(id));
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
