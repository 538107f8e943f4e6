// Builds the trace from what pajeparser.cpp read (docs/design-notes.md, Formats, Paje).
//
// Ranks: the containers named "rank N", "rank-N" or "rank_N" (Rankscope's export and SimGrid's
// SMPI), N their rank; without such names every container holding states or links is a rank
// in the order of creation. A container with states inside a rank container is a further
// location of that rank. Regions: one per distinct state name, SimGrid's names mapped to MPI's
// (modelName); paradigm and role from the value's user fields when Rankscope wrote them, from
// the name otherwise. Messages: a link is a send at its start on the sender's rank and a
// receive at its end on the receiver's. Where the container's events are in time order and a
// link end was read inside an MPI call, that call is its own; otherwise its time decides: at
// equal times a start goes to the latest place inside an MPI call, an end to the earliest (as
// the Paraver import does). A send inside MPI_Isend (Ibsend, Issend, Irsend) is non-blocking; a
// receive with a Post time inside a non-blocking receive call was posted there, and a
// receive that ends in any call but a receive (MPI_Wait...) is a non-blocking one completed
// there. Collectives: Rankscope's Collective events give begin, end and details; without them
// (SimGrid) every MPI collective state is one collective on MPI_COMM_WORLD from its start to
// its end, without root or sizes.

#include "importers/paje/pajeimport_p.h"
#include "importers/paraver/paravermpi.h"
#include "model/support/parallelchunks.h"
#include "model/trace/partialmark.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

namespace rankscope::paje {

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;
/// How many message ends ahead the build asks the cache for a message's places.
constexpr size_t kAhead = 16;

/// N of a container named "rank N", "rank-N" or "rank_N" (any case); -1 otherwise.
int64_t rankNumber(const std::string& name)
{
    if (name.size() < 5) return -1;
    for (size_t i = 0; i < 4; ++i)
        if (std::tolower(static_cast<unsigned char>(name[i])) != "rank"[i]) return -1;
    size_t i = 4;
    if (name[i] == ' ' || name[i] == '-' || name[i] == '_') ++i;
    if (i == name.size() || name.size() - i > 9) return -1;
    int64_t n = 0;
    for (; i < name.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return -1;
        n = n * 10 + (name[i] - '0');
    }
    return n;
}

RegionRole roleOf(const std::string& name)
{
    if (name.rfind("MPI_", 0) != 0) return RegionRole::Function;
    const CollectiveOp op = paraver::collectiveOpOf(name);
    if (op == CollectiveOp::Barrier) return RegionRole::Barrier;
    if (op != CollectiveOp::Other) return RegionRole::MpiCollective;
    std::string n = name.substr(4);
    for (char& c : n)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    static const char* const kPointToPoint[] = {
        "send",   "recv",   "isend",  "irecv", "bsend",  "ssend",    "rsend",
        "ibsend", "issend", "irsend", "mrecv", "imrecv", "sendrecv", "sendrecv_replace"};
    for (const char* p : kPointToPoint)
        if (n == p) return RegionRole::MpiPointToPoint;
    return RegionRole::MpiOther;
}

bool isReceiveCall(const std::string& name)
{
    return roleOf(name) == RegionRole::MpiPointToPoint && name.find("ecv") != std::string::npos &&
           !paraver::isNonBlockingReceive(name);
}

/// What the build asks of a region's name, decided once per region instead of once per event.
struct RegionFlags
{
    bool nonBlockingSend = false;
    bool nonBlockingReceive = false;
    bool receiveCall = false; ///< isReceiveCall
    bool collective = false;  ///< an MPI collective or barrier
    CollectiveOp op = CollectiveOp::Other;
};

enum class EndKind : uint8_t
{
    Send,
    Post,
    Receive
};

/// A link end with what its container's build needs of the message, copied from the message
/// table in one pass over it (the build then reads each container's ends in order instead of
/// the table at random, which cost a cache miss per end).
struct End
{
    int64_t time = 0;
    uint64_t bytes = 0;
    uint32_t message = 0;
    uint32_t read = 0;    ///< where it was read among its container's items (sendPlace/recvPlace)
    uint32_t partner = 0; ///< the other end's container (receiver of a send, sender of a receive)
    int32_t tag = 0;
    int32_t comm = -1;
    EndKind kind = EndKind::Send;
    bool here = false; ///< read on this container itself (not on another location of its rank)
};

class Builder
{
public:
    explicit Builder(ImportData& d) : d_(d) {}

    Trace build(unsigned threads)
    {
        findRanks();
        defineRegions();
        defineCommunicators();
        collectEnds(std::max(1u, threads));
        postPlace_.assign(d_.messages.size(), kNone);
        recvPlace_.assign(d_.messages.size(), kNone);
        std::vector<MessageData>().swap(d_.messages); // the ends hold what is left to use
        // Each container fills its own location, and the places of a message's posting and
        // receive are written and read by the receiver's container only: containers are built
        // concurrently (TraceBuilder takes each location from one thread).
        const unsigned workers = chunkCount(d_.containers.size(), std::max(1u, threads));
        std::vector<EmitState> states(workers);
        parallelChunks(d_.containers.size(), workers, [&](size_t begin, size_t end, unsigned k) {
            for (size_t c = begin; c < end; ++c)
                if (location_[c].valid()) emit(c, states[k]);
        });
        for (const EmitState& st : states)
            outsideCalls_ += st.outsideCalls;
        warn();
        Provenance provenance;
        provenance.source = d_.path;
        b_.setProvenance(provenance);
        return b_.finish(std::max(1u, threads));
    }

private:
    void findRanks()
    {
        const size_t n = d_.containers.size();
        std::vector<std::pair<int64_t, uint32_t>> ranks; // (number, container)
        for (size_t c = 0; c < n; ++c)
            if (const int64_t r = rankNumber(d_.containers[c].name); r >= 0)
                ranks.emplace_back(r, uint32_t(c));
        if (ranks.empty())
            for (size_t c = 0; c < n; ++c)
                if (!d_.containers[c].items.empty() || d_.containers[c].holdsEnds)
                    ranks.emplace_back(int64_t(ranks.size()), uint32_t(c));
        if (ranks.empty())
            throw TraceError(d_.path + ": no container holds states or links: nothing to import");
        std::stable_sort(ranks.begin(), ranks.end());
        for (size_t i = 0; i < ranks.size(); ++i)
            if (ranks[i].first != int64_t(i)) {
                b_.addWarning(d_.path + ": the rank containers are not numbered 0 to " +
                              std::to_string(ranks.size() - 1) + "; ranks follow their order");
                break;
            }
        rankOf_.assign(n, kNone);
        location_.assign(n, LocationId());
        for (size_t i = 0; i < ranks.size(); ++i) {
            const uint32_t c = ranks[i].second;
            rankOf_[c] = uint32_t(i);
            const RankId rank = b_.addRank(b_.intern(d_.containers[c].name));
            location_[c] =
                b_.addLocation(rank, b_.intern(d_.containers[c].name), LocationType::CpuThread, c);
        }
        rankCount_ = uint32_t(ranks.size());
        // Further locations: containers with states inside a rank container.
        uint64_t outside = 0;
        for (size_t c = 0; c < n; ++c) {
            if (location_[c].valid() || d_.containers[c].items.empty()) continue;
            int32_t p = d_.containers[c].parent;
            while (p >= 0 && rankOf_[size_t(p)] == kNone)
                p = d_.containers[size_t(p)].parent;
            if (p < 0) {
                ++outside;
                continue;
            }
            rankOf_[c] = rankOf_[size_t(p)];
            location_[c] = b_.addLocation(RankId(rankOf_[c]), b_.intern(d_.containers[c].name),
                                          LocationType::CpuThread, c);
        }
        if (outside > 0)
            b_.addWarning(d_.path + ": " + std::to_string(outside) +
                          " container(s) with states belong to no rank; skipped");
    }

    void defineRegions()
    {
        std::map<std::string, RegionId> byName;
        region_.assign(d_.values.size(), RegionId());
        for (const Container& c : d_.containers)
            for (const Item& item : c.items) {
                if (item.kind != ItemKind::Enter || region_[item.ref].valid()) continue;
                const Value& v = d_.values[item.ref];
                const bool ours = v.paradigm >= 0 && v.role >= 0 &&
                                  v.paradigm <= int(Paradigm::Other) &&
                                  v.role <= int(RegionRole::Other);
                const std::string name = ours ? v.name : modelName(v.name);
                auto it = byName.find(name);
                if (it == byName.end()) {
                    Region r;
                    r.name = b_.intern(name);
                    r.role = ours ? RegionRole(v.role) : roleOf(name);
                    r.paradigm = ours                         ? Paradigm(v.paradigm)
                                 : name.rfind("MPI_", 0) == 0 ? Paradigm::Mpi
                                                              : Paradigm::User;
                    it = byName.emplace(name, b_.addRegion(r)).first;
                    isMpi_.push_back(r.paradigm == Paradigm::Mpi);
                    names_.push_back(name);
                    RegionFlags f;
                    f.nonBlockingSend = paraver::isNonBlockingSend(name);
                    f.nonBlockingReceive = paraver::isNonBlockingReceive(name);
                    f.receiveCall = isReceiveCall(name);
                    f.collective =
                        r.role == RegionRole::MpiCollective || r.role == RegionRole::Barrier;
                    f.op = paraver::collectiveOpOf(name);
                    flags_.push_back(f);
                }
                region_[item.ref] = it->second;
            }
    }

    void defineCommunicators()
    {
        for (const CommData& c : d_.comms) {
            std::vector<RankId> members;
            for (const uint32_t r : c.members) {
                if (r >= rankCount_)
                    throw TraceError(d_.path + ": communicator \"" + c.name + "\" names rank " +
                                     std::to_string(r) + " of " + std::to_string(rankCount_));
                members.emplace_back(r);
            }
            const auto parent = comm_.find(c.parent);
            const CommId id = b_.addCommunicator(b_.intern(c.name), members,
                                                 parent == comm_.end() ? CommId() : parent->second);
            comm_[c.id] = id;
            std::vector<uint32_t>& position = position_[id.value];
            for (uint32_t k = 0; k < c.members.size(); ++k) {
                if (c.members[k] >= position.size()) position.resize(c.members[k] + 1, kNone);
                if (position[c.members[k]] == kNone) position[c.members[k]] = k;
            }
            bool all = members.size() == rankCount_;
            for (size_t i = 0; all && i < members.size(); ++i)
                all = members[i].value == i;
            if (all && !world_.valid()) world_ = id;
        }
        if (!world_.valid()) {
            std::vector<RankId> all;
            for (uint32_t r = 0; r < rankCount_; ++r)
                all.emplace_back(r);
            world_ = b_.addCommunicator(b_.intern("MPI_COMM_WORLD"), all);
        }
        b_.setWorldCommunicator(world_);
    }

    /// Each main container's link ends, with what its build needs of the message. Containers
    /// are split among the threads; each thread counts its containers' ends in one pass over the
    /// messages, sizes their lists and fills them in a second (growing them by doubling copied
    /// every end about twice).
    void collectEnds(unsigned threads)
    {
        const size_t n = d_.containers.size();
        ends_.assign(n, {});
        if (n > 0) mainContainer(0); // fills mainOf_ before the threads read it
        const unsigned workers = chunkCount(n, threads);
        std::vector<uint64_t> outside(workers, 0);
        parallelChunks(n, workers, [&](size_t begin, size_t end, unsigned k) {
            const auto mine = [&](uint32_t c) { return c != kNone && c >= begin && c < end; };
            std::vector<size_t> count(end - begin, 0);
            for (const MessageData& msg : d_.messages) {
                const uint32_t s = mainContainer(msg.sender), r = mainContainer(msg.receiver);
                if (s == kNone || r == kNone) continue;
                if (mine(s)) ++count[s - begin];
                if (mine(r)) count[r - begin] += msg.posted ? 2 : 1;
            }
            for (size_t c = begin; c < end; ++c)
                ends_[c].reserve(count[c - begin]);
            for (uint32_t m = 0; m < d_.messages.size(); ++m) {
                const MessageData& msg = d_.messages[m];
                const uint32_t s = mainContainer(msg.sender), r = mainContainer(msg.receiver);
                if (s == kNone || r == kNone) {
                    ++outside[k];
                    continue;
                }
                if (!mine(s) && !mine(r)) continue;
                End e;
                e.bytes = msg.bytes;
                e.message = m;
                e.tag = msg.tag;
                e.comm = msg.comm;
                if (mine(s)) {
                    e.time = msg.sendTime;
                    e.read = msg.sendPlace;
                    e.partner = msg.receiver;
                    e.kind = EndKind::Send;
                    e.here = msg.sender == s;
                    ends_[s].push_back(e);
                }
                if (!mine(r)) continue;
                e.partner = msg.sender;
                e.read = msg.recvPlace;
                e.here = msg.receiver == r;
                if (msg.posted) {
                    e.time = msg.postTime;
                    e.kind = EndKind::Post;
                    ends_[r].push_back(e);
                }
                e.time = msg.recvTime;
                e.kind = EndKind::Receive;
                ends_[r].push_back(e);
            }
        });
        outsideRanks_ += outside[0]; // every thread saw every message: count one thread's
    }

    /// The container of the main location of the rank `c` belongs to, or kNone.
    uint32_t mainContainer(uint32_t c)
    {
        if (mainOf_.empty()) {
            mainOf_.assign(rankCount_, kNone);
            for (size_t k = 0; k < d_.containers.size(); ++k)
                if (rankOf_[k] != kNone && mainOf_[rankOf_[k]] == kNone) mainOf_[rankOf_[k]] = k;
        }
        return rankOf_[c] == kNone ? kNone : mainOf_[rankOf_[c]];
    }

    /// What one thread building containers keeps for itself.
    struct EmitState
    {
        int64_t lastComm = INT64_MIN; ///< the file's communicator partner() looked up last
        CommId lastCommId;
        const std::vector<uint32_t>* lastPosition = nullptr;
        uint64_t outsideCalls = 0;              ///< link ends in no MPI state
        std::vector<uint32_t> call, callRegion; ///< emit's scratch lists
        std::vector<std::pair<uint32_t, uint32_t>> open, placed;
    };

    /// The communicator of end `e` and its partner's rank in it.
    std::pair<CommId, uint32_t> partner(const End& e, EmitState& st) const
    {
        const uint32_t world = rankOf_[e.partner];
        if (e.comm != st.lastComm) {
            const auto c = comm_.find(e.comm);
            st.lastComm = e.comm;
            st.lastCommId = c == comm_.end() ? CommId() : c->second;
            st.lastPosition = c == comm_.end() ? nullptr : &position_.at(c->second.value);
        }
        if (st.lastPosition && world < st.lastPosition->size() &&
            (*st.lastPosition)[world] != kNone)
            return {st.lastCommId, (*st.lastPosition)[world]};
        return {world_, world};
    }

    void emit(size_t ci, EmitState& st);
    void warn();

    ImportData& d_;
    TraceBuilder b_;
    uint32_t rankCount_ = 0;
    std::vector<uint32_t> rankOf_;     ///< by container
    std::vector<LocationId> location_; ///< by container
    std::vector<uint32_t> mainOf_;     ///< by rank: its container
    std::vector<RegionId> region_;     ///< by value
    std::vector<bool> isMpi_;          ///< by RegionId
    std::vector<std::string> names_;   ///< by RegionId
    std::map<int64_t, CommId> comm_;   ///< by the file's communicator id
    /// By CommId: each world rank's position among the communicator's members (kNone: none).
    std::map<uint32_t, std::vector<uint32_t>> position_;
    std::vector<RegionFlags> flags_;              ///< by RegionId
    std::vector<uint32_t> postPlace_, recvPlace_; ///< by message: the place of its posting, receive
    CommId world_;
    std::vector<std::vector<End>> ends_; ///< by container
    uint64_t outsideRanks_ = 0;          ///< links with an end on no rank
    uint64_t outsideCalls_ = 0;          ///< link ends in no MPI state (every thread's)
};

void Builder::emit(size_t ci, EmitState& st)
{
    Container& c = d_.containers[ci];
    const LocationId loc = location_[ci];
    std::vector<Item>& items = c.items;
    if (c.unordered)
        std::stable_sort(items.begin(), items.end(),
                         [](const Item& x, const Item& y) { return x.time < y.time; });
    std::vector<End>& ends = ends_[ci];
    const auto byTime = [](const End& x, const End& y) { return x.time < y.time; };
    if (!std::is_sorted(ends.begin(), ends.end(), byTime))
        std::stable_sort(ends.begin(), ends.end(), byTime);
    // The MPI call open before each item (and after the last): a number per call and its region.
    // (The thread's scratch lists, reused from container to container: fresh ones cost a page
    // fault per 4 KiB touched.)
    std::vector<uint32_t>& call = st.call;
    std::vector<uint32_t>& callRegion = st.callRegion;
    call.assign(items.size() + 1, kNone);
    callRegion.assign(items.size() + 1, kNone);
    std::vector<std::pair<uint32_t, uint32_t>>& open = st.open; // (region, call)
    open.clear();
    uint32_t calls = 0;
    for (size_t p = 0; p <= items.size(); ++p) {
        if (!open.empty()) std::tie(callRegion[p], call[p]) = open.back();
        if (p == items.size()) break;
        const Item& item = items[p];
        if (item.kind != ItemKind::Enter && item.kind != ItemKind::Leave) continue;
        const uint32_t r = region_[item.ref].value;
        if (!region_[item.ref].valid() || !isMpi_[r]) continue;
        if (item.kind == ItemKind::Enter) {
            open.emplace_back(r, calls++);
        } else {
            for (size_t k = open.size(); k-- > 0;)
                if (open[k].first == r) {
                    open.resize(k);
                    break;
                }
        }
    }
    // Where each end goes (see the file comment).
    std::vector<std::pair<uint32_t, uint32_t>>& placed = st.placed; // (place, end)
    placed.clear();
    // The ends come in time order: the first item not earlier than an end is found by walking
    // forward from the previous one's (bisecting the whole container missed the cache).
    size_t lo = 0;
    for (uint32_t e = 0; e < ends.size(); ++e) {
        const int64_t t = ends[e].time;
        while (lo < items.size() && items[lo].time < t)
            ++lo;
        size_t hi = lo;
        while (hi < items.size() && items[hi].time == t)
            ++hi;
        size_t p = ends[e].kind == EndKind::Receive ? lo : hi;
        const uint32_t read = ends[e].read;
        if (!c.unordered && ends[e].kind != EndKind::Post && ends[e].here && read < call.size() &&
            call[read] != kNone) {
            // Read inside an MPI call: the file's order says which (SimGrid ends a link just
            // after the pop of a completing MPI_Wait, though: then the time decides).
            p = read;
        } else if (ends[e].kind == EndKind::Receive) {
            for (size_t q = lo; q <= hi; ++q)
                if (call[q] != kNone) {
                    p = q;
                    break;
                }
        } else {
            for (size_t q = hi + 1; q-- > lo;)
                if (call[q] != kNone) {
                    p = q;
                    break;
                }
        }
        if (call[p] == kNone) ++st.outsideCalls;
        if (ends[e].kind == EndKind::Post) postPlace_[ends[e].message] = uint32_t(p);
        if (ends[e].kind == EndKind::Receive) recvPlace_[ends[e].message] = uint32_t(p);
        placed.emplace_back(uint32_t(p), e);
    }
    const auto byPlace = [](const auto& x, const auto& y) { return x.first < y.first; };
    if (!std::is_sorted(placed.begin(), placed.end(), byPlace))
        std::stable_sort(placed.begin(), placed.end(), byPlace);
    const bool inferCollectives = d_.collectives.empty();
    b_.reserveEvents(loc, items.size() + ends.size());
    size_t next = 0;
    for (size_t p = 0; p <= items.size(); ++p) {
        for (; next < placed.size() && placed[next].first == p; ++next) {
            if (next + kAhead < placed.size()) {
                const uint32_t ahead = ends[placed[next + kAhead].second].message;
                __builtin_prefetch(&postPlace_[ahead]);
                __builtin_prefetch(&recvPlace_[ahead]);
            }
            const End& end = ends[placed[next].second];
            const uint64_t request = uint64_t(end.message) + 1;
            const uint32_t region = callRegion[p];
            static const RegionFlags kOutside;
            const RegionFlags& in = region == kNone ? kOutside : flags_[region];
            if (end.kind == EndKind::Send) {
                const auto [comm, to] = partner(end, st);
                if (in.nonBlockingSend)
                    b_.isend(loc, end.time, to, comm, end.tag, end.bytes, request);
                else
                    b_.send(loc, end.time, to, comm, end.tag, end.bytes);
                continue;
            }
            // A posting counts inside a non-blocking receive call other than the completing one.
            const uint32_t post = postPlace_[end.message], recv = recvPlace_[end.message];
            const bool postedApart = post != kNone && recv != kNone && callRegion[post] != kNone &&
                                     flags_[callRegion[post]].nonBlockingReceive &&
                                     call[post] != call[recv];
            if (end.kind == EndKind::Post) {
                if (postedApart) b_.irecvRequest(loc, end.time, request);
                continue;
            }
            const auto [comm, from] = partner(end, st);
            if (postedApart || (region != kNone && !in.receiveCall))
                b_.irecv(loc, end.time, from, comm, end.tag, end.bytes, request);
            else
                b_.recv(loc, end.time, from, comm, end.tag, end.bytes);
        }
        if (p == items.size()) break;
        const Item& item = items[p];
        switch (item.kind) {
        case ItemKind::Enter: {
            const RegionId r = region_[item.ref];
            b_.enter(loc, item.time, r);
            if (inferCollectives && flags_[r.value].collective) b_.collectiveBegin(loc, item.time);
            break;
        }
        case ItemKind::Leave: {
            const RegionId r = region_[item.ref];
            if (inferCollectives && flags_[r.value].collective)
                b_.collectiveEnd(loc, item.time, flags_[r.value].op, world_, kNoRoot, 0, 0);
            b_.leave(loc, item.time, r);
            break;
        }
        case ItemKind::CollectiveBegin:
            b_.collectiveBegin(loc, item.time);
            break;
        case ItemKind::CollectiveEnd: {
            const CollectiveData& cd = d_.collectives[item.ref];
            const auto comm = comm_.find(cd.comm);
            const bool known = cd.op >= 0 && cd.op <= int(CollectiveOp::Other);
            b_.collectiveEnd(loc, item.time, known ? CollectiveOp(cd.op) : CollectiveOp::Other,
                             comm == comm_.end() ? world_ : comm->second,
                             cd.root < 0 ? kNoRoot : uint32_t(cd.root), cd.sent, cd.received);
            break;
        }
        }
    }
    std::vector<Item>().swap(items);
    std::vector<End>().swap(ends);
}

void Builder::warn()
{
    const auto note = [this](uint64_t n, const std::string& what) {
        if (n > 0) b_.addWarning(d_.path + ": " + std::to_string(n) + " " + what);
    };
    note(d_.unknownEvents, "line(s) with an event number no %EventDef defines; skipped");
    note(d_.ignoredEvents, "variable or other event(s) with no counterpart in a trace; skipped");
    note(d_.unknownContainers, "event(s) on a container never created; skipped");
    note(d_.strayPops, "PajePopState(s) with no state pushed; skipped");
    note(d_.duplicateLinkKeys, "link end(s) reusing the key of a link still open; the older end "
                               "is left unmatched");
    note(d_.pendingLinks.size(), "link end(s) without their other end; skipped");
    note(outsideRanks_, "link(s) with an end on a container of no rank; skipped");
    note(outsideCalls_, "link end(s) outside any MPI state; kept as messages outside MPI calls");
    note(d_.replacedBytes, "byte(s) of names that are not UTF-8; replaced by '?'");
    if (d_.negativeTimes > 0) {
        char earliest[64];
        std::snprintf(earliest, sizeof earliest, "%.9f", double(d_.earliestNegative) * 1e-9);
        b_.addWarning(d_.path + ":" + std::to_string(d_.earliestNegativeLine) + ": " +
                      std::to_string(d_.negativeTimes) +
                      " event(s) before time 0 (the earliest at " + earliest +
                      " s); Paje times count from the run's start, so the run's span reaches "
                      "back to them");
    }
    if (!d_.partialMark.empty()) {
        b_.setPartial(true);
        b_.addWarning(
            partialMarkWarning(d_.path + ":" + std::to_string(d_.partialMarkLine), d_.partialMark));
    }
    if (d_.truncated)
        b_.addWarning(d_.path + ":" + std::to_string(d_.lines) +
                      ": the last line has no newline: the file may be truncated");
    uint64_t unordered = 0;
    for (const Container& c : d_.containers)
        unordered += c.unordered ? 1 : 0;
    note(unordered, "container(s) with events out of time order; sorted by time");
}

} // namespace

std::string modelName(std::string_view n)
{
    if (n.rfind("PMPI_", 0) == 0) return std::string(n.substr(1));
    if (n == "smpi_replay_run_init") return "MPI_Init";
    if (n == "smpi_replay_run_finalize") return "MPI_Finalize";
    if (n.rfind("action_", 0) == 0 && n.size() > 7) {
        std::string out = "MPI_" + std::string(n.substr(7));
        out[4] = char(std::toupper(static_cast<unsigned char>(out[4])));
        return out;
    }
    return std::string(n);
}

Trace buildPajeTrace(ImportData& data, unsigned threads)
{
    return Builder(data).build(threads);
}

} // namespace rankscope::paje
