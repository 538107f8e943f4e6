#pragma once
// Late Sender / wrong order (the Scalasca sub-pattern "messages in wrong order"): a Late Sender
// wait during which the receiving rank could have received a message that had already been sent
// to it, but received that message only later. Receiving in send order would have avoided part of
// the wait. Same source: the earlier message came from the rank it waited for (receives posted
// in another order than the sends, e.g. by tag); different source: from another rank.
//
// Rule, for a Late Sender wait of rank p in the call (p, i): there is a matched message m' to p
// whose send event lies before Enter(p, i) and whose receive event on p comes after the Leave of
// (p, i). When messages of both kinds exist the wait counts as same source, the more specific
// diagnosis (the receive order within one partner is in the program's hands).
//
// One rank at a time, from what the wait scan already saw: the messages the rank received and
// the Leave of each waiting call. Waits and calls come in time order, so a min-heap of pending
// messages by receive event gives each wait its answer in O(log m): O(m log m) per rank.

#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <cstdint>
#include <span>
#include <vector>

namespace rankscope {

/// A message received on a rank's main location, as the wrong-order test needs it.
struct ReceivedMessage
{
    int64_t sendTime = 0;   ///< time of the send event (MpiSend / MpiIsend)
    uint32_t recvEvent = 0; ///< the receive event on the receiver's main location
    RankId sender;
};

/// Sets WaitState::wrongOrder on the Late Sender waits of one rank. `waits` are that rank's
/// waits in call order, `leaveEvents[i]` the Leave of waits[i]'s call (kNoEvent when unclosed);
/// `received` lists the rank's received messages in any order (it is reordered).
void classifyWrongOrder(std::span<WaitState> waits, std::span<const uint32_t> leaveEvents,
                        std::vector<ReceivedMessage>& received);

} // namespace rankscope
