#include "model/waits/waitwrongorder.h"

#include "model/trace/message.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace rankscope {

void classifyWrongOrder(std::span<WaitState> waits, std::span<const uint32_t> leaveEvents,
                        std::vector<ReceivedMessage>& received)
{
    if (received.empty()) return;
    std::sort(
        received.begin(), received.end(), [](const ReceivedMessage& a, const ReceivedMessage& b) {
            return a.sendTime != b.sendTime ? a.sendTime < b.sendTime : a.recvEvent < b.recvEvent;
        });
    // Pending: sent before the current wait's Enter, not yet received by the end of its call.
    const auto later = [&](size_t a, size_t b) {
        return received[a].recvEvent > received[b].recvEvent;
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> pending(later);
    std::unordered_map<uint32_t, uint32_t> pendingFrom; // sender -> pending messages
    size_t next = 0;
    for (size_t i = 0; i < waits.size(); ++i) {
        WaitState& w = waits[i];
        if (w.pattern != WaitPattern::LateSender) continue;
        for (; next < received.size() && received[next].sendTime < w.begin; ++next) {
            pending.push(next);
            ++pendingFrom[received[next].sender.value];
        }
        // Calls are in time order, so a message received by this call's end is never pending
        // for a later wait either.
        const uint32_t leave = leaveEvents[i];
        while (!pending.empty() && leave != kNoEvent &&
               received[pending.top()].recvEvent <= leave) {
            --pendingFrom[received[pending.top()].sender.value];
            pending.pop();
        }
        if (leave == kNoEvent || pending.empty())
            continue; // an unclosed call: nothing is received after it
        const auto same = pendingFrom.find(w.cause.value);
        const uint32_t fromCause = same == pendingFrom.end() ? 0 : same->second;
        if (fromCause > 0)
            w.wrongOrder = WrongOrder::SameSource;
        else if (pending.size() > 0)
            w.wrongOrder = WrongOrder::DifferentSource;
    }
}

} // namespace rankscope
