#pragma once
// Builds a Trace from definitions and per-location events, as an importer or generator sees them.
//
// Definitions first (regions, ranks in world-rank order, locations, communicators), then events
// per location in non-decreasing time order (locations may be filled in any order, and from
// different threads as long as each location is filled by one thread and no definitions are
// added meanwhile). Point-to-point partners and collective roots are given as ranks *within the
// communicator*, exactly as MPI and OTF2 record them; finish() translates them to world ranks,
// matches messages (MPI rules: source, tag, communicator, non-overtaking per pair) and collective
// instances (k-th collective on a communicator on every member), and returns the Trace.

#include "model/trace/trace.h"
#include "model/trace/traceerror.h"

#include <memory>
#include <string>

namespace rankscope {

inline constexpr uint32_t kNoRoot = 0xFFFFFFFFu;

struct TraceBuildState; // raw point-to-point and collective records, private to the model

class TraceBuilder
{
public:
    TraceBuilder();
    ~TraceBuilder();
    TraceBuilder(TraceBuilder&&) noexcept;
    TraceBuilder& operator=(TraceBuilder&&) noexcept;

    // --- definitions ---
    StringId intern(std::string_view s);
    void setClock(const ClockProperties& clock);
    void setProvenance(Provenance p);
    RegionId addRegion(const Region& region);
    /// Ranks must be added in world-rank order: the n-th call defines rank n.
    RankId addRank(StringId name);
    /// Records the compute node `rank` ran on (Rank::host).
    void setRankHost(RankId rank, StringId host);
    /// The first CPU-thread location added to a rank becomes its main (MPI) location.
    LocationId addLocation(RankId rank, StringId name, LocationType type, uint64_t sourceId = 0);
    /// members[i] is the world rank of communicator rank i.
    CommId addCommunicator(StringId name, std::vector<RankId> members, CommId parent = {});
    /// A metric member (hardware counter); samples refer to it by the id returned.
    MetricId addMetric(const Metric& metric);
    /// Marks MPI_COMM_WORLD; if never called, finish() picks the first communicator whose
    /// members are all ranks in order.
    void setWorldCommunicator(CommId comm);
    /// The span of the run, for a trace holding definitions only (read from a result summary,
    /// importers/rsum): beginTime() and endTime() start from it, events (if any) widen it.
    void setTimeSpan(int64_t begin, int64_t end);

    size_t rankCount() const;
    size_t locationCount() const;
    size_t regionCount() const;
    size_t metricCount() const;
    size_t communicatorCount() const;

    // --- events (t in ns since the clock offset) ---
    void reserveEvents(LocationId loc, size_t n);
    void enter(LocationId loc, int64_t t, RegionId region);
    void leave(LocationId loc, int64_t t, RegionId region);
    void send(LocationId loc, int64_t t, uint32_t receiver, CommId comm, int32_t tag,
              uint64_t bytes);
    void isend(LocationId loc, int64_t t, uint32_t receiver, CommId comm, int32_t tag,
               uint64_t bytes, uint64_t request);
    void isendComplete(LocationId loc, int64_t t, uint64_t request);
    void irecvRequest(LocationId loc, int64_t t, uint64_t request);
    void recv(LocationId loc, int64_t t, uint32_t sender, CommId comm, int32_t tag, uint64_t bytes);
    void irecv(LocationId loc, int64_t t, uint32_t sender, CommId comm, int32_t tag, uint64_t bytes,
               uint64_t request);
    void requestTest(LocationId loc, int64_t t, uint64_t request);
    void requestCancelled(LocationId loc, int64_t t, uint64_t request);
    void collectiveBegin(LocationId loc, int64_t t);
    /// `root` is a rank of `comm`, or kNoRoot.
    void collectiveEnd(LocationId loc, int64_t t, CollectiveOp op, CommId comm, uint32_t root,
                       uint64_t bytesSent, uint64_t bytesReceived);
    void misc(LocationId loc, int64_t t, MiscEvent event);
    /// One metric record: `count` members sampled at t, the raw 64-bit value of `metrics[i]` in
    /// `values[i]`. Kept in metric columns, not in the event stream; counted as one event.
    void metric(LocationId loc, int64_t t, const MetricId* metrics, const uint64_t* values,
                size_t count);
    /// Attaches a source location to the event last appended on `loc`.
    void attachSourceLocation(LocationId loc, SourceLocation where);
    /// Attaches a network contention delay (ns) to the receive last appended on `loc`: it
    /// becomes its message's Trace::messageContentionNs().
    void attachMessageContention(LocationId loc, int64_t ns);

    size_t eventCount(LocationId loc) const;

    // --- diagnostics ---
    void addWarning(std::string warning);
    void setPartial(bool partial);

    /// Builds the derived tables and returns the trace; the builder is empty afterwards.
    /// Throws TraceError for input that cannot form a trace (e.g. a partner rank outside its
    /// communicator); oddities that can be kept (unmatched messages...) are counted instead.
    /// `threads` > 1 matches messages on that many threads; the trace is the same either way.
    Trace finish(unsigned threads = 1);

private:
    static uint32_t append(TraceBuildState& s, LocationId loc, int64_t t, EventKind kind,
                           uint32_t ref);
    uint32_t messageEvent(LocationId loc, int64_t t, EventKind kind, uint32_t partner, CommId comm,
                          int32_t tag, uint64_t bytes);
    void requestEvent(LocationId loc, int64_t t, EventKind kind, uint64_t request);
    std::unique_ptr<TraceBuildState> s_;
};

} // namespace rankscope
