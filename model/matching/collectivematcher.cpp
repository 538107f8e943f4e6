// Collective matching: on one communicator every member calls collectives in the same order,
// so the k-th collective of each member rank forms instance k. Self communicators (no member
// list) give one single-member instance per call.

#include "model/trace/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace rankscope {

namespace {

struct Item
{
    uint32_t comm;
    uint32_t rank;
    int64_t time;
    uint32_t location;
    uint32_t begin; ///< the MpiCollectiveBegin event; it links to its end (tracebuilder_p.h)

    bool operator<(const Item& o) const
    {
        return std::tie(comm, rank, time, location, begin) <
               std::tie(o.comm, o.rank, o.time, o.location, o.begin);
    }
};

} // namespace

void matchCollectives(const Trace& defs, std::vector<EventStream>& streams,
                      std::vector<LocationBuildState>& locations,
                      std::vector<CollectiveInstance>& instances,
                      std::vector<CollectiveMember>& members, TraceDiagnostics& diagnostics)
{
    size_t total = 0;
    for (const LocationBuildState& ls : locations)
        total += ls.collectiveEnds;
    std::vector<Item> items;
    items.reserve(total);
    for (uint32_t l = 0; l < locations.size(); ++l) {
        const RankId rank = defs.rankOf(LocationId(l));
        const LocationBuildState& ls = locations[l];
        const EventStream& es = streams[l];
        for (uint32_t i = 0; ls.collectiveEnds > 0 && i < es.size(); ++i) {
            if (es.kind(i) != EventKind::MpiCollectiveBegin) continue;
            const uint32_t end = ls.links.linked(es, i, true);
            if (end == kNoEvent) continue; // no end followed
            const CommId comm = ls.collectives[es.ref(end)].comm;
            if (!comm.valid() || comm.value >= defs.communicators().size())
                throw TraceError("location " + std::to_string(defs.location(LocationId(l)).otf2Id) +
                                 ", event " + std::to_string(end) +
                                 ": collective on undefined communicator " +
                                 std::to_string(comm.value));
            items.push_back({comm.value, rank.value, es.time(i), l, i});
        }
    }
    std::sort(items.begin(), items.end());
    members.reserve(members.size() + items.size()); // every item becomes one member

    uint64_t disagreements = 0, outsiders = 0;
    // Communicator rank of each world rank of the communicator at hand (kNotMember otherwise).
    constexpr uint32_t kNotMember = 0xFFFFFFFFu;
    std::vector<uint32_t> commRankOf(defs.rankCount(), kNotMember);

    auto emit = [&](uint32_t comm, const std::vector<std::pair<size_t, size_t>>& runs, size_t k,
                    size_t expectedMembers, bool selfComm) {
        if (instances.size() > kMaxEventRef) throw TraceError("too many collective instances");
        const auto id = static_cast<uint32_t>(instances.size());
        CollectiveInstance inst;
        inst.comm = CommId(comm);
        inst.firstMember = static_cast<uint32_t>(members.size());
        const Communicator& c = defs.communicator(CommId(comm));
        bool first = true;
        for (const auto& [begin, end] : runs) {
            if (begin + k >= end) continue;
            const Item& it = items[begin + k];
            const LocationBuildState& ls = locations[it.location];
            EventStream& es = streams[it.location];
            const uint32_t endEvent = ls.links.linked(es, it.begin, true);
            const CollectivePayload& raw = ls.collectives[es.ref(endEvent)];
            RankId root;
            if (raw.root != kNoRoot) {
                if (selfComm) {
                    root = RankId(it.rank);
                } else if (raw.root < c.members.size()) {
                    root = c.members[raw.root];
                } else {
                    throw TraceError("location " +
                                     std::to_string(defs.location(LocationId(it.location)).otf2Id) +
                                     ", event " + std::to_string(endEvent) + ": root rank " +
                                     std::to_string(raw.root) + " outside communicator '" +
                                     std::string(defs.str(c.name)) + "' of " +
                                     std::to_string(c.members.size()) + " ranks");
                }
            }
            if (first) {
                inst.op = raw.op;
                inst.root = root;
                first = false;
            } else if (raw.op != inst.op || root != inst.root) {
                ++disagreements;
            }
            members.push_back(
                {LocationId(it.location), it.begin, endEvent, raw.bytesSent, raw.bytesReceived});
            es.setRef(it.begin, id);
            es.setRef(endEvent, id);
        }
        inst.memberCount = static_cast<uint32_t>(members.size()) - inst.firstMember;
        inst.complete = inst.memberCount >= expectedMembers;
        if (!inst.complete) ++diagnostics.incompleteCollectives;
        instances.push_back(inst);
    };

    size_t pos = 0;
    while (pos < items.size()) {
        const uint32_t comm = items[pos].comm;
        size_t commEnd = pos;
        while (commEnd < items.size() && items[commEnd].comm == comm)
            ++commEnd;
        // One run of items per rank, in time order.
        std::vector<std::pair<size_t, size_t>> runs;
        for (size_t b = pos; b < commEnd;) {
            size_t e = b;
            while (e < commEnd && items[e].rank == items[b].rank)
                ++e;
            runs.emplace_back(b, e);
            b = e;
        }
        const Communicator& c = defs.communicator(CommId(comm));
        if (c.members.empty()) {
            for (const auto& run : runs)
                for (size_t k = 0; k < run.second - run.first; ++k)
                    emit(comm, {run}, k, 1, true);
        } else {
            // Members in communicator-rank order; ranks outside the member list go last.
            for (uint32_t i = 0; i < c.members.size(); ++i)
                if (commRankOf[c.members[i].value] == kNotMember)
                    commRankOf[c.members[i].value] = i;
            auto key = [&](const std::pair<size_t, size_t>& run) {
                const uint32_t rank = items[run.first].rank;
                const uint32_t inComm = commRankOf[rank];
                return inComm != kNotMember ? uint64_t(inComm) : (uint64_t(1) << 32) + rank;
            };
            std::stable_sort(runs.begin(), runs.end(),
                             [&](const auto& a, const auto& b) { return key(a) < key(b); });
            for (const auto& run : runs)
                if (commRankOf[items[run.first].rank] == kNotMember) ++outsiders;
            size_t count = 0;
            for (const auto& run : runs)
                count = std::max(count, run.second - run.first);
            for (size_t k = 0; k < count; ++k)
                emit(comm, runs, k, c.members.size(), false);
            for (RankId m : c.members)
                commRankOf[m.value] = kNotMember;
        }
        pos = commEnd;
    }

    for (auto& ls : locations)
        ls.collectives.clear();

    if (diagnostics.incompleteCollectives > 0)
        diagnostics.warnings.push_back(std::to_string(diagnostics.incompleteCollectives) +
                                       " collective instance(s) miss some member ranks");
    if (disagreements > 0)
        diagnostics.warnings.push_back(std::to_string(disagreements) +
                                       " collective call(s) disagree with the other members of "
                                       "their instance on operation or root");
    if (outsiders > 0)
        diagnostics.warnings.push_back(std::to_string(outsiders) +
                                       " rank(s) record collectives on a communicator they are not "
                                       "a member of");
}

} // namespace rankscope
