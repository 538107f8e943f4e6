#pragma once
// The partner facts a wait analysis of part of a trace needs from the ranks it does not hold
// (rankscope-mpi: each process holds a block of ranks, app/mpi/parallelwaits).
//
// A message between a held rank and one held elsewhere is unmatched in the part (its other end
// was not read). What the wait rules (§6.1-6.2) read from that other end is the Enter of the
// partner's call and, for the wrong-order test, the time of the send event; the process holding
// the partner computes them with the same WaitCallLocator and sends them. A message whose other
// end exists nowhere stays unmatched, as on the desktop.
//
// Messages are paired across processes as the importer pairs them (model/matching/
// messagematcher.cpp): within one (communicator, sender, receiver, tag) the k-th send in send
// order goes with the k-th receive in posting order. `boundaryMessageEnds` lists a part's ends
// with that k.

#include "model/trace/ids.h"
#include "model/trace/message.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace rankscope {

class Trace;
class WaitCallLocator;

/// The send side of a message received on a held rank.
struct RemoteSend
{
    int64_t sendTime = 0;          ///< the MpiSend / MpiIsend event
    uint32_t callEvent = kNoEvent; ///< Enter of the send's MPI call (kNoEvent: not in one)
    int64_t callEnter = 0;
};

/// The receive side of a message sent by a held rank.
struct RemoteReceive
{
    uint32_t callEvent = kNoEvent; ///< Enter of the call that posted the receive (kNoEvent:
                                   ///< the posting was not recorded or not in an MPI call)
    int64_t callEnter = 0;
};

struct WaitBoundary
{
    std::unordered_map<uint32_t, RemoteSend> sends;       ///< by MessageId of the part
    std::unordered_map<uint32_t, RemoteReceive> receives; ///< by MessageId of the part
};

/// One end, on a held rank, of a message whose other end is on a rank not held.
struct BoundaryMessageEnd
{
    uint32_t comm = 0;
    uint32_t sender = 0; ///< world ranks
    uint32_t receiver = 0;
    int32_t tag = 0;
    uint64_t sequence = 0; ///< k: the k-th of its (comm, sender, receiver, tag) on this side
    MessageId message;     ///< in the part
    bool send = false;     ///< the send end (else the receive end)
    /// What the partner's process needs: for a send end its RemoteSend, for a receive end its
    /// RemoteReceive.
    RemoteSend sendFacts;
    RemoteReceive receiveFacts;
};

/// Every end in `trace` (a part: unread ranks have no events) of a message between a rank for
/// which `held` is true and one for which it is false, with its facts; ordered by (comm,
/// sender, receiver, tag, sequence).
std::vector<BoundaryMessageEnd> boundaryMessageEnds(const Trace& trace,
                                                    const WaitCallLocator& locator,
                                                    const std::function<bool(RankId)>& held);

} // namespace rankscope
