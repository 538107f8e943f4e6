#pragma once
// A whole trace: definitions, per-location event columns and the derived tables built at import
// (message table, collective instances). Measured, generated, extrapolated and simulated runs are
// all this type; Provenance says which. Build one with TraceBuilder.

#include "model/trace/collective.h"
#include "model/trace/definitions.h"
#include "model/trace/eventstream.h"
#include "model/trace/message.h"
#include "model/trace/metric.h"
#include "model/trace/miscevent.h"
#include "model/trace/stringpool.h"
#include "model/trace/tracediagnostics.h"

#include <string_view>
#include <vector>

namespace rankscope {

class Trace
{
public:
    const StringPool& strings() const { return strings_; }
    std::string_view str(StringId id) const { return strings_.str(id); }

    const ClockProperties& clock() const { return clock_; }
    const Provenance& provenance() const { return provenance_; }
    void setProvenance(Provenance p) { provenance_ = std::move(p); }

    const std::vector<Region>& regions() const { return regions_; }
    const Region& region(RegionId id) const { return regions_[id.value]; }
    std::string_view regionName(RegionId id) const { return str(regions_[id.value].name); }

    const std::vector<Rank>& ranks() const { return ranks_; }
    const Rank& rank(RankId id) const { return ranks_[id.value]; }
    size_t rankCount() const { return ranks_.size(); }

    const std::vector<Location>& locations() const { return locations_; }
    const Location& location(LocationId id) const { return locations_[id.value]; }
    RankId rankOf(LocationId id) const { return locations_[id.value].rank; }

    const std::vector<Communicator>& communicators() const { return comms_; }
    const Communicator& communicator(CommId id) const { return comms_[id.value]; }
    /// The communicator holding every rank in order (MPI_COMM_WORLD), if the trace defines one.
    CommId worldCommunicator() const { return world_; }

    /// Events of one location.
    const EventStream& events(LocationId id) const { return streams_[id.value]; }
    /// Events of a rank's main (MPI) location.
    const EventStream& rankEvents(RankId id) const { return events(ranks_[id.value].mainLocation); }

    const std::vector<Message>& messages() const { return messages_; }
    const Message& message(MessageId id) const { return messages_[id.value]; }
    /// World rank of a message's sender, also for an unmatched receive.
    RankId messageSender(const Message& m) const
    {
        return m.sendLocation.valid() ? rankOf(m.sendLocation) : RankId(m.sendEvent);
    }
    /// World rank of a message's receiver, also for an unmatched send.
    RankId messageReceiver(const Message& m) const
    {
        return m.recvLocation.valid() ? rankOf(m.recvLocation) : RankId(m.recvEvent);
    }

    /// Per message (MessageId order): how long a simulated network's contention delayed it, in
    /// ns (the OTF2 attribute NETWORK_CONTENTION_NS of its receive); empty when no simulation
    /// measured it, 0 for a message that carried no value.
    const std::vector<int64_t>& messageContentionNs() const { return messageContention_; }

    const std::vector<CollectiveInstance>& collectives() const { return collectives_; }
    const std::vector<CollectiveMember>& collectiveMembers() const { return members_; }
    const CollectiveInstance& collective(CollectiveId id) const { return collectives_[id.value]; }

    const std::vector<MiscEvent>& miscEvents() const { return misc_; }

    /// Metric members (hardware counters), by MetricId.
    const std::vector<Metric>& metrics() const { return metrics_; }
    const Metric& metric(MetricId id) const { return metrics_[id.value]; }
    std::string_view metricName(MetricId id) const { return str(metrics_[id.value].name); }
    /// Every location's metric samples, ordered by location, then metric.
    const std::vector<MetricColumn>& metricColumns() const { return metricColumns_; }
    /// The samples of `metric` on `loc`, or nullptr when it has none.
    const MetricColumn* metricColumn(LocationId loc, MetricId metric) const;
    /// Metric records read (one per record, whatever its member count); part of eventCount().
    uint64_t metricRecords() const { return metricRecords_; }
    /// Metric records read on one location.
    uint64_t metricRecords(LocationId loc) const
    {
        return loc.value < metricRecordsByLocation_.size() ? metricRecordsByLocation_[loc.value]
                                                           : 0;
    }

    const TraceDiagnostics& diagnostics() const { return diagnostics_; }
    /// Marks a trace computed from a partial one (a replay, a prediction) partial, with the
    /// warning saying from what, first; writers then mark their output (partialmark.h).
    void markComputedFromPartial(std::string warning)
    {
        diagnostics_.partial = true;
        diagnostics_.warnings.insert(diagnostics_.warnings.begin(), std::move(warning));
    }

    /// Events over all locations, metric records included (as otf2-print lists them).
    uint64_t eventCount() const;
    /// Earliest and latest timestamp over all locations (0, 0 when empty).
    int64_t beginTime() const { return begin_; }
    int64_t endTime() const { return end_; }
    int64_t duration() const { return end_ - begin_; }

    /// Bytes held by event columns and derived tables (not counting definitions).
    size_t eventMemoryBytes() const;
    /// Everything resident, definitions and strings included.
    size_t memoryBytes() const;

    /// Replaces the times of every location's events and metric samples, as a clock correction
    /// does: `eventTimes[l]` has one non-decreasing time per event of location l,
    /// `metricTimes[k]` one per sample of metricColumns()[k]. Begin and end time follow.
    void setTimes(const std::vector<std::vector<int64_t>>& eventTimes,
                  const std::vector<std::vector<int64_t>>& metricTimes);

    /// Compares definitions, events and derived tables (not provenance or diagnostics).
    bool sameContent(const Trace& o) const;

private:
    friend class TraceBuilder;

    StringPool strings_;
    ClockProperties clock_;
    Provenance provenance_;
    std::vector<Region> regions_;
    std::vector<Rank> ranks_;
    std::vector<Location> locations_;
    std::vector<Communicator> comms_;
    CommId world_;
    std::vector<EventStream> streams_; // indexed by LocationId
    std::vector<Message> messages_;
    std::vector<int64_t> messageContention_;
    std::vector<CollectiveInstance> collectives_;
    std::vector<CollectiveMember> members_;
    std::vector<MiscEvent> misc_;
    std::vector<Metric> metrics_;
    std::vector<MetricColumn> metricColumns_;
    uint64_t metricRecords_ = 0;
    std::vector<uint64_t> metricRecordsByLocation_; // empty when there are none
    TraceDiagnostics diagnostics_;
    int64_t begin_ = 0;
    int64_t end_ = 0;
};

} // namespace rankscope
