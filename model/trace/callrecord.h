#pragma once
// One MPI call record: an outermost Enter/Leave pair of an MPI region on a rank's main location,
// with the point-to-point and collective events found inside it (ALGORITHMS.md section 1).

#include "model/trace/eventstream.h"
#include "model/trace/ids.h"
#include "model/trace/message.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

/// A point-to-point or collective event inside an MPI call: what the call did.
struct CallPayload
{
    uint32_t event = kNoEvent;           ///< index in the rank's main event stream
    EventKind kind = EventKind::MpiSend; ///< MpiSend ... MpiCollectiveEnd
    uint32_t ref = kNoEventRef;          ///< MessageId or CollectiveId, by kind

    /// The message of a point-to-point event (invalid for collective events).
    MessageId message() const { return isPointToPoint(kind) ? MessageId(ref) : MessageId(); }
    /// The collective instance of a collective begin/end event (invalid otherwise).
    CollectiveId collective() const
    {
        return isPointToPoint(kind) ? CollectiveId() : CollectiveId(ref);
    }
    bool operator==(const CallPayload& o) const
    {
        return std::tie(event, kind, ref) == std::tie(o.event, o.kind, o.ref);
    }
};

/// One outermost MPI call on one rank.
struct CallRecord
{
    RegionId region;                ///< the MPI function
    CallSiteId callSite;            ///< where it was called (invalid when not resolved)
    uint32_t enterEvent = kNoEvent; ///< index of its Enter event
    uint32_t leaveEvent = kNoEvent; ///< the Leave ending it; kNoEvent if the trace ends first
    int64_t enterTime = 0;
    int64_t leaveTime = 0;     ///< the location's last timestamp when unclosed
    uint32_t firstPayload = 0; ///< its payload: [first, first + count) of the payload list
    uint32_t payloadCount = 0;
    bool closed = true; ///< false without its own Leave (trace end, broken nesting)

    int64_t duration() const { return leaveTime - enterTime; }
    bool operator==(const CallRecord& o) const
    {
        return std::tie(region, callSite, enterEvent, leaveEvent, enterTime, leaveTime,
                        firstPayload, payloadCount, closed) ==
               std::tie(o.region, o.callSite, o.enterEvent, o.leaveEvent, o.enterTime, o.leaveTime,
                        o.firstPayload, o.payloadCount, o.closed);
    }
};

} // namespace rankscope
