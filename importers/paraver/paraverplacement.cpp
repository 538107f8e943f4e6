// Hands the records read from a .prv to the TraceBuilder, each thread's events in time order.
//
// A communication record gives a message's times but not the MPI calls it belongs to; those
// follow from the thread's MPI events. At equal times the order of events decides which call
// an end falls in (an MPI_Recv that completes when the next call starts, an MPI_Isend entered
// when the previous call left): an end that starts something (a send, a receive's posting) goes
// to the latest place at its time inside an MPI call, an end that completes something (a
// receive) to the earliest. A send inside MPI_Isend (or Ibsend, Issend, Irsend) is
// non-blocking; a receive whose logical time lies in an MPI_Irecv (or Imrecv) other than the
// call holding its physical time was posted there and completed later (in MPI_Wait...).

#include "importers/paraver/paraverimport_p.h"
#include "importers/paraver/paravermpi.h"
#include "model/support/parallelchunks.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace rankscope::paraver {

namespace {

/// For each place p (before item p, p = items.size() after the last) of a thread's sorted
/// items: the MPI call open there (a number per call, kNone outside) and its region. One per
/// building thread, refilled for each of its threads: fresh lists cost a page fault per 4 KiB.
struct Calls
{
    std::vector<uint32_t> call;
    std::vector<uint32_t> region;
    std::vector<std::pair<uint32_t, uint32_t>> open; // (region, call) of open MPI calls

    void fill(const std::vector<Item>& items, const std::vector<bool>& isMpi)
    {
        call.clear();
        region.clear();
        open.clear();
        call.reserve(items.size() + 1);
        region.reserve(items.size() + 1);
        uint32_t calls = 0;
        for (const Item& item : items) {
            call.push_back(open.empty() ? kNone : open.back().second);
            region.push_back(open.empty() ? kNone : open.back().first);
            const bool mpi = (item.kind == ItemKind::Enter || item.kind == ItemKind::Leave) &&
                             item.ref < isMpi.size() && isMpi[item.ref];
            if (!mpi) continue;
            if (item.kind == ItemKind::Enter) {
                open.emplace_back(item.ref, calls++);
            } else {
                for (size_t k = open.size(); k-- > 0;)
                    if (open[k].first == item.ref) {
                        open.resize(k);
                        break;
                    }
            }
        }
        call.push_back(open.empty() ? kNone : open.back().second);
        region.push_back(open.empty() ? kNone : open.back().first);
    }
};

/// Where an end at time `t` goes among `items` (see the file comment). `lo` is the first item
/// not earlier than the previous end's time: the ends come in time order, so the search walks
/// forward from there instead of bisecting the whole thread (which missed the cache).
uint32_t place(const std::vector<Item>& items, const Calls& calls, int64_t t, bool starts,
               size_t& lo)
{
    while (lo < items.size() && items[lo].time < t)
        ++lo;
    size_t hi = lo;
    while (hi < items.size() && items[hi].time == t)
        ++hi;
    if (starts) {
        for (size_t p = hi + 1; p-- > lo;)
            if (calls.call[p] != kNone) return uint32_t(p);
        return uint32_t(hi);
    }
    for (size_t p = lo; p <= hi; ++p)
        if (calls.call[p] != kNone) return uint32_t(p);
    return uint32_t(lo);
}

void decideRoots(ImportData& d)
{
    // Keys (communicator << 32 | rank) and (communicator << 32 | index): hash tables, as a
    // trace has hundreds of thousands of collective records (a std::map took 0.12 s on 544,000).
    const auto key = [](uint32_t comm, uint32_t x) { return uint64_t(comm) << 32 | x; };
    std::unordered_map<uint64_t, uint32_t> count; // (comm, rank) -> collectives so far
    std::unordered_map<uint64_t, uint32_t> root;  // (comm, index) -> root's rank in comm
    count.reserve(d.threads.size() * 2);
    for (const ThreadData& t : d.threads)
        for (const Item& item : t.items) {
            if (item.kind != ItemKind::CollectiveBegin || !keptCollective(d, item.ref)) continue;
            CollectiveData& c = d.collectives[item.ref];
            c.index = count[key(c.comm.value, t.rank)]++;
            if (!c.isRoot) continue;
            const auto& members = d.commMembers[c.comm.value];
            const auto at = std::find(members.begin(), members.end(), RankId(t.rank));
            if (at != members.end())
                root[key(c.comm.value, c.index)] = uint32_t(at - members.begin());
        }
    if (root.empty()) return;
    for (CollectiveData& c : d.collectives) {
        const auto it = root.find(key(c.comm.value, c.index));
        if (it != root.end()) c.root = it->second;
    }
}

/// How many message ends ahead the build asks the cache for a message's row.
constexpr size_t kAhead = 16;

struct Placed
{
    uint32_t place;
    uint32_t end; ///< index into the thread's ends
};

/// Sorts `v` by `less`, keeping the order of equal elements, unless it is sorted already (the
/// common case: the records of a thread come in time order).
template <class T, class Less> void sortStable(std::vector<T>& v, Less less)
{
    if (!std::is_sorted(v.begin(), v.end(), less)) std::stable_sort(v.begin(), v.end(), less);
}

/// What the placement asks of a region's name, decided once per region.
struct RegionKinds
{
    std::vector<uint8_t> nonBlockingSend;    ///< by RegionId
    std::vector<uint8_t> nonBlockingReceive; ///< by RegionId
};

/// A building thread's lists, reused from one trace thread to the next.
struct BuildScratch
{
    Calls calls;
    std::vector<Placed> placed;
};

void buildThread(ImportData& d, ThreadData& t, LocationId loc, const RegionKinds& kinds,
                 std::vector<uint32_t>& recvCall, std::vector<uint8_t>& nonBlocking,
                 BuildScratch& scratch)
{
    TraceBuilder& b = d.builder;
    sortStable(t.items, [](const Item& x, const Item& y) { return x.time < y.time; });
    sortStable(t.ends, [](const End& x, const End& y) { return x.time < y.time; });
    Calls& calls = scratch.calls;
    calls.fill(t.items, d.regionIsMpi);
    std::vector<Placed>& placed = scratch.placed;
    placed.clear();
    placed.reserve(t.ends.size());
    size_t cursor = 0;
    for (uint32_t e = 0; e < t.ends.size(); ++e) {
        if (e + kAhead < t.ends.size()) __builtin_prefetch(&recvCall[t.ends[e + kAhead].message]);
        const End& end = t.ends[e];
        const uint32_t p = place(t.items, calls, end.time, end.kind != EndKind::Receive, cursor);
        placed.push_back({p, e});
        if (end.kind == EndKind::Receive) recvCall[end.message] = calls.call[p];
    }
    // A posting counts only inside a non-blocking receive call other than the completing one.
    for (const Placed& pl : placed) {
        const End& end = t.ends[pl.end];
        if (end.kind != EndKind::Post) continue;
        const uint32_t region = calls.region[pl.place];
        nonBlocking[end.message] = region != kNone && kinds.nonBlockingReceive[region] &&
                                   calls.call[pl.place] != recvCall[end.message];
    }
    sortStable(placed, [](const Placed& x, const Placed& y) { return x.place < y.place; });

    b.reserveEvents(loc, t.items.size() + t.ends.size());
    size_t next = 0;
    for (size_t p = 0; p <= t.items.size(); ++p) {
        for (; next < placed.size() && placed[next].place == p; ++next) {
            // The messages of a thread lie far apart in nonBlocking: fetch ahead.
            if (next + kAhead < placed.size()) {
                const uint32_t ahead = t.ends[placed[next + kAhead].end].message;
                __builtin_prefetch(&nonBlocking[ahead]);
            }
            const End& end = t.ends[placed[next].end];
            const uint64_t request = uint64_t(end.message) + 1;
            if (end.kind == EndKind::Send) {
                const uint32_t region = calls.region[p];
                if (region != kNone && kinds.nonBlockingSend[region])
                    b.isend(loc, end.time, end.partner, d.world, end.tag, end.bytes, request);
                else
                    b.send(loc, end.time, end.partner, d.world, end.tag, end.bytes);
            } else if (end.kind == EndKind::Post) {
                if (nonBlocking[end.message]) b.irecvRequest(loc, end.time, request);
            } else if (nonBlocking[end.message]) {
                b.irecv(loc, end.time, end.partner, d.world, end.tag, end.bytes, request);
            } else {
                b.recv(loc, end.time, end.partner, d.world, end.tag, end.bytes);
            }
        }
        if (p == t.items.size()) break;
        const Item& item = t.items[p];
        switch (item.kind) {
        case ItemKind::Enter:
            b.enter(loc, item.time, RegionId(item.ref));
            break;
        case ItemKind::Leave:
            b.leave(loc, item.time, RegionId(item.ref));
            break;
        case ItemKind::CollectiveBegin:
            if (keptCollective(d, item.ref)) b.collectiveBegin(loc, item.time);
            break;
        case ItemKind::CollectiveEnd: {
            if (!keptCollective(d, item.ref)) break;
            const CollectiveData& c = d.collectives[item.ref];
            b.collectiveEnd(loc, item.time, c.op, c.comm, c.root, c.sent, c.received);
            break;
        }
        case ItemKind::Misc:
            b.misc(loc, item.time, d.misc[item.ref]);
            break;
        }
    }
    std::vector<Item>().swap(t.items);
    std::vector<End>().swap(t.ends);
}

/// The states of thread `t` on their own location.
void buildStates(TraceBuilder& b, ThreadData& t, LocationId loc)
{
    sortStable(t.states, [](const Item& x, const Item& y) { return x.time < y.time; });
    if (!t.states.empty()) b.reserveEvents(loc, t.states.size());
    for (const Item& s : t.states) {
        if (s.kind == ItemKind::Enter)
            b.enter(loc, s.time, RegionId(s.ref));
        else
            b.leave(loc, s.time, RegionId(s.ref));
    }
    std::vector<Item>().swap(t.states);
}

} // namespace

void buildEvents(ImportData& d, unsigned threads)
{
    TraceBuilder& b = d.builder;
    std::vector<LocationId> locs;
    for (size_t i = 0; i < d.threads.size(); ++i) {
        const ThreadData& t = d.threads[i];
        locs.push_back(b.addLocation(RankId(t.rank), b.intern("thread " + std::to_string(t.thread)),
                                     LocationType::CpuThread, i));
    }
    std::vector<LocationId> stateLocs(d.threads.size());
    for (size_t i = 0; i < d.threads.size(); ++i) {
        const ThreadData& t = d.threads[i];
        if (t.states.empty()) continue;
        stateLocs[i] =
            b.addLocation(RankId(t.rank), b.intern("states of thread " + std::to_string(t.thread)),
                          LocationType::Other, d.threads.size() + i);
    }
    decideRoots(d);
    std::vector<uint32_t> recvCall(d.messages, kNone);
    std::vector<uint8_t> nonBlocking(d.messages, 0);
    RegionKinds kinds;
    for (const std::string& name : d.regionNames) {
        kinds.nonBlockingSend.push_back(isNonBlockingSend(name) ? 1 : 0);
        kinds.nonBlockingReceive.push_back(isNonBlockingReceive(name) ? 1 : 0);
    }
    // A send's kind depends on its own thread only, a receive's (recvCall, nonBlocking) on the
    // receiving thread only, and each thread fills its own locations (its events, its states):
    // the threads are built concurrently (bytes of nonBlocking are separate objects, so no two
    // threads share one).
    parallelChunks(
        d.threads.size(), std::max(1u, threads), [&](size_t begin, size_t end, unsigned) {
            BuildScratch scratch;
            for (size_t i = begin; i < end; ++i) {
                buildThread(d, d.threads[i], locs[i], kinds, recvCall, nonBlocking, scratch);
                buildStates(b, d.threads[i], stateLocs[i]);
            }
        });
}

} // namespace rankscope::paraver
