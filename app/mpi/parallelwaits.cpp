#include "app/mpi/parallelwaits.h"

#include "app/mpi/mpibytes.h"
#include "model/support/bytecodec.h"
#include "model/trace/traceerror.h"
#include "model/waits/rootcausecursor.h"
#include "model/waits/waitboundary.h"
#include "model/waits/waitcalllocator.h"
#include "model/waits/waitcodec.h"
#include "model/waits/waitscan.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rankscope::mpi {

int Part::ownerOf(RankId r) const
{
    const auto it = std::upper_bound(blockStarts.begin(), blockStarts.end(), r.value);
    return int(it - blockStarts.begin()) - 1;
}

namespace {

int processCount(MPI_Comm comm)
{
    int size = 1;
    MPI_Comm_size(comm, &size);
    return size;
}

/// Decodes a list of fixed-size records per source process.
template <class T> std::vector<std::vector<T>> recordsBySource(const Received& in)
{
    std::vector<std::vector<T>> out(in.from.size() - 1);
    for (size_t p = 0; p + 1 < in.from.size(); ++p) {
        ByteReader r(in.bytes.data() + in.from[p], in.from[p + 1] - in.from[p]);
        if (!r.atEnd()) out[p] = r.getList<T>();
    }
    return out;
}

template <class T>
std::vector<std::vector<char>> encodeBySource(const std::vector<std::vector<T>>& records)
{
    std::vector<std::vector<char>> out(records.size());
    for (size_t p = 0; p < records.size(); ++p)
        if (!records[p].empty()) ByteWriter(out[p]).putList(records[p]);
    return out;
}

// ---- 1. messages ------------------------------------------------------------------------

struct MessageFact
{
    uint32_t comm = 0, sender = 0, receiver = 0;
    int32_t tag = 0;
    uint64_t sequence = 0;
    uint8_t isSend = 0;
    RemoteSend send;
    RemoteReceive receive;

    auto key() const { return std::tie(comm, sender, receiver, tag, sequence, isSend); }
};

WaitBoundary exchangeMessageEnds(const Part& part, const WaitCallLocator& locator, MPI_Comm comm)
{
    const std::vector<BoundaryMessageEnd> ends =
        boundaryMessageEnds(part.trace, locator, [&](RankId r) { return part.holds(r); });
    std::vector<std::vector<MessageFact>> out(size_t(processCount(comm)));
    for (const BoundaryMessageEnd& e : ends) {
        const RankId partner(e.send ? e.receiver : e.sender);
        out[size_t(part.ownerOf(partner))].push_back({e.comm, e.sender, e.receiver, e.tag,
                                                      e.sequence, uint8_t(e.send), e.sendFacts,
                                                      e.receiveFacts});
    }
    const Received in = exchangeBytes(encodeBySource(out), comm);
    std::vector<MessageFact> facts;
    for (std::vector<MessageFact>& from : recordsBySource<MessageFact>(in))
        facts.insert(facts.end(), from.begin(), from.end());
    std::sort(facts.begin(), facts.end(),
              [](const MessageFact& a, const MessageFact& b) { return a.key() < b.key(); });

    WaitBoundary boundary;
    for (const BoundaryMessageEnd& e : ends) {
        MessageFact probe;
        std::tie(probe.comm, probe.sender, probe.receiver, probe.tag, probe.sequence) =
            std::tie(e.comm, e.sender, e.receiver, e.tag, e.sequence);
        probe.isSend = e.send ? 0 : 1; // the other end
        const auto it = std::lower_bound(
            facts.begin(), facts.end(), probe,
            [](const MessageFact& a, const MessageFact& b) { return a.key() < b.key(); });
        if (it == facts.end() || it->key() != probe.key()) continue; // unmatched everywhere
        if (e.send)
            boundary.receives.emplace(e.message.value, it->receive);
        else
            boundary.sends.emplace(e.message.value, it->send);
    }
    return boundary;
}

// ---- 2. collectives -----------------------------------------------------------------------

struct MemberFact
{
    uint32_t comm = 0;
    uint32_t instance = 0; ///< k: the k-th collective of its members on the communicator
    uint64_t order = 0;    ///< the member's place in the instance (communicator rank first)
    CollectiveArrival arrival;
    CollectiveOp op = CollectiveOp::Other; ///< of the sender's part of the instance
    RankId root;

    auto key() const { return std::tie(comm, instance, order); }
};

struct InstanceFact
{
    uint32_t comm = 0;
    uint32_t instance = 0;
    CollectiveArrivals arrivals;
};

int instanceOwner(uint32_t comm, uint32_t instance, int processes)
{
    return int((uint64_t(comm) * 2654435761u + instance) % uint64_t(processes));
}

/// Each member's place in its instance as the importer orders members (collectivematcher.cpp):
/// by communicator rank; ranks outside the member list after all members, by world rank.
class MemberOrder
{
public:
    explicit MemberOrder(const Trace& trace) : trace_(trace) {}
    uint64_t of(CommId comm, RankId rank)
    {
        if (comm != cached_) {
            cached_ = comm;
            commRank_.clear();
            const auto& members = trace_.communicator(comm).members;
            for (uint32_t i = 0; i < members.size(); ++i)
                commRank_.try_emplace(members[i].value, i); // the first place counts
        }
        const auto it = commRank_.find(rank.value);
        return it != commRank_.end() ? it->second : (uint64_t(1) << 32) + rank.value;
    }

private:
    const Trace& trace_;
    CommId cached_;
    std::unordered_map<uint32_t, uint32_t> commRank_;
};

std::vector<CollectiveArrivals> exchangeCollectives(const Part& part,
                                                    const WaitCallLocator& locator, MPI_Comm comm)
{
    const Trace& trace = part.trace;
    const int processes = processCount(comm);
    const auto& instances = trace.collectives();
    const auto& members = trace.collectiveMembers();
    std::vector<CollectiveArrivals> summaries(instances.size());
    // The importer numbers a communicator's instances k = 0, 1, ... in id order.
    std::vector<uint32_t> nextInstance(trace.communicators().size(), 0);
    std::vector<std::pair<uint32_t, uint32_t>> keyOf(instances.size()); // (comm, k)
    std::vector<std::vector<MemberFact>> out(static_cast<size_t>(processes));
    MemberOrder order(trace);
    for (uint32_t c = 0; c < instances.size(); ++c) {
        const CollectiveInstance& ci = instances[c];
        if (!ci.comm.valid() || ci.comm.value >= nextInstance.size() ||
            trace.communicator(ci.comm).members.empty()) {
            // A self communicator: one member, held here.
            summaries[c] = WaitCollectives::summarize(trace, locator, CollectiveId(c));
            continue;
        }
        const uint32_t k = nextInstance[ci.comm.value]++;
        keyOf[c] = {ci.comm.value, k};
        std::vector<MemberFact>& to = out[size_t(instanceOwner(ci.comm.value, k, processes))];
        for (uint32_t m = ci.firstMember; m < ci.firstMember + ci.memberCount; ++m) {
            const CollectiveMember& member = members[m];
            MemberFact f;
            f.comm = ci.comm.value;
            f.instance = k;
            f.arrival.rank = trace.rankOf(member.location);
            f.order = order.of(ci.comm, f.arrival.rank);
            f.arrival.event = locator.enclosingCall(member.location, member.beginEvent);
            if (f.arrival.event != kNoEvent)
                f.arrival.enter = trace.events(member.location).time(f.arrival.event);
            f.op = ci.op;
            f.root = ci.root;
            to.push_back(f);
        }
    }

    // As an owner: each instance's members in member order, summarised as the desktop does.
    const Received in = exchangeBytes(encodeBySource(out), comm);
    std::vector<std::vector<MemberFact>> bySource = recordsBySource<MemberFact>(in);
    struct Tagged
    {
        MemberFact fact;
        uint32_t source;
    };
    std::vector<Tagged> all;
    for (uint32_t p = 0; p < bySource.size(); ++p)
        for (const MemberFact& f : bySource[p])
            all.push_back({f, p});
    bySource.clear();
    std::sort(all.begin(), all.end(),
              [](const Tagged& a, const Tagged& b) { return a.fact.key() < b.fact.key(); });
    std::vector<std::vector<InstanceFact>> replies(static_cast<size_t>(processes));
    for (size_t i = 0; i < all.size();) {
        size_t e = i;
        while (e < all.size() && all[e].fact.comm == all[i].fact.comm &&
               all[e].fact.instance == all[i].fact.instance)
            ++e;
        InstanceFact reply;
        reply.comm = all[i].fact.comm;
        reply.instance = all[i].fact.instance;
        CollectiveArrivals& s = reply.arrivals;
        s.op = all[i].fact.op; // the first member's, as the importer takes it
        s.root = all[i].fact.root;
        s.complete = e - i >= trace.communicator(CommId(reply.comm)).members.size();
        if (collectiveDependence(s.op) != CollectiveDependence::None && s.complete)
            for (size_t j = i; j < e; ++j)
                if (all[j].fact.arrival.event != kNoEvent) s.addArrival(all[j].fact.arrival);
        for (size_t j = i; j < e; ++j) { // once to every process holding a member
            std::vector<InstanceFact>& to = replies[all[j].source];
            if (to.empty() || to.back().comm != reply.comm || to.back().instance != reply.instance)
                to.push_back(reply);
        }
        i = e;
    }
    all.clear();

    const Received back = exchangeBytes(encodeBySource(replies), comm);
    std::map<std::pair<uint32_t, uint32_t>, CollectiveArrivals> known;
    for (const std::vector<InstanceFact>& from : recordsBySource<InstanceFact>(back))
        for (const InstanceFact& f : from)
            known.emplace(std::make_pair(f.comm, f.instance), f.arrivals);
    for (uint32_t c = 0; c < instances.size(); ++c) {
        if (!instances[c].comm.valid() || instances[c].comm.value >= nextInstance.size() ||
            trace.communicator(instances[c].comm).members.empty())
            continue;
        const auto it = known.find(keyOf[c]);
        if (it == known.end())
            throw TraceError("collective instance " + std::to_string(keyOf[c].second) +
                             " of communicator " + std::to_string(keyOf[c].first) +
                             ": no summary came back from its owner process");
        summaries[c] = it->second;
    }
    return summaries;
}

// ---- 4. direct or indirect ----------------------------------------------------------------

struct CauseQuery
{
    uint32_t cause = 0;
    uint32_t point = kNoEvent;
};

void classifyIndirect(const Part& part, std::vector<RankWaits>& ranks, MPI_Comm comm)
{
    const uint32_t first = part.firstRank();
    std::vector<std::vector<CauseQuery>> queries(size_t(processCount(comm)));
    for (RankWaits& r : ranks)
        for (size_t i = 0; i < r.waits.size(); ++i) {
            WaitState& w = r.waits[i];
            if (w.cause.value >= part.trace.rankCount()) continue;
            if (part.holds(w.cause))
                w.direct = causeWasIdle(ranks[w.cause.value - first], r.links[i].causeEvent);
            else
                queries[size_t(part.ownerOf(w.cause))].push_back(
                    {w.cause.value, r.links[i].causeEvent});
        }
    const Received in = exchangeBytes(encodeBySource(queries), comm);
    std::vector<std::vector<uint8_t>> answers;
    for (const std::vector<CauseQuery>& from : recordsBySource<CauseQuery>(in)) {
        std::vector<uint8_t>& a = answers.emplace_back();
        for (const CauseQuery& q : from) {
            if (!part.holds(RankId(q.cause)))
                throw TraceError("a process asked about rank " + std::to_string(q.cause) +
                                 ", which another process holds");
            a.push_back(causeWasIdle(ranks[q.cause - first], q.point) ? 1 : 0);
        }
    }
    const std::vector<std::vector<uint8_t>> replies =
        recordsBySource<uint8_t>(exchangeBytes(encodeBySource(answers), comm));
    // Answers come back in the order the questions went out.
    std::vector<size_t> next(replies.size(), 0);
    for (RankWaits& r : ranks)
        for (WaitState& w : r.waits) {
            if (w.cause.value >= part.trace.rankCount() || part.holds(w.cause)) continue;
            const size_t p = size_t(part.ownerOf(w.cause));
            if (next[p] >= replies[p].size())
                throw TraceError("process " + std::to_string(p) + " answered too few questions");
            w.direct = replies[p][next[p]++] != 0;
        }
}

} // namespace

ParallelWaits findWaitStatesInParallel(const Part& part, const WaitStateOptions& options,
                                       MPI_Comm comm)
{
    const Trace& trace = part.trace;
    const WaitCallLocator locator(trace);
    const WaitBoundary boundary = exchangeMessageEnds(part, locator, comm);
    std::vector<CollectiveArrivals> summaries = exchangeCollectives(part, locator, comm);

    ParallelWaits result;
    WaitStateAnalysis& local = result.local;
    const WaitScanner scanner(trace, options, boundary, std::move(summaries));
    std::vector<RankWaits> ranks;
    for (uint32_t r = part.firstRank(); r < part.endRank(); ++r)
        ranks.push_back(scanner.scan(RankId(r), local.callSites, {}));
    classifyIndirect(part, ranks, comm);
    for (RankWaits& r : ranks) {
        local.waits.insert(local.waits.end(), r.waits.begin(), r.waits.end());
        r = RankWaits();
    }
    addWaitTotals(local, trace.rankCount());

    std::vector<char> mine;
    ByteWriter w(mine);
    encodeWaitTotals(local, waitRows(local), part.firstRank(), part.endRank(), w);
    const std::vector<char> all = gatherBytes(mine, comm);
    if (part.process != 0) return result;
    std::vector<WaitStateAnalysis> parts;
    ByteReader r(all.data(), all.size());
    while (!r.atEnd())
        parts.push_back(decodeWaitTotals(r, trace.rankCount()));
    result.merged = mergeWaitTotals(std::move(parts), trace.rankCount());
    return result;
}

} // namespace rankscope::mpi
