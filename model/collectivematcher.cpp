// Collective matching: on one communicator every member calls collectives in the same order,
// so the k-th collective of each member rank forms instance k. Self communicators (no member
// list) give one single-member instance per call.

#include "model/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rankscope {

namespace {

struct Item
{
    uint32_t comm;
    uint32_t rank;
    int64_t time;
    uint32_t location;
    uint32_t index; ///< into that location's raw collectives

    bool operator<(const Item& o) const
    {
        return std::tie(comm, rank, time, location, index) <
               std::tie(o.comm, o.rank, o.time, o.location, o.index);
    }
};

} // namespace

void matchCollectives(const Trace& defs, std::vector<EventStream>& streams,
                      std::vector<LocationBuildState>& locations,
                      std::vector<CollectiveInstance>& instances,
                      std::vector<CollectiveMember>& members, TraceDiagnostics& diagnostics)
{
    std::vector<Item> items;
    for (uint32_t l = 0; l < locations.size(); ++l) {
        const RankId rank = defs.rankOf(LocationId(l));
        const auto& colls = locations[l].collectives;
        for (uint32_t i = 0; i < colls.size(); ++i) {
            const CommId comm = colls[i].comm;
            if (!comm.valid() || comm.value >= defs.communicators().size())
                throw TraceError("location " + std::to_string(defs.location(LocationId(l)).otf2Id) +
                                 ", event " + std::to_string(colls[i].endEvent) +
                                 ": collective on undefined communicator " +
                                 std::to_string(comm.value));
            items.push_back({comm.value, rank.value, streams[l].time(colls[i].beginEvent), l, i});
        }
    }
    std::sort(items.begin(), items.end());

    uint64_t disagreements = 0, outsiders = 0;
    std::unordered_map<uint32_t, uint32_t> commRankOf;

    auto emit = [&](uint32_t comm, const std::vector<std::pair<size_t, size_t>>& runs, size_t k,
                    size_t expectedMembers, bool selfComm) {
        if (instances.size() > kMaxEventRef)
            throw TraceError("too many collective instances");
        const auto id = static_cast<uint32_t>(instances.size());
        CollectiveInstance inst;
        inst.comm = CommId(comm);
        inst.firstMember = static_cast<uint32_t>(members.size());
        const Communicator& c = defs.communicator(CommId(comm));
        bool first = true;
        for (const auto& [begin, end] : runs) {
            if (begin + k >= end)
                continue;
            const Item& it = items[begin + k];
            const RawCollective& raw = locations[it.location].collectives[it.index];
            RankId root;
            if (raw.root != kNoRoot) {
                if (selfComm) {
                    root = RankId(it.rank);
                } else if (raw.root < c.members.size()) {
                    root = c.members[raw.root];
                } else {
                    throw TraceError("location " +
                                     std::to_string(defs.location(LocationId(it.location)).otf2Id) +
                                     ", event " + std::to_string(raw.endEvent) + ": root rank " +
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
            members.push_back({LocationId(it.location), raw.beginEvent, raw.endEvent,
                               raw.bytesSent, raw.bytesReceived});
            streams[it.location].setRef(raw.beginEvent, id);
            streams[it.location].setRef(raw.endEvent, id);
        }
        inst.memberCount = static_cast<uint32_t>(members.size()) - inst.firstMember;
        inst.complete = inst.memberCount >= expectedMembers;
        if (!inst.complete)
            ++diagnostics.incompleteCollectives;
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
            commRankOf.clear();
            for (uint32_t i = 0; i < c.members.size(); ++i)
                commRankOf.emplace(c.members[i].value, i);
            std::stable_sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) {
                auto ra = commRankOf.find(items[a.first].rank);
                auto rb = commRankOf.find(items[b.first].rank);
                const uint64_t ka = ra == commRankOf.end() ? (uint64_t(1) << 32) + items[a.first].rank : ra->second;
                const uint64_t kb = rb == commRankOf.end() ? (uint64_t(1) << 32) + items[b.first].rank : rb->second;
                return ka < kb;
            });
            for (const auto& run : runs)
                if (!commRankOf.count(items[run.first].rank))
                    ++outsiders;
            size_t count = 0;
            for (const auto& run : runs)
                count = std::max(count, run.second - run.first);
            for (size_t k = 0; k < count; ++k)
                emit(comm, runs, k, c.members.size(), false);
        }
        pos = commEnd;
    }

    for (auto& ls : locations)
        std::vector<RawCollective>().swap(ls.collectives);

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
