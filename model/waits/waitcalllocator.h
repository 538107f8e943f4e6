#pragma once
// Finds, on any location, the outermost MPI call around one event, without call records.
//
// Design note: a wait depends on the Enter of the partner's call (the send call, the call that
// posted the receive, a collective call). The waiting rank's own calls come from its
// MpiCallScanner pass; the partner's are found here by walking backwards from the partner's
// event to the Enter that opened its MPI call. An MPI call holds a handful of events, so the walk
// is short and needs no per-message table (memory stays O(results), ALGORITHMS.md §6).
// Limits: MPI frames nested in an MPI call count as one call only when entered back to back
// (Enter MPI_Sendrecv, Enter MPI_Send); a call nested after other events of its parent, or under
// a user frame inside an MPI call (a user reduction operator), is found as the inner call.

#include "model/trace/ids.h"
#include "model/trace/message.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class EventStream;
class Trace;

class WaitCallLocator
{
public:
    explicit WaitCallLocator(const Trace& trace);

    /// Index of the Enter of the outermost MPI call around `event` on `location`; kNoEvent when
    /// the event is not inside an MPI call.
    uint32_t enclosingCall(LocationId location, uint32_t event) const;
    /// The MpiIrecvRequest that posted `message` on `location`, searched backwards from the
    /// receive's completion event `completion`; kNoEvent when the trace did not record it.
    uint32_t postingEvent(LocationId location, uint32_t completion, MessageId message) const;

private:
    bool isMpiEnter(const EventStream& events, uint32_t i) const;

    const Trace& trace_;
    std::vector<uint8_t> isMpi_; // per RegionId, avoids a Region lookup per step
};

} // namespace rankscope
