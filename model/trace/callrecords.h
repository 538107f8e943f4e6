#pragma once
// The MPI call records of one rank, as a table: calls in time order and their payload events.

#include "model/trace/callrecord.h"
#include "model/trace/callsites.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <functional>
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

inline constexpr uint32_t kNoCallSite = 0xFFFFFFFFu;

/// The call site (an id in `callSites`) of each message's send call, kNoCallSite where the send
/// is in no MPI call with a call site. `beforeRank(r)` is asked before each rank; false stops
/// there (what is filled so far is returned).
std::vector<uint32_t> sendCallSites(const Trace& trace, CallSiteTable& callSites,
                                    const std::function<bool(uint32_t)>& beforeRank = {});

} // namespace rankscope
