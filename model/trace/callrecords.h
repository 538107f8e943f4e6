#pragma once
// The MPI call records of one rank, as a table: calls in time order and their payload events.

#include "model/trace/callrecord.h"
#include "model/trace/callsites.h"
#include "model/trace/ids.h"

#include <span>
#include <tuple>
#include <vector>

namespace rankscope {

class Trace;

/// Every outermost MPI call of one rank's main location.
struct RankCallRecords
{
    RankId rank;
    std::vector<CallRecord> calls;    ///< in time order
    std::vector<CallPayload> payload; ///< payload of all calls; each call owns a contiguous range

    /// The point-to-point and collective events of `call`.
    std::span<const CallPayload> payloadOf(const CallRecord& call) const
    {
        return std::span<const CallPayload>(payload).subspan(call.firstPayload, call.payloadCount);
    }
    /// Calls whose trace ended before their Leave.
    size_t unclosedCount() const;

    bool operator==(const RankCallRecords& o) const
    {
        return std::tie(rank, calls, payload) == std::tie(o.rank, o.calls, o.payload);
    }
};

/// The MPI call records of `rank`, with call sites interned into `callSites`.
RankCallRecords mpiCallRecords(const Trace& trace, RankId rank, CallSiteTable& callSites);

} // namespace rankscope
