#include "model/waits/waitboundary.h"

#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"

#include <algorithm>
#include <tuple>

namespace rankscope {

namespace {

/// A boundary end with the importer's matching order: send time, or the receive's posting time,
/// then location and event (messagematcher.cpp's Side).
struct Ordered
{
    BoundaryMessageEnd end;
    int64_t order = 0;
    uint32_t location = 0;
    uint32_t event = 0;

    auto key() const
    {
        return std::tie(end.comm, end.sender, end.receiver, end.tag, end.send, order, location,
                        event);
    }
};

Ordered sendEnd(const Trace& trace, const WaitCallLocator& locator, MessageId id, const Message& m,
                RankId receiver)
{
    const EventStream& events = trace.events(m.sendLocation);
    Ordered o;
    o.end = {m.comm.value,
             trace.rankOf(m.sendLocation).value,
             receiver.value,
             m.tag,
             0,
             id,
             true,
             {},
             {}};
    o.end.sendFacts.sendTime = events.time(m.sendEvent);
    o.end.sendFacts.callEvent = locator.enclosingCall(m.sendLocation, m.sendEvent);
    if (o.end.sendFacts.callEvent != kNoEvent)
        o.end.sendFacts.callEnter = events.time(o.end.sendFacts.callEvent);
    o.order = events.time(m.sendEvent);
    o.location = m.sendLocation.value;
    o.event = m.sendEvent;
    return o;
}

Ordered receiveEnd(const Trace& trace, const WaitCallLocator& locator, MessageId id,
                   const Message& m, RankId sender)
{
    const EventStream& events = trace.events(m.recvLocation);
    Ordered o;
    o.end = {m.comm.value,
             sender.value,
             trace.rankOf(m.recvLocation).value,
             m.tag,
             0,
             id,
             false,
             {},
             {}};
    // A non-blocking receive is posted by its MpiIrecvRequest (when recorded); it takes its
    // place in matching order there, and its call is the one that posted it.
    uint32_t posted = m.recvEvent;
    if (events.kind(posted) == EventKind::MpiIrecv) {
        posted = locator.postingEvent(m.recvLocation, m.recvEvent, id);
        o.order = events.time(posted == kNoEvent ? m.recvEvent : posted);
    } else {
        o.order = events.time(posted);
    }
    if (posted != kNoEvent) {
        const uint32_t call = locator.enclosingCall(m.recvLocation, posted);
        if (call != kNoEvent) o.end.receiveFacts = {call, events.time(call)};
    }
    o.location = m.recvLocation.value;
    o.event = m.recvEvent;
    return o;
}

} // namespace

std::vector<BoundaryMessageEnd> boundaryMessageEnds(const Trace& trace,
                                                    const WaitCallLocator& locator,
                                                    const std::function<bool(RankId)>& held)
{
    std::vector<Ordered> ends;
    const auto& messages = trace.messages();
    for (uint32_t i = 0; i < messages.size(); ++i) {
        const Message& m = messages[i];
        if (m.matched()) continue;
        if (m.sendLocation.valid()) {
            const RankId receiver = trace.messageReceiver(m);
            if (!held(receiver)) ends.push_back(sendEnd(trace, locator, MessageId(i), m, receiver));
        } else if (m.recvLocation.valid()) {
            const RankId sender = trace.messageSender(m);
            if (!held(sender)) ends.push_back(receiveEnd(trace, locator, MessageId(i), m, sender));
        }
    }
    std::sort(ends.begin(), ends.end(),
              [](const Ordered& a, const Ordered& b) { return a.key() < b.key(); });
    std::vector<BoundaryMessageEnd> result;
    result.reserve(ends.size());
    for (size_t i = 0; i < ends.size(); ++i) {
        BoundaryMessageEnd e = ends[i].end;
        if (i > 0) {
            const BoundaryMessageEnd& p = result.back();
            const bool sameChannel = std::tie(p.comm, p.sender, p.receiver, p.tag, p.send) ==
                                     std::tie(e.comm, e.sender, e.receiver, e.tag, e.send);
            e.sequence = sameChannel ? p.sequence + 1 : 0;
        }
        result.push_back(e);
    }
    return result;
}

} // namespace rankscope
