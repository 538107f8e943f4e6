#pragma once
// What the user picked on a timeline: one region instance on one rank (and, when the pick was a
// message line or a point-to-point call, its message).

#include "model/trace/ids.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

struct TimelineSelection
{
    RankId rank;
    LocationId location;
    uint32_t enterEvent = 0xFFFFFFFFu; ///< Enter of the picked region instance
    uint32_t leaveEvent = 0xFFFFFFFFu; ///< its Leave (0xFFFFFFFF when unclosed)
    RegionId region;
    MessageId message; ///< valid when a message was picked

    bool valid() const { return rank.valid(); }
    bool operator==(const TimelineSelection& o) const
    {
        return std::tie(rank, location, enterEvent, leaveEvent, region, message) ==
               std::tie(o.rank, o.location, o.enterEvent, o.leaveEvent, o.region, o.message);
    }
};

} // namespace rankscope
