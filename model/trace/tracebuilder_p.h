#pragma once
// Private state of TraceBuilder: what an importer hands over beyond the event columns, kept per
// location (so locations can be filled concurrently) until finish() turns it into the derived
// tables.
//
// Design note: the builder keeps no record per event. Until finish(), the 28-bit reference of an
// event that will later point at a message or collective holds what finish() needs instead:
//  - MpiSend, MpiIsend, MpiRecv, MpiIrecv: an index into the location's `p2p` payload table;
//  - MpiCollectiveEnd: an index into the location's `collectives` table (none: a stray end);
//  - Misc: an index into the location's `misc` list (one entry per event);
//  - MpiIrecvRequest: the distance forward to the MpiIrecv that completed it (none: never did);
//    MpiCollectiveBegin: the distance forward to its MpiCollectiveEnd (none: no end followed);
//  - MpiIsendComplete, MpiRequestTest, MpiRequestCancelled: the distance back to the event that
//    posted the request (none: a request never posted).
// Links are kept by EventLinks (a distance that does not fit in a reference goes to a side table).
// Payload tables are interned (InternTable), so a location that repeats its neighbours, tags
// and sizes costs a few dozen bytes however many events it has; the import's peak memory is then
// the event columns plus the derived tables, not a raw copy of every record.

#include "model/matching/openrequests.h"
#include "model/trace/eventlinks.h"
#include "model/trace/interntable.h"
#include "model/trace/tracebuilder.h"

#include <utility>
#include <vector>

namespace rankscope {

/// What a point-to-point event carries besides its time and kind.
struct P2PPayload
{
    uint32_t partner = 0; ///< send: receiver, receive: sender; a rank within `comm` until
                          ///< finish() translates it to a world rank
    CommId comm;
    int32_t tag = 0;
    uint64_t bytes = 0;
    bool operator==(const P2PPayload&) const = default;
};

struct P2PPayloadHash
{
    size_t operator()(const P2PPayload& p) const
    {
        return size_t(
            mixHash((uint64_t(p.partner) << 32 | p.comm.value) ^
                    mixHash(uint64_t(uint32_t(p.tag)) ^ (p.bytes << 32 | p.bytes >> 32))));
    }
};

/// What a collective end carries besides its time and kind.
struct CollectivePayload
{
    CollectiveOp op = CollectiveOp::Other;
    CommId comm;
    uint32_t root = kNoRoot; ///< a rank within `comm`, or kNoRoot
    uint64_t bytesSent = 0;
    uint64_t bytesReceived = 0;
    bool operator==(const CollectivePayload&) const = default;
};

struct CollectivePayloadHash
{
    size_t operator()(const CollectivePayload& p) const
    {
        return size_t(mixHash((uint64_t(p.comm.value) << 32 | p.root) ^ uint64_t(p.op) << 56 ^
                              mixHash(p.bytesSent ^ mixHash(p.bytesReceived))));
    }
};

struct LocationBuildState
{
    InternTable<P2PPayload, P2PPayloadHash> p2p;
    InternTable<CollectivePayload, CollectivePayloadHash> collectives;
    OpenRequests open; ///< requests posted and not yet completed -> posting event
    EventLinks links;  ///< the distances of the design note
    std::vector<uint32_t> unpostedIrecvs; ///< MpiIrecv events that completed no MpiIrecvRequest
    uint32_t sends = 0;                   ///< MpiSend and MpiIsend events
    uint32_t receives = 0;                ///< MpiRecv and MpiIrecv events
    uint32_t completions = 0;          ///< MpiIsendComplete, MpiRequestTest and MpiRequestCancelled
    uint32_t collectiveEnds = 0;       ///< collective ends that found their begin
    uint32_t pendingBegin = kNoEvent;  ///< collective begun but not yet ended
    std::vector<MiscEvent> misc;       ///< Misc events' references index it until finish()
    std::vector<MetricColumn> metrics; ///< one per metric sampled here, in first-seen order
    uint64_t metricRecords = 0;
    int64_t lastMetricTime = INT64_MIN;
    /// (receive event, contention delay in ns), in event order: attachMessageContention()
    std::vector<std::pair<uint32_t, int64_t>> contention;
    std::vector<RegionId> openRegions; ///< Enter stack, to count broken nesting
    uint64_t unmatchedLeaves = 0;
    uint64_t unclosedInside = 0;      ///< regions left open when an outer one closed
    uint64_t strayCollectiveEnds = 0; ///< collective ends with no begin
    uint64_t orphanRequestEvents = 0; ///< completions and tests of requests never posted
    uint64_t cancelledRequests = 0;
    int64_t lastTime = INT64_MIN;
};

struct TraceBuildState
{
    Trace trace;
    std::vector<LocationBuildState> locations;
    bool spanGiven = false; ///< setTimeSpan was called
    int64_t spanBegin = 0;
    int64_t spanEnd = 0;
};

/// Matches sends with receives; fills `messages`, sets the point-to-point event references in
/// `streams` and counts what stays unmatched. `defs` supplies communicators and location ranks.
/// With threads > 1 the per-location passes run concurrently; the result is the same.
void matchMessages(const Trace& defs, std::vector<EventStream>& streams,
                   std::vector<LocationBuildState>& locations, std::vector<Message>& messages,
                   TraceDiagnostics& diagnostics, unsigned threads);

/// Groups the k-th collective on each communicator over its members; fills `instances` and
/// `members` and sets the collective event references in `streams`. With threads > 1 the scans
/// of the locations run concurrently; the result is the same.
void matchCollectives(const Trace& defs, std::vector<EventStream>& streams,
                      std::vector<LocationBuildState>& locations,
                      std::vector<CollectiveInstance>& instances,
                      std::vector<CollectiveMember>& members, TraceDiagnostics& diagnostics,
                      unsigned threads);

} // namespace rankscope
