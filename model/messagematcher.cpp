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
#include "model/parallelchunks.h"
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
        if (!collectKeys(sends, sBegin, sEnd, sendKey_) || !collectKeys(recvs, rBegin, rEnd, recvKey_)) {
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
                if (keys_.size() == kMaxKeys)
                    return false;
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
            if (!std::is_sorted(first, last))
                std::sort(first, last);
        }
    }

    std::vector<Side> keys_; ///< one representative per distinct key
    std::vector<uint32_t> sendKey_, recvKey_, order_, rankOf_;
    std::vector<size_t> start_, fill_;
    std::vector<Side> scratch_;
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
                   TraceDiagnostics& diagnostics, unsigned threads)
{
    const size_t ranks = defs.rankCount();
    const size_t nLoc = locations.size();
    const unsigned chunks = chunkCount(nLoc, threads);
    // Per chunk of locations: sides per receiver rank, and diagnostics, summed afterwards.
    std::vector<std::vector<size_t>> sendCount(chunks, std::vector<size_t>(ranks, 0));
    std::vector<std::vector<size_t>> recvCount(chunks, std::vector<size_t>(ranks, 0));
    std::vector<TraceDiagnostics> chunkDiag(chunks);

    // Pass 1: link request events within each location, translate partners to world ranks
    // (stored back into `partner`) and count both sides per receiver rank.
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned c) {
        OpenRequests open;
        auto& sends = sendCount[c];
        auto& recvs = recvCount[c];
        TraceDiagnostics& diag = chunkDiag[c];
        for (auto l = static_cast<uint32_t>(begin); l < end; ++l) {
            auto& p2p = locations[l].p2p;
            const RankId self = defs.rankOf(LocationId(l));
            open.clear();
            for (uint32_t i = 0; i < p2p.size(); ++i) {
                RawP2P& r = p2p[i];
                switch (r.kind) {
                case EventKind::MpiSend:
                case EventKind::MpiIsend:
                    r.partner = worldRank(defs, r.comm, r.partner, self, l, r.event);
                    ++sends[r.partner];
                    if (r.kind == EventKind::MpiIsend)
                        open.post(r.request, i);
                    break;
                case EventKind::MpiIrecvRequest:
                    open.post(r.request, i);
                    break;
                case EventKind::MpiRecv:
                case EventKind::MpiIrecv:
                    r.partner = worldRank(defs, r.comm, r.partner, self, l, r.event);
                    ++recvs[self.value];
                    if (r.kind == EventKind::MpiIrecv) {
                        r.link = open.find(r.request, true);
                        if (r.link == OpenRequests::kNone)
                            ++diag.orphanRequestEvents;
                    }
                    break;
                case EventKind::MpiIsendComplete:
                case EventKind::MpiRequestTest:
                case EventKind::MpiRequestCancelled:
                    r.link = open.find(r.request, r.kind != EventKind::MpiRequestTest);
                    if (r.link == OpenRequests::kNone)
                        ++diag.orphanRequestEvents;
                    else if (r.kind == EventKind::MpiRequestCancelled)
                        ++diag.cancelledRequests;
                    break;
                default:
                    break;
                }
                // From here on `request` holds the record's message id (none yet).
                r.request = kNoEventRef;
            }
        }
    });
    for (const TraceDiagnostics& d : chunkDiag) {
        diagnostics.orphanRequestEvents += d.orphanRequestEvents;
        diagnostics.cancelledRequests += d.cancelledRequests;
    }

    // Pass 2: place both sides in per-receiver buckets (a stable counting sort with exact
    // sizes: chunk c of locations fills its slice of each bucket, after chunks 0..c-1).
    std::vector<size_t> sendStart(ranks + 1, 0), recvStart(ranks + 1, 0);
    std::vector<std::vector<size_t>> sendFill(chunks, std::vector<size_t>(ranks));
    std::vector<std::vector<size_t>> recvFill(chunks, std::vector<size_t>(ranks));
    for (size_t r = 0; r < ranks; ++r) {
        size_t s = sendStart[r], v = recvStart[r];
        for (unsigned c = 0; c < chunks; ++c) {
            sendFill[c][r] = s;
            recvFill[c][r] = v;
            s += sendCount[c][r];
            v += recvCount[c][r];
        }
        sendStart[r + 1] = s;
        recvStart[r + 1] = v;
    }
    std::vector<Side> sends(sendStart[ranks]), recvs(recvStart[ranks]);
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned c) {
        auto& sFill = sendFill[c];
        auto& rFill = recvFill[c];
        for (auto l = static_cast<uint32_t>(begin); l < end; ++l) {
            const auto& p2p = locations[l].p2p;
            const uint32_t self = defs.rankOf(LocationId(l)).value;
            const EventStream& es = streams[l];
            for (uint32_t i = 0; i < p2p.size(); ++i) {
                const RawP2P& r = p2p[i];
                if (r.kind == EventKind::MpiSend || r.kind == EventKind::MpiIsend) {
                    sends[sFill[r.partner]++] = makeSide(r.comm.value, self, r.tag,
                                                         es.time(r.event), l, i, r.event);
                } else if (r.kind == EventKind::MpiRecv || r.kind == EventKind::MpiIrecv) {
                    // A non-blocking receive takes its place in matching order when posted.
                    const uint32_t post = r.link != kNoEvent ? p2p[r.link].event : r.event;
                    recvs[rFill[self]++] = makeSide(r.comm.value, r.partner, r.tag,
                                                    es.time(post), l, i, r.event);
                }
            }
        }
    });

    // Pass 3a: sort each bucket by (key, order); buckets are independent.
    parallelChunks(ranks, threads, [&](size_t begin, size_t end, unsigned) {
        BucketSorter sorter;
        for (size_t rank = begin; rank < end; ++rank)
            sorter.sortBucket(sends, sendStart[rank], sendStart[rank + 1], recvs,
                              recvStart[rank], recvStart[rank + 1]);
    });

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

    uint64_t sizeMismatches = 0;
    // Pass 3b: within each receiver's bucket, the k-th send and the k-th receive of one
    // (communicator, sender, tag) pair up. Sequential, so message ids do not depend on threads.
    for (size_t rank = 0; rank < ranks; ++rank) {
        size_t si = sendStart[rank], ri = recvStart[rank];
        const size_t sLast = sendStart[rank + 1], rLast = recvStart[rank + 1];
        while (si < sLast || ri < rLast) {
            const bool haveS = si < sLast, haveR = ri < rLast;
            const uint32_t id = newId();
            Message m;
            if (haveS && haveR && sends[si].sameKey(recvs[ri])) {
                // MPI delivers what was sent: a receive that records another size than its send
                // is damaged data (one byte of a length in an event file).
                if (locations[sends[si].location].p2p[sends[si].record].bytes !=
                    locations[recvs[ri].location].p2p[recvs[ri].record].bytes)
                    ++sizeMismatches;
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
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned) {
        for (size_t l = begin; l < end; ++l) {
            auto& p2p = locations[l].p2p;
            for (const RawP2P& r : p2p) {
                uint64_t id = r.request;
                if (id == kNoEventRef && r.link != kNoEvent)
                    id = p2p[r.link].request;
                streams[l].setRef(r.event, static_cast<uint32_t>(id));
            }
            std::vector<RawP2P>().swap(p2p);
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
