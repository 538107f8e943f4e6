// Message matching, as MPI defines it: a receive matches a send with the same communicator,
// sender, receiver and tag; between one pair, messages do not overtake each other. So within
// one such key, the k-th send (in send order) pairs with the k-th receive (in posting order:
// the MpiIrecvRequest of a non-blocking receive, the MpiRecv itself for a blocking one).
//
// Design note: rather than replaying queues per key with hash maps on every event, messages are
// matched one receiver rank at a time. Each location lists its sends (event and payload: 8
// bytes each) in receiver order (a stable counting sort); receivers are taken in rank order,
// and the sends to receiver r are the next run of every location whose list has reached r (a
// bucket queue of locations keyed by their next receiver finds them without a scan). The
// receives of r are read from r's own locations. That one (small, cache-resident) bucket is
// sorted by (communicator, sender, tag, order) and merged: O(m log(m/P)) for m messages on P
// ranks, deterministic, and beyond the result only one bucket and the send lists are in memory.
// Requests (isend -> completion, irecv request -> irecv, tests, cancels) were linked by
// TraceBuilder as the events arrived (see tracebuilder_p.h); completions get their message once
// all are matched.

#include "model/support/parallelchunks.h"
#include "model/trace/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

namespace rankscope {

namespace {

struct Side
{
    uint64_t commSender; ///< communicator << 32 | sender world rank
    uint32_t tag;
    uint32_t location;
    int64_t order;    ///< send time (its event index if the rank has one location), or posting
                      ///< time of the receive
    uint32_t post;    ///< receive: the MpiIrecvRequest that posted it, or kNoEvent; send: its
                      ///< place in the send lists
    uint32_t event;   ///< the send or receive event; also breaks ties deterministically
    uint32_t payload; ///< the event's P2PPayload in its location's table

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
              uint32_t post, uint32_t event, uint32_t payload)
{
    return {(uint64_t(comm) << 32) | sender, uint32_t(tag), location, order, post, event, payload};
}

/// A send as pass 2 needs it, its payload read in pass 1 while the location's events stream by:
/// reading it in pass 2 instead, in receiver order, cost a cache miss a message (most of the
/// sequential pass's time on a 25M-event stencil). Pass 2 replaces the payload by the message
/// id, which pass 3 writes into the event, location by location, rather than pass 2 writing it
/// at random into the sender's events (another miss a message). The send's time is not kept
/// (8 more bytes a send, at the import's peak): within one (communicator, sender, tag), the
/// sends of a rank with one location are in event order, and only a rank with several
/// locations needs the times to merge them.
struct SendRef
{
    uint32_t event;
    uint32_t payload; ///< then the message id
};

/// Sorts the sends and receives of one receiver's bucket by (key, order), key = (communicator,
/// sender, tag). A bucket holds few distinct keys, and each key's items already arrive in
/// order (a location's events are in time order), so a stable counting sort by key rank does
/// the work in O(n); a group found out of order (a non-blocking receive completed before one
/// posted earlier) is sorted on its own. Buckets with very many keys use a comparison sort.
class BucketSorter
{
public:
    void sortBucket(std::vector<Side>& sends, size_t sBegin, size_t sEnd, std::vector<Side>& recvs,
                    size_t rBegin, size_t rEnd)
    {
        keys_.clear();
        sendKey_.resize(sEnd - sBegin);
        recvKey_.resize(rEnd - rBegin);
        if (!collectKeys(sends, sBegin, sEnd, sendKey_) ||
            !collectKeys(recvs, rBegin, rEnd, recvKey_)) {
            std::sort(sends.begin() + ptrdiff_t(sBegin), sends.begin() + ptrdiff_t(sEnd));
            std::sort(recvs.begin() + ptrdiff_t(rBegin), recvs.begin() + ptrdiff_t(rEnd));
            return;
        }
        // Rank of each key in (communicator, sender, tag) order.
        order_.resize(keys_.size());
        for (uint32_t k = 0; k < keys_.size(); ++k)
            order_[k] = k;
        std::sort(order_.begin(), order_.end(),
                  [&](uint32_t a, uint32_t b) { return keys_[a].keyLess(keys_[b]); });
        rankOf_.resize(keys_.size());
        for (uint32_t r = 0; r < order_.size(); ++r)
            rankOf_[order_[r]] = r;
        place(sends, sBegin, sEnd, sendKey_);
        place(recvs, rBegin, rEnd, recvKey_);
    }

private:
    static constexpr size_t kMaxKeys = 64;

    bool collectKeys(const std::vector<Side>& v, size_t begin, size_t end,
                     std::vector<uint32_t>& keyOf)
    {
        uint32_t last = 0;
        for (size_t i = begin; i < end; ++i) {
            const Side& s = v[i];
            if (last < keys_.size() && keys_[last].sameKey(s)) { // runs of one key are common
                keyOf[i - begin] = last;
                continue;
            }
            uint32_t k = 0;
            while (k < keys_.size() && !keys_[k].sameKey(s))
                ++k;
            if (k == keys_.size()) {
                if (keys_.size() == kMaxKeys) return false;
                keys_.push_back(s);
            }
            keyOf[i - begin] = last = k;
        }
        return true;
    }

    void place(std::vector<Side>& v, size_t begin, size_t end, const std::vector<uint32_t>& keyOf)
    {
        start_.assign(keys_.size() + 1, 0);
        for (size_t i = 0; i < end - begin; ++i)
            ++start_[rankOf_[keyOf[i]] + 1];
        for (size_t k = 0; k < keys_.size(); ++k)
            start_[k + 1] += start_[k];
        scratch_.resize(end - begin);
        fill_.assign(start_.begin(), start_.end() - 1);
        for (size_t i = 0; i < end - begin; ++i)
            scratch_[fill_[rankOf_[keyOf[i]]]++] = v[begin + i];
        std::copy(scratch_.begin(), scratch_.end(), v.begin() + ptrdiff_t(begin));
        for (size_t k = 0; k < keys_.size(); ++k) {
            const auto first = v.begin() + ptrdiff_t(begin + start_[k]);
            const auto last = v.begin() + ptrdiff_t(begin + start_[k + 1]);
            if (!std::is_sorted(first, last)) std::sort(first, last);
        }
    }

    std::vector<Side> keys_; ///< one representative per distinct key
    std::vector<uint32_t> sendKey_, recvKey_, order_, rankOf_;
    std::vector<size_t> start_, fill_;
    std::vector<Side> scratch_;
};

bool isSend(EventKind k)
{
    return k == EventKind::MpiSend || k == EventKind::MpiIsend;
}

bool isReceive(EventKind k)
{
    return k == EventKind::MpiRecv || k == EventKind::MpiIrecv;
}

/// Why communicator rank `partner` of `comm` names no rank, or empty if it does.
std::string partnerError(const Trace& defs, CommId comm, uint32_t partner)
{
    if (!comm.valid() || comm.value >= defs.communicators().size())
        return "message on undefined communicator " + std::to_string(comm.value);
    const Communicator& c = defs.communicator(comm);
    if (c.members.empty()) // a self communicator: the only partner is the rank itself
        return partner != 0 ? "partner rank " + std::to_string(partner) + " on a self communicator"
                            : std::string();
    if (partner >= c.members.size())
        return "partner rank " + std::to_string(partner) + " outside communicator '" +
               std::string(defs.str(c.name)) + "' of " + std::to_string(c.members.size()) +
               " ranks";
    return {};
}

/// Replaces the partners of location `l`'s payloads (communicator ranks) by world ranks. Payloads
/// are numbered in order of first use, so the first bad one is the first bad event's.
void translatePartners(const Trace& defs, const EventStream& es, LocationBuildState& ls, uint32_t l)
{
    const RankId self = defs.rankOf(LocationId(l));
    for (uint32_t k = 0; k < ls.p2p.size(); ++k) {
        P2PPayload& p = ls.p2p[k];
        if (const std::string error = partnerError(defs, p.comm, p.partner); !error.empty()) {
            size_t event = 0;
            while (event < es.size() &&
                   !((isSend(es.kind(event)) || isReceive(es.kind(event))) && es.ref(event) == k))
                ++event;
            throw TraceError("location " + std::to_string(defs.location(LocationId(l)).otf2Id) +
                             ", event " + std::to_string(event) + ": " + error);
        }
        const Communicator& c = defs.communicator(p.comm);
        p.partner = c.members.empty() ? self.value : c.members[p.partner].value;
    }
}

/// Writes location `l`'s send events into `out` ordered by receiver (world rank), in event
/// order per receiver: a stable counting sort over the location's distinct receivers.
void listSends(const EventStream& es, const LocationBuildState& ls, SendRef* out,
               std::vector<uint32_t>& partners, std::vector<uint32_t>& slotOf,
               std::vector<uint32_t>& start, std::vector<uint32_t>& scratch)
{
    partners.clear();
    for (const P2PPayload& p : ls.p2p.values())
        partners.push_back(p.partner);
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    slotOf.resize(ls.p2p.size());
    for (size_t k = 0; k < ls.p2p.size(); ++k)
        slotOf[k] = static_cast<uint32_t>(
            std::lower_bound(partners.begin(), partners.end(), ls.p2p[k].partner) -
            partners.begin());
    scratch.clear();
    start.assign(partners.size() + 1, 0); // then: where each receiver's run goes next
    for (uint32_t i = 0; i < es.size(); ++i)
        if (isSend(es.kind(i))) {
            scratch.push_back(i);
            ++start[slotOf[es.ref(i)] + 1];
        }
    for (size_t k = 1; k < start.size(); ++k)
        start[k] += start[k - 1];
    for (uint32_t e : scratch)
        out[start[slotOf[es.ref(e)]]++] = {e, es.ref(e)};
}

} // namespace

void matchMessages(const Trace& defs, std::vector<EventStream>& streams,
                   std::vector<LocationBuildState>& locations, std::vector<Message>& messages,
                   TraceDiagnostics& diagnostics, unsigned threads)
{
    const size_t ranks = defs.rankCount();
    const size_t nLoc = locations.size();
    uint64_t totalSends = 0, totalReceives = 0;
    // Location l's sends, in receiver order, are sendEvents[sendBegin[l], sendBegin[l + 1]).
    std::vector<uint64_t> sendBegin(nLoc + 1, 0);
    for (size_t l = 0; l < nLoc; ++l) {
        const LocationBuildState& ls = locations[l];
        diagnostics.orphanRequestEvents += ls.orphanRequestEvents;
        diagnostics.cancelledRequests += ls.cancelledRequests;
        totalSends += ls.sends;
        totalReceives += ls.receives;
        sendBegin[l + 1] = sendBegin[l] + ls.sends;
    }
    // Every send becomes a message: a count beyond what a reference holds fails here, before a
    // send's place in the lists (32 bits in a Side) could overflow.
    if (totalSends > uint64_t(kMaxEventRef) + 1)
        throw TraceError("too many messages (more than " + std::to_string(kMaxEventRef) + ")");
    std::vector<SendRef> sendEvents(totalSends);

    // Pass 1: partners to world ranks, and each location's send list.
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned) {
        std::vector<uint32_t> partners, slotOf, start, scratch;
        for (auto l = static_cast<uint32_t>(begin); l < end; ++l) {
            LocationBuildState& ls = locations[l];
            if (ls.p2p.empty()) continue;
            translatePartners(defs, streams[l], ls, l);
            if (ls.sends > 0)
                listSends(streams[l], ls, sendEvents.data() + sendBegin[l], partners, slotOf, start,
                          scratch);
        }
    });

    // Pass 2: receiver by receiver, gather its bucket, sort it and pair the k-th send and the
    // k-th receive of each (communicator, sender, tag). Sequential, so message ids do not depend
    // on threads.
    constexpr uint32_t kNone = 0xFFFFFFFFu;
    std::vector<uint64_t> cursor(sendBegin.begin(), sendBegin.end() - 1);
    std::vector<uint32_t> head(ranks, kNone), queued(nLoc, kNone);
    auto payload = [&](uint32_t l, uint32_t index) -> const P2PPayload& {
        return locations[l].p2p[index];
    };
    auto enqueue = [&](uint32_t l) { // files l under the receiver of its next send
        if (cursor[l] == sendBegin[l + 1]) return;
        const uint32_t r = payload(l, sendEvents[cursor[l]].payload).partner;
        queued[l] = head[r];
        head[r] = l;
    };
    for (auto l = static_cast<uint32_t>(nLoc); l-- > 0;)
        enqueue(l);

    messages.clear();
    messages.reserve(std::max(totalSends, totalReceives));
    auto newId = [&]() {
        if (messages.size() > kMaxEventRef)
            throw TraceError("too many messages (more than " + std::to_string(kMaxEventRef) + ")");
        return static_cast<uint32_t>(messages.size());
    };
    auto takeSend = [&](const Side& s, Message& m, uint32_t id) {
        const P2PPayload& p = payload(s.location, s.payload);
        m.sendLocation = LocationId(s.location);
        m.sendEvent = s.event;
        m.tag = p.tag;
        m.comm = p.comm;
        m.bytes = p.bytes;
        sendEvents[s.post].payload = id; // into the event in pass 3
    };
    auto takeRecv = [&](const Side& s, Message& m, uint32_t id) {
        const P2PPayload& p = payload(s.location, s.payload);
        m.recvLocation = LocationId(s.location);
        m.recvEvent = s.event;
        if (!m.sendLocation.valid()) {
            m.tag = p.tag;
            m.comm = p.comm;
            m.bytes = p.bytes;
        }
        streams[s.location].setRef(s.event, id);
        if (s.post != kNoEvent) // the MpiIrecvRequest that posted it
            streams[s.location].setRef(s.post, id);
    };

    std::vector<Side> sends, recvs;
    BucketSorter sorter;
    uint64_t sizeMismatches = 0;
    for (uint32_t rank = 0; rank < ranks; ++rank) {
        sends.clear();
        for (uint32_t l = std::exchange(head[rank], kNone); l != kNone;) {
            const uint32_t next = queued[l];
            const uint32_t self = defs.rankOf(LocationId(l)).value;
            const bool alone = defs.rank(RankId(self)).locations.size() == 1;
            const EventStream& es = streams[l];
            for (; cursor[l] < sendBegin[l + 1]; ++cursor[l]) {
                const SendRef& send = sendEvents[cursor[l]];
                const P2PPayload& p = payload(l, send.payload);
                if (p.partner != rank) break;
                const int64_t order = alone ? int64_t(send.event) : es.time(send.event);
                sends.push_back(makeSide(p.comm.value, self, p.tag, order, l,
                                         static_cast<uint32_t>(cursor[l]), send.event,
                                         send.payload));
            }
            enqueue(l);
            l = next;
        }
        recvs.clear();
        for (LocationId loc : defs.rank(RankId(rank)).locations) {
            const LocationBuildState& ls = locations[loc.value];
            if (ls.receives == 0) continue;
            const EventStream& es = streams[loc.value];
            size_t unposted = 0;
            for (uint32_t i = 0; i < es.size(); ++i) {
                const EventKind k = es.kind(i);
                uint32_t event = i, post = kNoEvent;
                if (k == EventKind::MpiIrecvRequest) {
                    // A non-blocking receive takes its place in matching order when posted.
                    event = ls.links.linked(es, i, true);
                    if (event == kNoEvent) continue;
                    post = i;
                } else if (k == EventKind::MpiIrecv) {
                    if (unposted == ls.unpostedIrecvs.size() || ls.unpostedIrecvs[unposted] != i)
                        continue; // taken at its MpiIrecvRequest
                    ++unposted;
                } else if (k != EventKind::MpiRecv) {
                    continue;
                }
                const uint32_t index = es.ref(event);
                const P2PPayload& p = payload(loc.value, index);
                recvs.push_back(makeSide(p.comm.value, p.partner, p.tag, es.time(i), loc.value,
                                         post, event, index));
            }
        }
        if (sends.empty() && recvs.empty()) continue;
        sorter.sortBucket(sends, 0, sends.size(), recvs, 0, recvs.size());

        size_t si = 0, ri = 0;
        while (si < sends.size() || ri < recvs.size()) {
            const bool haveS = si < sends.size(), haveR = ri < recvs.size();
            const uint32_t id = newId();
            Message m;
            if (haveS && haveR && sends[si].sameKey(recvs[ri])) {
                // MPI delivers what was sent: a receive that records another size than its send
                // is damaged data (one byte of a length in an event file).
                if (payload(sends[si].location, sends[si].payload).bytes !=
                    payload(recvs[ri].location, recvs[ri].payload).bytes)
                    ++sizeMismatches;
                takeSend(sends[si++], m, id);
                takeRecv(recvs[ri++], m, id);
            } else if (haveS && (!haveR || sends[si].keyLess(recvs[ri]))) {
                takeSend(sends[si++], m, id);
                m.recvEvent = rank; // the intended receiver
                ++diagnostics.unmatchedSends;
            } else {
                m.sendEvent = static_cast<uint32_t>(recvs[ri].commSender); // the named sender
                takeRecv(recvs[ri++], m, id);
                ++diagnostics.unmatchedReceives;
            }
            messages.push_back(m);
        }
    }

    // Pass 3: each send event gets its message id; completions, tests and cancels refer to the
    // message of the request they name.
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned) {
        for (size_t l = begin; l < end; ++l) {
            LocationBuildState& ls = locations[l];
            EventStream& es = streams[l];
            for (uint64_t k = sendBegin[l]; k < sendBegin[l + 1]; ++k)
                es.setRef(sendEvents[k].event, sendEvents[k].payload);
            for (uint32_t i = 0; ls.completions > 0 && i < es.size(); ++i) {
                const EventKind k = es.kind(i);
                if (k != EventKind::MpiIsendComplete && k != EventKind::MpiRequestTest &&
                    k != EventKind::MpiRequestCancelled)
                    continue;
                const uint32_t post = ls.links.linked(es, i, false);
                es.setRef(i, post == kNoEvent ? kNoEventRef : es.ref(post));
            }
            ls.p2p.clear();
            ls.open.clear();
            std::vector<uint32_t>().swap(ls.unpostedIrecvs);
        }
    });

    if (diagnostics.unmatchedSends + diagnostics.unmatchedReceives > 0)
        diagnostics.warnings.push_back(
            std::to_string(diagnostics.unmatchedSends) + " send(s) and " +
            std::to_string(diagnostics.unmatchedReceives) +
            " receive(s) have no matching partner; they are kept as unmatched messages");
    if (sizeMismatches > 0)
        diagnostics.warnings.push_back(std::to_string(sizeMismatches) +
                                       " matched message(s) record another size at the receive "
                                       "than at the send; the send's size is kept");
    if (diagnostics.orphanRequestEvents > 0)
        diagnostics.warnings.push_back(std::to_string(diagnostics.orphanRequestEvents) +
                                       " request completion/test record(s) name a request that "
                                       "was never posted");
}

} // namespace rankscope
