#pragma once
// Private state of TraceBuilder: the raw records an importer hands over, kept per location (so
// locations can be filled concurrently) until finish() turns them into the derived tables.

#include "model/tracebuilder.h"

#include <vector>

namespace rankscope {

/// A point-to-point event as recorded, before matching. `partner` is a communicator rank.
struct RawP2P
{
    uint32_t event = 0;       ///< index in the location's event stream
    uint32_t partner = 0;     ///< send: receiver; receive: sender (rank within `comm`; the
                              ///< matcher turns it into a world rank)
    uint32_t link = kNoEvent; ///< index (in this vector) of the posting record a completion belongs to
    CommId comm;
    int32_t tag = 0;
    EventKind kind = EventKind::MpiSend;
    uint64_t bytes = 0;
    uint64_t request = 0;     ///< request id; the matcher reuses it for the message id
};

struct RawCollective
{
    uint32_t beginEvent = kNoEvent;
    uint32_t endEvent = kNoEvent;
    CollectiveOp op = CollectiveOp::Other;
    CommId comm;
    uint32_t root = kNoRoot;
    uint64_t bytesSent = 0;
    uint64_t bytesReceived = 0;
};

struct LocationBuildState
{
    std::vector<RawP2P> p2p;
    std::vector<RawCollective> collectives;
    uint32_t pendingBegin = kNoEvent; ///< collective begun but not yet ended
    std::vector<MiscEvent> misc;
    std::vector<uint32_t> miscEvents;  ///< event index of each entry of `misc`
    std::vector<RegionId> openRegions; ///< Enter stack, to count broken nesting
    uint64_t unmatchedLeaves = 0;
    uint64_t unclosedInside = 0;       ///< regions left open when an outer one closed
    uint64_t strayCollectiveEnds = 0;  ///< collective ends with no begin
    int64_t lastTime = INT64_MIN;
};

struct TraceBuildState
{
    Trace trace;
    std::vector<LocationBuildState> locations;
};

/// Matches sends with receives; fills `messages`, sets the p2p event references in `streams`
/// and counts what stays unmatched. `defs` supplies communicators and location ranks. With
/// threads > 1 the per-location and per-bucket passes run concurrently; the result is the same.
void matchMessages(const Trace& defs, std::vector<EventStream>& streams,
                   std::vector<LocationBuildState>& locations, std::vector<Message>& messages,
                   TraceDiagnostics& diagnostics, unsigned threads);

/// Groups the k-th collective on each communicator over its members; fills `instances` and
/// `members` and sets the collective event references in `streams`.
void matchCollectives(const Trace& defs, std::vector<EventStream>& streams,
                      std::vector<LocationBuildState>& locations,
                      std::vector<CollectiveInstance>& instances,
                      std::vector<CollectiveMember>& members, TraceDiagnostics& diagnostics);

} // namespace rankscope
