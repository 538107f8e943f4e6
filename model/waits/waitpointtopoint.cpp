#include "model/waits/waitpointtopoint.h"

#include "model/trace/trace.h"
#include "model/waits/waitcalllocator.h"

#include <string_view>

namespace rankscope {

WaitPointToPoint::WaitPointToPoint(const Trace& trace, const WaitCallLocator& locator,
                                   uint64_t eagerLimit)
    : trace_(trace), locator_(locator), eagerLimit_(eagerLimit)
{
    for (const Region& r : trace.regions()) {
        const std::string_view name = trace.str(r.name);
        nonBlocking_.push_back(r.isMpi() && name.starts_with("MPI_Test") ? 1 : 0);
        synchronous_.push_back(r.isMpi() && (name == "MPI_Ssend" || name == "MPI_Issend") ? 1 : 0);
    }
}

bool WaitPointToPoint::consider(RankId rank, const CallRecord& call, const CallPayload& payload,
                                WaitDependency& best) const
{
    if (nonBlocking_[call.region.value]) return false;
    const MessageId id = payload.message();
    if (!id.valid()) return false;
    const Message& m = trace_.message(id);
    if (!m.matched()) return false; // no partner call to depend on
    switch (payload.kind) {
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
        return lateSender(rank, m, best);
    case EventKind::MpiSend:
    case EventKind::MpiIsendComplete:
        return synchronising(m) && lateReceiver(rank, id, m, best);
    default:
        return false; // posting a request (MPI_Isend, MPI_Irecv) never blocks
    }
}

bool WaitPointToPoint::synchronising(const Message& m) const
{
    if (m.bytes > eagerLimit_) return true; // rendezvous protocol
    const uint32_t sendCall = locator_.enclosingCall(m.sendLocation, m.sendEvent);
    return sendCall != kNoEvent &&
           synchronous_[trace_.events(m.sendLocation).region(sendCall).value];
}

bool WaitPointToPoint::lateSender(RankId rank, const Message& m, WaitDependency& best) const
{
    const RankId sender = trace_.rankOf(m.sendLocation);
    if (sender == rank) return false; // a message to itself: no other rank to wait for
    const uint32_t call = locator_.enclosingCall(m.sendLocation, m.sendEvent);
    if (call == kNoEvent) return false;
    const int64_t enter = trace_.events(m.sendLocation).time(call);
    best.keepLatest({WaitPattern::LateSender, sender, call, enter});
    return true;
}

bool WaitPointToPoint::lateReceiver(RankId rank, MessageId id, const Message& m,
                                    WaitDependency& best) const
{
    const RankId receiver = trace_.rankOf(m.recvLocation);
    if (receiver == rank) return false;
    const EventStream& events = trace_.events(m.recvLocation);
    // The receive is posted by the MPI_Irecv holding its request event, or by the MPI_Recv.
    uint32_t posted = m.recvEvent;
    if (events.kind(posted) == EventKind::MpiIrecv)
        posted = locator_.postingEvent(m.recvLocation, m.recvEvent, id);
    if (posted == kNoEvent)
        return false; // posting not recorded: when the receive was posted is unknown
    const uint32_t call = locator_.enclosingCall(m.recvLocation, posted);
    if (call == kNoEvent) return false;
    best.keepLatest({WaitPattern::LateReceiver, receiver, call, events.time(call)});
    return true;
}

} // namespace rankscope
