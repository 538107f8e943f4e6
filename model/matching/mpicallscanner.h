#pragma once
// One forward pass over a rank's main location that yields its outermost MPI calls in order.
//
// Design note: the scanner keeps only the open-region stack (memory grows with nesting depth,
// not events) and hands out one CallRecord at a time, so call records, delta times and any later
// per-call analysis share one definition of "MPI call" without materialising all calls.
// Stack rules: a Leave closes the innermost open frame of its region and every frame above it
// (broken nesting); a Leave with no open frame of its region is ignored (the builder counts it);
// a call still open at the end of the location ends at the location's last timestamp, unclosed.

#include "model/trace/callrecord.h"
#include "model/trace/callsiteresolver.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <vector>

namespace rankscope {

class EventStream;
class Trace;

class MpiCallScanner
{
public:
    /// Scans the main location of `rank`; `resolver` (may be null) names call sites.
    MpiCallScanner(const Trace& trace, RankId rank, CallSiteResolver* resolver = nullptr);

    /// Moves to the next outermost MPI call; false at the end. When `payload` is given, the
    /// call's payload events are appended to it and the record points into it.
    bool next(CallRecord& call, std::vector<CallPayload>* payload = nullptr);

    /// Events consumed so far.
    size_t position() const { return pos_; }
    /// Events of the location.
    size_t eventCount() const;

private:
    struct Frame
    {
        RegionId region;
        uint32_t path; // call-path node of the user frames up to here
    };
    static constexpr size_t kNoCall = SIZE_MAX;

    void enterCall(size_t i, RegionId region, std::vector<CallPayload>* payload);
    const SourceLocation* sourceLocationAt(size_t i);

    const Trace& trace_;
    const EventStream& events_;
    CallSiteResolver* resolver_;
    std::vector<Frame> stack_;
    CallRecord current_;
    size_t callDepth_ = kNoCall; // stack index of the open outermost MPI call
    size_t pos_ = 0;
    size_t nextSource_ = 0; // cursor into events_.sourceLocations()
};

} // namespace rankscope
