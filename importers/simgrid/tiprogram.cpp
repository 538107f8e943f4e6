// A TI trace's actions as Rankscope's action program (tiimport.h): messages paired over all
// ranks, requests resolved per rank, collectives numbered per rank.

#include "importers/simgrid/tiimport_p.h"
#include "model/trace/traceerror.h"

#include <algorithm>
#include <tuple>

namespace rankscope {

using namespace netsim;

namespace {

using ti::kNone;
using ti::RankActions;
using ti::RawAction;

struct Key
{
    uint32_t src, dst;
    int32_t tag;
    bool operator==(const Key&) const = default;
};

CollKind collectiveKind(TiCall c)
{
    switch (c) {
    case TiCall::Barrier:
        return CollKind::Barrier;
    case TiCall::Bcast:
        return CollKind::Bcast;
    case TiCall::Reduce:
        return CollKind::Reduce;
    case TiCall::Allreduce:
        return CollKind::Allreduce;
    case TiCall::Allgather:
    case TiCall::Allgatherv:
        return CollKind::Allgather;
    case TiCall::Gather:
    case TiCall::Gatherv:
        return CollKind::Gather;
    case TiCall::Scatter:
    case TiCall::Scatterv:
        return CollKind::Scatter;
    case TiCall::Alltoall:
    case TiCall::Alltoallv:
        return CollKind::Alltoall;
    case TiCall::ReduceScatter:
        return CollKind::ReduceScatter;
    default:
        return CollKind::None;
    }
}

bool isSend(TiCall c)
{
    return c == TiCall::Send || c == TiCall::Isend;
}
bool isRecv(TiCall c)
{
    return c == TiCall::Recv || c == TiCall::Irecv;
}

/// One send or receive, ordered by its key (sender, receiver, tag) and then by its place in
/// its rank's actions (the rank is the sender for every send of a key, the receiver for every
/// receive).
struct Side
{
    uint64_t ends; ///< sender << 32 | receiver
    int32_t tag;
    uint32_t rank;
    size_t action;
    bool operator<(const Side& o) const
    {
        return std::tie(ends, tag, action) < std::tie(o.ends, o.tag, o.action);
    }
    bool sameKey(const Side& o) const { return ends == o.ends && tag == o.tag; }
};

/// Pairs the k-th send s -> d with tag t with the k-th receive on d from s with tag t: both
/// sides sorted by key and order, then merged (a sort rather than a queue per key: an export
/// gives every message a tag of its own, and a hash table of a million queues was most of the
/// import's time).
void pairMessages(std::vector<RankActions>& ranks, TiImport& out)
{
    ActionProgram& p = out.program;
    std::vector<Side> sends, recvs;
    for (uint32_t r = 0; r < ranks.size(); ++r)
        for (size_t i = 0; i < ranks[r].actions.size(); ++i) {
            const RawAction& a = ranks[r].actions[i];
            if (a.compute) continue;
            if (isSend(a.call)) sends.push_back({uint64_t(r) << 32 | a.a, a.tag, r, i});
            if (isRecv(a.call)) recvs.push_back({uint64_t(a.a) << 32 | r, a.tag, r, i});
        }
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    p.messages.reserve(sends.size());
    auto add = [&](uint32_t src, uint32_t dst, uint64_t bytes, int32_t tag, uint8_t blocking) {
        p.messages.push_back(ProgramMessage{src, dst, bytes});
        out.tags.push_back(tag);
        out.ends.emplace_back(src, dst);
        out.blocking.push_back(blocking);
        return uint32_t(p.messages.size() - 1);
    };
    size_t j = 0;
    for (size_t i = 0; i < sends.size(); ++i) {
        RawAction& s = ranks[sends[i].rank].actions[sends[i].action];
        s.msg = add(sends[i].rank, s.a, s.bytes, s.tag, s.call == TiCall::Send ? 1 : 0);
        // Receives of smaller keys have no send.
        while (j < recvs.size() && recvs[j] < sends[i] && !recvs[j].sameKey(sends[i])) {
            RawAction& r = ranks[recvs[j].rank].actions[recvs[j].action];
            r.msg = add(kNoRank, recvs[j].rank, r.bytes, r.tag, r.call == TiCall::Recv ? 2 : 0);
            out.ends.back().first = r.a;
            ++out.unmatchedRecvs;
            ++j;
        }
        if (j < recvs.size() && recvs[j].sameKey(sends[i])) {
            RawAction& r = ranks[recvs[j].rank].actions[recvs[j].action];
            r.msg = s.msg;
            out.blocking[s.msg] |= r.call == TiCall::Recv ? 2 : 0;
            ++j;
        } else {
            p.messages[s.msg].dst = kNoRank;
            ++out.unmatchedSends;
        }
    }
    for (; j < recvs.size(); ++j) {
        RawAction& r = ranks[recvs[j].rank].actions[recvs[j].action];
        r.msg = add(kNoRank, recvs[j].rank, r.bytes, r.tag, r.call == TiCall::Recv ? 2 : 0);
        out.ends.back().first = r.a;
        ++out.unmatchedRecvs;
    }
    if (out.unmatchedSends)
        out.warnings.push_back(out.listPath + ": " + std::to_string(out.unmatchedSends) +
                               " send(s) without a matching receive");
    if (out.unmatchedRecvs)
        out.warnings.push_back(out.listPath + ": " + std::to_string(out.unmatchedRecvs) +
                               " receive(s) without a matching send");
}

struct Pending
{
    Key key;
    uint32_t msg;
    bool send;
};

/// Appends rank r's actions; collectives are numbered in the order the rank calls them.
void writeRank(uint32_t r, const RankActions& rank, TiImport& out,
               std::vector<uint32_t>& collectiveLine)
{
    ActionProgram& p = out.program;
    std::vector<Pending> pending;
    uint32_t collectives = 0;
    auto call = [&](TiCall c) { p.actions.push_back({ActionKind::Enter, uint32_t(c), 0}); };
    auto leave = [&] { p.actions.push_back({ActionKind::Leave, 0, 0}); };
    auto wait = [&](const Pending& q) {
        p.actions.push_back({q.send ? ActionKind::WaitSend : ActionKind::WaitRecv, q.msg, 0});
    };
    for (const RawAction& a : rank.actions) {
        if (a.compute) {
            if (a.ns > 0) p.actions.push_back({ActionKind::Compute, 0, a.ns});
            continue;
        }
        call(a.call);
        switch (a.call) {
        case TiCall::Send:
        case TiCall::Isend:
            p.actions.push_back({ActionKind::PostSend, a.msg, 0});
            if (a.call == TiCall::Send)
                p.actions.push_back({ActionKind::WaitSend, a.msg, 0});
            else
                pending.push_back({Key{r, a.a, a.tag}, a.msg, true});
            break;
        case TiCall::Recv:
        case TiCall::Irecv:
            p.actions.push_back({ActionKind::PostRecv, a.msg, 0});
            if (a.call == TiCall::Recv)
                p.actions.push_back({ActionKind::WaitRecv, a.msg, 0});
            else
                pending.push_back({Key{a.a, r, a.tag}, a.msg, false});
            break;
        case TiCall::Wait: {
            const Key key{a.a, a.b, a.tag};
            auto it = std::find_if(pending.begin(), pending.end(),
                                   [&](const Pending& q) { return q.key == key; });
            if (it == pending.end()) {
                // SimGrid takes such a wait for one whose request a test completed.
                if (out.strayWaits++ == 0)
                    out.warnings.push_back(rank.file + ":" + std::to_string(a.line) +
                                           ": wait without a pending request (" +
                                           "the first of those)");
                break;
            }
            wait(*it);
            pending.erase(it);
            break;
        }
        case TiCall::Waitall:
            for (const Pending& q : pending)
                wait(q);
            pending.clear();
            break;
        case TiCall::Init:
        case TiCall::Finalize:
        case TiCall::Test:
        case TiCall::Count:
            break;
        default: { // a collective: the rank's k-th is operation k
            const uint32_t k = collectives++;
            if (k == p.collectives.size()) {
                p.collectives.push_back(ProgramCollective{});
                collectiveLine.push_back(0);
            }
            ProgramCollective& c = p.collectives[k];
            const CollKind kind = collectiveKind(a.call);
            if (c.kind == CollKind::None) {
                c = ProgramCollective{kind, 0, a.a, a.bytes};
                collectiveLine[k] = r;
            } else if (c.kind != kind || c.root != a.a) {
                throw TraceError(rank.file + ":" + std::to_string(a.line) + ": collective " +
                                 std::to_string(k + 1) + " of rank " + std::to_string(r) + " is " +
                                 tiCallName(a.call) + " root " + std::to_string(a.a) + ", rank " +
                                 std::to_string(collectiveLine[k]) + "'s is " +
                                 std::string(collKindName(c.kind)) + " root " +
                                 std::to_string(c.root));
            }
            c.bytes = std::max(c.bytes, a.bytes);
            p.actions.push_back({ActionKind::Collective, k, double(r)});
            break;
        }
        }
        leave();
    }
    // A rank ends with its requests done (SimGrid's replay waits for them at the end).
    for (const Pending& q : pending)
        wait(q);
}

} // namespace

TiImport readTiProgram(const std::string& path, const TiReadOptions& options)
{
    TiImport out;
    std::vector<RankActions> ranks = ti::parseTiFiles(path, options, out);
    pairMessages(ranks, out);
    ActionProgram& p = out.program;
    const uint32_t n = uint32_t(ranks.size());
    p.comms.emplace_back(); // the world
    p.startNs.assign(n, 0.0);
    p.rankBegin.resize(size_t(n) + 1);
    size_t total = 0;
    for (const RankActions& r : ranks)
        total += r.actions.size() * 3;
    p.actions.reserve(total);
    std::vector<uint32_t> firstRank;
    std::vector<uint32_t> collectivesOf(n);
    for (uint32_t r = 0; r < n; ++r) {
        p.rankBegin[r] = p.actions.size();
        writeRank(r, ranks[r], out, firstRank);
        uint32_t k = 0;
        for (size_t i = p.rankBegin[r]; i < p.actions.size(); ++i)
            k += p.actions[i].kind == ActionKind::Collective ? 1 : 0;
        collectivesOf[r] = k;
        std::vector<RawAction>().swap(ranks[r].actions);
    }
    p.rankBegin[n] = p.actions.size();
    // Every rank must join every collective, or the replay would wait forever.
    for (uint32_t r = 0; r < n; ++r)
        if (collectivesOf[r] != p.collectives.size())
            throw TraceError(out.rankFiles[out.rankFiles.size() == 1 ? 0 : r] + ": rank " +
                             std::to_string(r) + " calls " + std::to_string(collectivesOf[r]) +
                             " collective(s), rank " +
                             std::to_string(firstRank.empty() ? 0 : firstRank.back()) + " calls " +
                             std::to_string(p.collectives.size()) +
                             " (each is on MPI_COMM_WORLD: every rank calls every one)");
    return out;
}

} // namespace rankscope
