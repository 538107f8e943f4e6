#include "model/analysis/commmatrix.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <span>
#include <unordered_map>

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

std::vector<ImpliedTransfer> collectiveTraffic(const Trace& trace, const CollectiveInstance& c)
{
    std::vector<ImpliedTransfer> out;
    const Shape shape = shapeOf(c.op);
    if (shape == Shape::None || c.memberCount < 2) return out;
    const auto members = std::span(trace.collectiveMembers()).subspan(c.firstMember, c.memberCount);
    auto add = [&out](uint32_t from, uint32_t to, uint64_t bytes) {
        if (bytes > 0 && from != to) out.push_back({from, to, bytes});
    };
    if (shape == Shape::AllToAll) {
        const uint64_t others = members.size() - 1;
        for (const CollectiveMember& s : members) {
            const uint32_t from = trace.rankOf(s.location).value;
            uint64_t k = 0;
            for (const CollectiveMember& r : members) {
                const uint32_t to = trace.rankOf(r.location).value;
                if (to == from) continue;
                add(from, to, s.bytesSent / others + (k++ < s.bytesSent % others ? 1 : 0));
            }
        }
        return out;
    }
    if (!c.root.valid()) return out;
    for (const CollectiveMember& m : members) {
        const uint32_t rank = trace.rankOf(m.location).value;
        if (shape == Shape::OneToAll)
            add(c.root.value, rank, m.bytesReceived);
        else
            add(rank, c.root.value, m.bytesSent);
    }
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
            if ((i & 0xFFF) == 0 && !reporter.update(messages.size() + i)) {
                result.cancelled = true;
                return result;
            }
            const CollectiveInstance& ci = collectives[i];
            const std::vector<ImpliedTransfer> transfers = collectiveTraffic(trace, ci);
            if (transfers.empty()) continue;
            // Each member's begin time, to place its transfers in the window.
            std::unordered_map<uint32_t, int64_t> begin;
            for (uint32_t k = 0; k < ci.memberCount; ++k) {
                const CollectiveMember& m = trace.collectiveMembers()[ci.firstMember + k];
                begin[trace.rankOf(m.location).value] = trace.events(m.location).time(m.beginEvent);
            }
            for (const ImpliedTransfer& t : transfers) {
                const int64_t at = begin[t.sender];
                if (at < options.from || at >= options.to) continue;
                CommMatrixCell& c = acc.at(t.sender, t.receiver);
                ++c.count;
                c.bytes += t.bytes;
            }
        }
    }
    result.cells = acc.cells();
    reporter.report(total);
    return result;
}

} // namespace rankscope
