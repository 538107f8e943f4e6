#pragma once
// Which end of its message a point-to-point event is, for writers that draw each message once
// (the Chrome and Paje exports): the send or the receive the message table names. An event a
// message refers to without being that end (a request completion, say) is neither, and an
// unmatched message is counted once, at its only end.

#include "model/trace/trace.h"

#include <cstddef>

namespace rankscope {

enum class MessageEnd
{
    None,      ///< not the send or receive event of a message
    Send,      ///< the send event of a matched message
    Receive,   ///< the receive event of a matched message
    Unmatched, ///< the one event of a message without a partner
};

/// What event `i` of location `loc` (whose events are `es`) is to its message.
inline MessageEnd messageEndOf(const Trace& trace, LocationId loc, const EventStream& es, size_t i)
{
    const MessageId id = es.message(i);
    if (!id.valid()) return MessageEnd::None;
    const Message& m = trace.message(id);
    const EventKind kind = es.kind(i);
    const bool send = kind == EventKind::MpiSend || kind == EventKind::MpiIsend;
    if (!m.matched())
        return send || !m.sendLocation.valid() ? MessageEnd::Unmatched : MessageEnd::None;
    if (send ? (m.sendLocation != loc || m.sendEvent != i)
             : (m.recvLocation != loc || m.recvEvent != i))
        return MessageEnd::None;
    return send ? MessageEnd::Send : MessageEnd::Receive;
}

} // namespace rankscope
