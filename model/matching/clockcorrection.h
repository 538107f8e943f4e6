#pragma once
// Clock correction by the controlled logical clock (Rabenseifner's CLC, with the backward
// amortisation of Becker et al., the method Scalasca applies): moves events forward in time,
// never back, until every matched message is received at least `minLatencyNs` after it was sent
// and every collective ends at least `minLatencyNs` after the members it depends on began
// (clockviolations.h names the dependencies), keeping each rank's local intervals as far as
// possible. docs/design-notes.md ("Metrics and clock correction") gives the reasons.
//
// Forward pass, in an order where a send comes before its receive and a collective's begins
// before the ends that depend on them (per location, events in their order):
//     LC(e) = max( t(e),  LC(prev) + (t(e) - t(prev)) - floor(decay * (t(e) - t(prev))),
//                  LC(send) + minLatency  for a receive,
//                  max LC(begin q) + minLatency over the members q a collective end waits for )
// A correction thus carries forward to the later events of the location (local intervals kept)
// and fades by `decay` of the elapsed time until the clock is back on its own times.
// Backward amortisation: a jump d = LC(r) - (LC(prev) + interval) at a constrained event r is
// spread over the events since the location's previous constrained event (or its first event),
// at time t(e) by floor(d * (t(e) - t0) / (t(r) - t0)), so the computation before a receive
// stretches instead of the receive call; no send (and no collective begin others wait for) is
// moved past what its receiver (its waiters) allows, nor any event of the window before it.

#include "model/matching/clockviolations.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

class Trace;

struct ClockCorrectionOptions
{
    int64_t minLatencyNs = 100; ///< least time from a send to its receive after correction
    double decay = 0.01;        ///< share of elapsed time by which a correction fades (0: never)
    bool amortize = true;       ///< spread jumps backward over the preceding interval
};

struct ClockCorrection
{
    ClockViolations before;
    ClockViolations after;
    uint64_t events = 0;      ///< events considered (all locations)
    uint64_t eventsMoved = 0; ///< events whose time changed
    uint64_t jumps = 0;       ///< receives and collective ends that had to move
    int64_t maxShiftNs = 0;   ///< largest move of one event
    double meanShiftNs = 0;   ///< mean move over the events moved
    uint64_t unresolved = 0;  ///< dependencies dropped to break a cycle (inconsistent trace)
    bool operator==(const ClockCorrection& o) const
    {
        return std::tie(before, after, events, eventsMoved, jumps, maxShiftNs, meanShiftNs,
                        unresolved) == std::tie(o.before, o.after, o.events, o.eventsMoved, o.jumps,
                                                o.maxShiftNs, o.meanShiftNs, o.unresolved);
    }
};

/// Corrects the event and metric-sample times of `trace` in place and says what moved.
ClockCorrection correctClocks(Trace& trace, const ClockCorrectionOptions& options = {});

} // namespace rankscope
