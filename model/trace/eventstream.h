#pragma once
// The events of one location, in time-sorted columns (struct of arrays).
//
// Per event: a timestamp (TimeColumn, ~4 bytes) and one packed 32-bit word holding the kind
// (high 4 bits) and one reference (low 28 bits): a RegionId for Enter/Leave, a MessageId for
// point-to-point events, a CollectiveId for collective begin/end, an index into the trace's
// misc-event table for everything else. So a resident event costs ~8 bytes.

#include "model/trace/ids.h"
#include "model/trace/timecolumn.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rankscope {

enum class EventKind : uint8_t
{
    Enter = 0,
    Leave = 1,
    MpiSend = 2,             ///< blocking send; ref = MessageId
    MpiIsend = 3,            ///< non-blocking send posted; ref = MessageId
    MpiIsendComplete = 4,    ///< non-blocking send completed; ref = MessageId
    MpiIrecvRequest = 5,     ///< non-blocking receive posted; ref = MessageId
    MpiRecv = 6,             ///< blocking receive completed; ref = MessageId
    MpiIrecv = 7,            ///< non-blocking receive completed; ref = MessageId
    MpiRequestTest = 8,      ///< unsuccessful test of a request; ref = MessageId (or invalid)
    MpiRequestCancelled = 9, ///< request cancelled; ref = MessageId (or invalid)
    MpiCollectiveBegin = 10, ///< ref = CollectiveId
    MpiCollectiveEnd = 11,   ///< ref = CollectiveId
    Misc = 12,               ///< ref = index into Trace::miscEvents()
};
inline constexpr int kEventKindCount = 13;

bool isPointToPoint(EventKind k);

/// Largest reference a packed event can hold; the all-ones value means "none".
inline constexpr uint32_t kMaxEventRef = (1u << 28) - 2;
inline constexpr uint32_t kNoEventRef = (1u << 28) - 1;

/// A source position attached to one event (Score-P's SOURCE_CODE_LOCATION attribute).
struct SourceLocation
{
    StringId file;
    uint32_t line = 0;
    bool operator==(const SourceLocation&) const = default;
};

class EventStream
{
public:
    size_t size() const { return time_.size(); }
    bool empty() const { return time_.empty(); }
    int64_t time(size_t i) const { return time_[i]; }
    EventKind kind(size_t i) const { return static_cast<EventKind>(packed_[i] >> 28); }
    /// The raw 28-bit reference; kNoEventRef when the event refers to nothing.
    uint32_t ref(size_t i) const { return packed_[i] & kNoEventRef; }
    RegionId region(size_t i) const { return RegionId(ref(i)); }
    MessageId message(size_t i) const { return refAs<MessageId>(i); }
    CollectiveId collective(size_t i) const { return refAs<CollectiveId>(i); }

    const TimeColumn& times() const { return time_; }
    /// Index range [first, last) of the events with begin <= time < end.
    std::pair<size_t, size_t> window(int64_t begin, int64_t end) const
    {
        return {time_.lowerBound(begin), time_.lowerBound(end)};
    }
    /// Source location of event i if the trace recorded one.
    const SourceLocation* sourceLocation(size_t i) const;
    const std::vector<std::pair<uint32_t, SourceLocation>>& sourceLocations() const
    {
        return sourceLocations_;
    }

    // Building (TraceBuilder and importers).
    void reserve(size_t n);
    void append(int64_t t, EventKind k, uint32_t ref)
    {
        time_.push_back(t);
        packed_.push_back((uint32_t(k) << 28) | (ref & kNoEventRef));
    }
    void setRef(size_t i, uint32_t ref);
    /// Replaces every event's time (same count, non-decreasing): clock correction.
    void setTimes(const std::vector<int64_t>& times);
    void addSourceLocation(uint32_t eventIndex, SourceLocation loc);
    void shrinkToFit();

    size_t memoryBytes() const;
    bool operator==(const EventStream& o) const;

private:
    template <class Id> Id refAs(size_t i) const
    {
        const uint32_t r = ref(i);
        return r == kNoEventRef ? Id() : Id(r);
    }

    TimeColumn time_;
    std::vector<uint32_t> packed_;
    std::vector<std::pair<uint32_t, SourceLocation>> sourceLocations_; // sorted by event index
};

} // namespace rankscope
