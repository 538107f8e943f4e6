#include "model/analysis/commmatrix.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <span>
#include <unordered_map>
#include <vector>

namespace rankscope {

double CommMatrixCell::value(CommMatrixMetric metric) const
{
    switch (metric) {
    case CommMatrixMetric::Count:
        return double(count);
    case CommMatrixMetric::Bytes:
        return double(bytes);
    case CommMatrixMetric::MeanTime:
        return meanNs();
    case CommMatrixMetric::MaxTime:
        return double(maxNs);
    }
    return 0;
}

const CommMatrixCell* CommMatrix::find(uint32_t sender, uint32_t receiver) const
{
    const auto it = std::lower_bound(cells.begin(), cells.end(), std::pair(sender, receiver),
                                     [](const CommMatrixCell& c, std::pair<uint32_t, uint32_t> k) {
                                         return std::pair(c.sender, c.receiver) < k;
                                     });
    return it != cells.end() && it->sender == sender && it->receiver == receiver ? &*it : nullptr;
}

namespace {

enum class Shape
{
    None,
    OneToAll,
    AllToOne,
    AllToAll
};

Shape shapeOf(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        return Shape::OneToAll;
    case CollectiveOp::Reduce:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
        return Shape::AllToOne;
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
        return Shape::AllToAll;
    default:
        return Shape::None;
    }
}

/// Accumulates cells densely (few ranks) or in a hash map (many).
class CellAccumulator
{
public:
    explicit CellAccumulator(uint32_t ranks) : ranks_(ranks)
    {
        if (ranks <= kDenseRankLimit) dense_.resize(size_t(ranks) * ranks);
    }

    CommMatrixCell& at(uint32_t sender, uint32_t receiver)
    {
        if (!dense_.empty()) return dense_[size_t(sender) * ranks_ + receiver];
        return sparse_[uint64_t(sender) << 32 | receiver];
    }

    std::vector<CommMatrixCell> cells()
    {
        std::vector<CommMatrixCell> out;
        if (!dense_.empty()) {
            for (size_t i = 0; i < dense_.size(); ++i) {
                if (dense_[i].count == 0) continue;
                CommMatrixCell c = dense_[i];
                c.sender = uint32_t(i / ranks_);
                c.receiver = uint32_t(i % ranks_);
                out.push_back(c);
            }
            return out;
        }
        out.reserve(sparse_.size());
        for (const auto& [key, cell] : sparse_) {
            CommMatrixCell c = cell;
            c.sender = uint32_t(key >> 32);
            c.receiver = uint32_t(key);
            out.push_back(c);
        }
        std::sort(out.begin(), out.end(), [](const CommMatrixCell& a, const CommMatrixCell& b) {
            return std::pair(a.sender, a.receiver) < std::pair(b.sender, b.receiver);
        });
        return out;
    }

private:
    uint32_t ranks_;
    std::vector<CommMatrixCell> dense_;
    std::unordered_map<uint64_t, CommMatrixCell> sparse_;
};

} // namespace

namespace {

/// Calls visit(sender member index, receiver world rank, bytes) for each transfer `c` implies
/// (the rules of collectiveTraffic); `ranks[i]` is the world rank of member i.
template <class Visit>
void forEachImpliedTransfer(const CollectiveInstance& c, std::span<const CollectiveMember> members,
                            std::span<const uint32_t> ranks, Visit&& visit)
{
    const Shape shape = shapeOf(c.op);
    if (shape == Shape::None || members.size() < 2) return;
    if (shape == Shape::AllToAll) {
        const uint64_t others = members.size() - 1;
        for (size_t s = 0; s < members.size(); ++s) {
            const uint64_t share = members[s].bytesSent / others;
            const uint64_t remainder = members[s].bytesSent % others;
            uint64_t k = 0;
            for (size_t r = 0; r < members.size(); ++r) {
                if (ranks[r] == ranks[s]) continue;
                const uint64_t bytes = share + (k++ < remainder ? 1 : 0);
                if (bytes > 0) visit(s, ranks[r], bytes);
            }
        }
        return;
    }
    if (!c.root.valid()) return;
    size_t root = members.size();
    for (size_t i = 0; i < members.size(); ++i)
        if (ranks[i] == c.root.value) root = i;
    for (size_t i = 0; i < members.size(); ++i) {
        if (ranks[i] == c.root.value) continue;
        if (shape == Shape::OneToAll) {
            // The root's begin places the transfer; a root outside the members sends nothing.
            if (root < members.size() && members[i].bytesReceived > 0)
                visit(root, ranks[i], members[i].bytesReceived);
        } else if (members[i].bytesSent > 0) {
            visit(i, c.root.value, members[i].bytesSent);
        }
    }
}

std::vector<uint32_t> memberRanks(const Trace& trace, std::span<const CollectiveMember> members)
{
    std::vector<uint32_t> ranks(members.size());
    for (size_t i = 0; i < members.size(); ++i)
        ranks[i] = trace.rankOf(members[i].location).value;
    return ranks;
}

} // namespace

std::vector<ImpliedTransfer> collectiveTraffic(const Trace& trace, const CollectiveInstance& c)
{
    const auto members = std::span(trace.collectiveMembers()).subspan(c.firstMember, c.memberCount);
    const std::vector<uint32_t> ranks = memberRanks(trace, members);
    std::vector<ImpliedTransfer> out;
    forEachImpliedTransfer(c, members, ranks, [&](size_t s, uint32_t to, uint64_t bytes) {
        out.push_back({ranks[s], to, bytes});
    });
    return out;
}

CommMatrix computeCommMatrix(const Trace& trace, const CommMatrixOptions& options,
                             const ProgressCallback& progress)
{
    CommMatrix result;
    result.rankCount = uint32_t(trace.rankCount());
    CellAccumulator acc(result.rankCount);
    const auto& messages = trace.messages();
    const uint64_t total =
        messages.size() + (options.includeCollectives ? trace.collectives().size() : 0);
    ProgressReporter reporter(progress, total);
    const auto& locations = trace.locations();

    for (size_t i = 0; i < messages.size(); ++i) {
        if ((i & 0xFFFF) == 0 && !reporter.update(i)) {
            result.cancelled = true;
            return result;
        }
        const Message& m = messages[i];
        if (!m.matched()) {
            const bool hasSend = m.sendLocation.valid();
            const LocationId loc = hasSend ? m.sendLocation : m.recvLocation;
            const int64_t t = trace.events(loc).time(hasSend ? m.sendEvent : m.recvEvent);
            if (t >= options.from && t < options.to) ++result.unmatched;
            continue;
        }
        const int64_t sent = trace.events(m.sendLocation).time(m.sendEvent);
        if (sent < options.from || sent >= options.to) continue;
        const int64_t transfer = trace.events(m.recvLocation).time(m.recvEvent) - sent;
        CommMatrixCell& c = acc.at(locations[m.sendLocation.value].rank.value,
                                   locations[m.recvLocation.value].rank.value);
        if (c.timedCount == 0 || transfer > c.maxNs) c.maxNs = transfer;
        ++c.count;
        ++c.timedCount;
        c.bytes += m.bytes;
        c.totalNs += transfer;
    }

    if (options.includeCollectives) {
        const auto& collectives = trace.collectives();
        for (size_t i = 0; i < collectives.size(); ++i) {
            if (!reporter.update(messages.size() + i)) {
                result.cancelled = true;
                return result;
            }
            const CollectiveInstance& ci = collectives[i];
            const auto members =
                std::span(trace.collectiveMembers()).subspan(ci.firstMember, ci.memberCount);
            const std::vector<uint32_t> ranks = memberRanks(trace, members);
            // A transfer belongs to the window holding its sender's begin event.
            std::vector<char> inWindow(members.size());
            for (size_t k = 0; k < members.size(); ++k) {
                const int64_t at = trace.events(members[k].location).time(members[k].beginEvent);
                inWindow[k] = at >= options.from && at < options.to;
            }
            forEachImpliedTransfer(ci, members, ranks, [&](size_t s, uint32_t to, uint64_t bytes) {
                if (!inWindow[s]) return;
                CommMatrixCell& c = acc.at(ranks[s], to);
                ++c.count;
                c.bytes += bytes;
            });
        }
    }
    result.cells = acc.cells();
    reporter.report(total);
    return result;
}

} // namespace rankscope
