// Collective matching: on one communicator every member calls collectives in the same order,
// so the k-th collective of each member rank forms instance k. Self communicators (no member
// list) give one single-member instance per call.

#include "model/support/parallelchunks.h"
#include "model/trace/tracebuilder_p.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rankscope {

namespace {

/// One collective call: its location and MpiCollectiveBegin event (it links to its end,
/// tracebuilder_p.h). Calls are grouped by (communicator, rank) with a counting sort, so a
/// call costs 8 bytes while matching (a sorted row of communicator, rank and time cost 24,
/// which made the matcher the import's peak on traces with a collective every few events).
struct Item
{
    uint32_t location;
    uint32_t begin;
};

/// The communicator of the collective that begins at event `begin` of `l`, or ~0u when no end
/// followed; throws for an undefined communicator.
uint32_t commOf(const Trace& defs, const EventStream& es, const LocationBuildState& ls, uint32_t l,
                uint32_t begin)
{
    const uint32_t end = ls.links.linked(es, begin, true);
    if (end == kNoEvent) return ~0u;
    const CommId comm = ls.collectives[es.ref(end)].comm;
    if (!comm.valid() || comm.value >= defs.communicators().size())
        throw TraceError("location " + std::to_string(defs.location(LocationId(l)).otf2Id) +
                         ", event " + std::to_string(end) +
                         ": collective on undefined communicator " + std::to_string(comm.value));
    return comm.value;
}

} // namespace

void matchCollectives(const Trace& defs, std::vector<EventStream>& streams,
                      std::vector<LocationBuildState>& locations,
                      std::vector<CollectiveInstance>& instances,
                      std::vector<CollectiveMember>& members, TraceDiagnostics& diagnostics,
                      unsigned threads)
{
    // Pass 1, location by location in parallel: the calls of each communicator, in order of
    // first use (a location belongs to one rank, so a communicator names its group there).
    struct LocalGroup
    {
        uint32_t comm;
        uint32_t group = 0;
        size_t count = 0;
        size_t fill = 0; ///< where the location's next call of the group goes in `items`
    };
    const size_t nLoc = locations.size();
    std::vector<std::vector<LocalGroup>> local(nLoc);
    auto forEachCall = [&](uint32_t l, auto&& f) {
        const LocationBuildState& ls = locations[l];
        if (ls.collectiveEnds == 0) return;
        const EventStream& es = streams[l];
        std::vector<LocalGroup>& groups = local[l];
        size_t last = 0;
        for (uint32_t i = 0; i < es.size(); ++i) {
            if (es.kind(i) != EventKind::MpiCollectiveBegin) continue;
            const uint32_t comm = commOf(defs, es, ls, l, i);
            if (comm == ~0u) continue; // no end followed
            if (last >= groups.size() || groups[last].comm != comm) {
                last = 0;
                while (last < groups.size() && groups[last].comm != comm)
                    ++last;
                if (last == groups.size()) groups.push_back({comm});
            }
            f(groups[last], i);
        }
    };
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned) {
        for (auto l = static_cast<uint32_t>(begin); l < end; ++l)
            forEachCall(l, [](LocalGroup& g, uint32_t) { ++g.count; });
    });

    // The (communicator, rank) groups, numbered in order of first use.
    std::unordered_map<uint64_t, uint32_t> groupOf; // comm << 32 | rank -> group
    std::vector<uint64_t> groupKey;
    std::vector<size_t> groupSize;
    std::vector<uint32_t> firstLocation;
    std::vector<bool> mixed; // calls from more than one location
    for (uint32_t l = 0; l < nLoc; ++l) {
        const uint64_t rank = defs.rankOf(LocationId(l)).value;
        for (LocalGroup& lg : local[l]) {
            const uint64_t key = uint64_t(lg.comm) << 32 | rank;
            const auto [it, added] =
                groupOf.try_emplace(key, static_cast<uint32_t>(groupKey.size()));
            if (added) {
                groupKey.push_back(key);
                groupSize.push_back(0);
                firstLocation.push_back(l);
                mixed.push_back(false);
            } else if (firstLocation[it->second] != l) {
                mixed[it->second] = true;
            }
            lg.group = it->second;
            groupSize[lg.group] += lg.count;
        }
    }
    groupOf = {};

    // Groups in (communicator, rank) order, each a contiguous range of `items`; within a group,
    // a location's calls follow those of the locations before it.
    std::vector<uint32_t> order(groupKey.size());
    for (uint32_t g = 0; g < order.size(); ++g)
        order[g] = g;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return groupKey[a] < groupKey[b]; });
    std::vector<size_t> groupBegin(groupKey.size() + 1, 0);
    {
        size_t at = 0;
        for (uint32_t g : order) {
            groupBegin[g] = at;
            at += groupSize[g];
        }
        groupBegin.back() = at;
    }
    {
        std::vector<size_t> fill(groupBegin.begin(), groupBegin.end() - 1);
        for (auto& groups : local)
            for (LocalGroup& lg : groups) {
                lg.fill = fill[lg.group];
                fill[lg.group] += lg.count;
            }
    }
    std::vector<Item> items(groupBegin.back());
    parallelChunks(nLoc, threads, [&](size_t begin, size_t end, unsigned) {
        for (auto l = static_cast<uint32_t>(begin); l < end; ++l)
            forEachCall(l, [&](LocalGroup& g, uint32_t i) { items[g.fill++] = {l, i}; });
    });
    local = {};
    // A rank's calls on one location are in time order; calls from several of its locations
    // are merged by (time, location, event).
    for (uint32_t g = 0; g < groupKey.size(); ++g) {
        if (!mixed[g]) continue;
        std::sort(items.begin() + std::ptrdiff_t(groupBegin[g]),
                  items.begin() + std::ptrdiff_t(groupBegin[g] + groupSize[g]),
                  [&](const Item& a, const Item& b) {
                      const int64_t ta = streams[a.location].time(a.begin),
                                    tb = streams[b.location].time(b.begin);
                      return std::tie(ta, a.location, a.begin) < std::tie(tb, b.location, b.begin);
                  });
    }
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
                    root = defs.rankOf(LocationId(it.location));
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

    // Communicator by communicator (groups are in (communicator, rank) order): one run of
    // items per rank, in time order.
    for (size_t o = 0; o < order.size();) {
        const auto comm = static_cast<uint32_t>(groupKey[order[o]] >> 32);
        std::vector<std::pair<size_t, size_t>> runs;
        std::vector<uint32_t> runRank;
        for (; o < order.size() && uint32_t(groupKey[order[o]] >> 32) == comm; ++o) {
            const uint32_t g = order[o];
            runs.emplace_back(groupBegin[g], groupBegin[g] + groupSize[g]);
            runRank.push_back(static_cast<uint32_t>(groupKey[g]));
        }
        const Communicator& c = defs.communicator(CommId(comm));
        if (c.members.empty()) {
            for (const auto& run : runs)
                for (size_t k = 0; k < run.second - run.first; ++k)
                    emit(comm, {run}, k, 1, true);
        } else {
            // Members in communicator-rank order; ranks outside the member list go last (runs
            // are in world-rank order already).
            for (uint32_t i = 0; i < c.members.size(); ++i)
                if (commRankOf[c.members[i].value] == kNotMember)
                    commRankOf[c.members[i].value] = i;
            std::vector<uint32_t> byKey(runs.size());
            for (uint32_t i = 0; i < byKey.size(); ++i)
                byKey[i] = i;
            auto key = [&](uint32_t run) {
                const uint32_t rank = runRank[run];
                const uint32_t inComm = commRankOf[rank];
                return inComm != kNotMember ? uint64_t(inComm) : (uint64_t(1) << 32) + rank;
            };
            std::stable_sort(byKey.begin(), byKey.end(),
                             [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
            std::vector<std::pair<size_t, size_t>> sorted;
            sorted.reserve(runs.size());
            for (uint32_t i : byKey) {
                sorted.push_back(runs[i]);
                if (commRankOf[runRank[i]] == kNotMember) ++outsiders;
            }
            size_t count = 0;
            for (const auto& run : sorted)
                count = std::max(count, run.second - run.first);
            for (size_t k = 0; k < count; ++k)
                emit(comm, sorted, k, c.members.size(), false);
            for (RankId m : c.members)
                commRankOf[m.value] = kNotMember;
        }
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
