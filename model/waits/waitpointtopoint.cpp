#include "model/waits/waitpointtopoint.h"

#include "model/trace/trace.h"
#include "model/waits/waitboundary.h"
#include "model/waits/waitcalllocator.h"

#include <string_view>

namespace rankscope {

WaitPointToPoint::WaitPointToPoint(const Trace& trace, const WaitCallLocator& locator,
                                   uint64_t eagerLimit, const WaitBoundary* boundary)
    : trace_(trace), locator_(locator), eagerLimit_(eagerLimit), boundary_(boundary)
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
    if (!m.matched()) // the partner is on another process, or nowhere
        return boundary_ != nullptr && considerRemote(id, m, payload.kind, best);
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

bool WaitPointToPoint::considerRemote(MessageId id, const Message& m, EventKind kind,
                                      WaitDependency& best) const
{
    switch (kind) {
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv: {
        if (m.sendLocation.valid()) return false; // a send end named by a receive: not ours
        const auto it = boundary_->sends.find(id.value);
        if (it == boundary_->sends.end() || it->second.callEvent == kNoEvent) return false;
        best.keepLatest({WaitPattern::LateSender, trace_.messageSender(m), it->second.callEvent,
                         it->second.callEnter});
        return true;
    }
    case EventKind::MpiSend:
    case EventKind::MpiIsendComplete: {
        if (!m.sendLocation.valid() || !synchronising(m)) return false;
        const auto it = boundary_->receives.find(id.value);
        if (it == boundary_->receives.end() || it->second.callEvent == kNoEvent) return false;
        best.keepLatest({WaitPattern::LateReceiver, trace_.messageReceiver(m), it->second.callEvent,
                         it->second.callEnter});
        return true;
    }
    default:
        return false;
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
