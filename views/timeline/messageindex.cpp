#include "views/timeline/messageindex.h"

#include "model/trace/trace.h"

#include <algorithm>

namespace rankscope {

MessageIndex::Line MessageIndex::line(const Trace& trace, MessageId id)
{
    const Message& m = trace.message(id);
    Line l;
    l.message = id;
    l.sender = trace.messageSender(m);
    l.receiver = trace.messageReceiver(m);
    if (m.sendLocation.valid()) l.sendTime = trace.events(m.sendLocation).time(m.sendEvent);
    if (m.recvLocation.valid()) l.recvTime = trace.events(m.recvLocation).time(m.recvEvent);
    return l;
}

namespace {

int64_t sendTime(const Trace& trace, MessageId id)
{
    const Message& m = trace.message(id);
    return trace.events(m.sendLocation).time(m.sendEvent);
}

int64_t recvTime(const Trace& trace, MessageId id)
{
    const Message& m = trace.message(id);
    return trace.events(m.recvLocation).time(m.recvEvent);
}

} // namespace

void MessageIndex::build(const Trace& trace)
{
    trace_ = &trace;
    const auto& messages = trace.messages();
    // Counted first, so every list is allocated once at its size (grown by push_back, the
    // lists' spare capacity was the GUI's peak on a trace with a message every 10 events).
    std::vector<uint32_t> sendCount(trace.rankCount(), 0), recvCount(trace.rankCount(), 0);
    for (const Message& m : messages) {
        if (!m.matched()) continue;
        ++sendCount[trace.rankOf(m.sendLocation).value];
        ++recvCount[trace.rankOf(m.recvLocation).value];
    }
    sends_.assign(trace.rankCount(), {});
    recvs_.assign(trace.rankCount(), {});
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        sends_[r].reserve(sendCount[r]);
        recvs_[r].reserve(recvCount[r]);
    }
    for (uint32_t i = 0; i < messages.size(); ++i) {
        const Message& m = messages[i];
        if (!m.matched()) continue;
        const MessageId id(i);
        sends_[trace.rankOf(m.sendLocation).value].push_back({sendTime(trace, id), id});
        recvs_[trace.rankOf(m.recvLocation).value].push_back({recvTime(trace, id), id});
    }
    auto byTime = [](const Entry& a, const Entry& b) { return a.time < b.time; };
    for (auto* lists : {&sends_, &recvs_})
        for (auto& list : *lists)
            std::stable_sort(list.begin(), list.end(), byTime);
}

size_t MessageIndex::collect(std::span<const RankId> ranks, int64_t begin, int64_t end,
                             size_t maxLines, std::vector<Line>& out) const
{
    out.clear();
    if (!trace_ || maxLines == 0) return 0;
    // Ranges of candidates: each displayed rank's sends in the window, then its receives in the
    // window (those whose send is also in the window are skipped below: the sender has them).
    struct Range
    {
        const Entry* first;
        size_t count;
        bool receives;
    };
    thread_local std::vector<Range> ranges;
    ranges.clear();
    size_t total = 0;
    auto add = [&](const std::vector<Entry>& list, bool receives) {
        auto lo = std::lower_bound(list.begin(), list.end(), begin,
                                   [](const Entry& e, int64_t t) { return e.time < t; });
        auto hi = std::lower_bound(lo, list.end(), end,
                                   [](const Entry& e, int64_t t) { return e.time < t; });
        if (hi > lo) {
            ranges.push_back({&*lo, size_t(hi - lo), receives});
            total += size_t(hi - lo);
        }
    };
    for (RankId r : ranks) {
        if (r.value >= sends_.size()) continue;
        add(sends_[r.value], false);
        add(recvs_[r.value], true);
    }
    const double stride = total > maxLines ? double(total) / double(maxLines) : 1.0;
    size_t rangeIndex = 0, rangeStart = 0;
    for (double pick = 0; pick < double(total); pick += stride) {
        const size_t k = size_t(pick);
        while (k >= rangeStart + ranges[rangeIndex].count)
            rangeStart += ranges[rangeIndex++].count;
        const Range& range = ranges[rangeIndex];
        const Line l = line(*trace_, range.first[k - rangeStart].message);
        if (range.receives && l.sendTime >= begin && l.sendTime < end) continue;
        out.push_back(l);
    }
    return total;
}

} // namespace rankscope
