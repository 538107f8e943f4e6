#pragma once
// One point-to-point message: the row of the global message table.

#include "model/trace/ids.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

inline constexpr uint32_t kNoEvent = 0xFFFFFFFFu;

struct Message
{
    LocationId sendLocation; ///< invalid when no send was found (unmatched receive)
    LocationId recvLocation; ///< invalid when no receive was found (unmatched send)
    /// Index of the MpiSend/MpiIsend event in sendLocation. For an unmatched receive (no
    /// sendLocation) it holds the world rank of the sender the receive names instead, so the
    /// message keeps both ends while staying 32 bytes; use Trace::messageSender().
    uint32_t sendEvent = kNoEvent;
    /// Index of the MpiRecv/MpiIrecv event in recvLocation. For an unmatched send (no
    /// recvLocation) the world rank of the intended receiver; use Trace::messageReceiver().
    uint32_t recvEvent = kNoEvent;
    int32_t tag = 0;
    CommId comm;
    uint64_t bytes = 0; ///< as recorded by the sender (by the receiver when unmatched)

    bool matched() const { return sendLocation.valid() && recvLocation.valid(); }
    bool operator==(const Message& o) const
    {
        return std::tie(sendLocation, recvLocation, sendEvent, recvEvent, tag, comm, bytes) ==
               std::tie(o.sendLocation, o.recvLocation, o.sendEvent, o.recvEvent, o.tag, o.comm,
                        o.bytes);
    }
};

} // namespace rankscope
