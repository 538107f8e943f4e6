#include "model/waits/waitcalllocator.h"

#include "model/trace/trace.h"

namespace rankscope {

WaitCallLocator::WaitCallLocator(const Trace& trace) : trace_(trace)
{
    isMpi_.reserve(trace.regions().size());
    for (const Region& r : trace.regions())
        isMpi_.push_back(r.isMpi() ? 1 : 0);
}

bool WaitCallLocator::isMpiEnter(const EventStream& events, uint32_t i) const
{
    if (events.kind(i) != EventKind::Enter) return false;
    const uint32_t region = events.ref(i);
    return region < isMpi_.size() && isMpi_[region];
}

uint32_t WaitCallLocator::enclosingCall(LocationId location, uint32_t event) const
{
    const EventStream& events = trace_.events(location);
    uint32_t depth = 0; // frames closed between here and `event`
    for (uint32_t i = event; i-- > 0;) {
        const EventKind kind = events.kind(i);
        if (kind == EventKind::Leave) {
            ++depth;
        } else if (kind == EventKind::Enter) {
            if (depth > 0) {
                --depth;
                continue;
            }
            // The innermost open frame around the event. A user frame means the event is not
            // inside an MPI call (an outermost MPI call cannot lie outside a user frame).
            if (!isMpiEnter(events, i)) return kNoEvent;
            // MPI frames entered back to back (MPI_Sendrecv > MPI_Send) are one call: the
            // outermost counts. Walking on through sibling frames would cost O(events).
            while (i > 0 && isMpiEnter(events, i - 1))
                --i;
            return i;
        }
    }
    return kNoEvent;
}

uint32_t WaitCallLocator::postingEvent(LocationId location, uint32_t completion,
                                       MessageId message) const
{
    const EventStream& events = trace_.events(location);
    for (uint32_t i = completion; i-- > 0;)
        if (events.kind(i) == EventKind::MpiIrecvRequest && events.ref(i) == message.value)
            return i;
    return kNoEvent;
}

} // namespace rankscope
