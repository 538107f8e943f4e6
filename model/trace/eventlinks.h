#pragma once
// Links from one event of a location to another, kept in the linking event's 28-bit reference
// while a trace is built (see tracebuilder_p.h): the distance between the two events, or 0 when
// the distance does not fit (more than `maxDistance` events apart), with the pair then kept in a
// small side table. A reference of kNoEventRef means "no link".

#include "model/trace/eventstream.h"
#include "model/trace/message.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace rankscope {

class EventLinks
{
public:
    /// `maxDistance` (at most kMaxEventRef) is only lowered by tests, to reach the side table.
    explicit EventLinks(uint32_t maxDistance = kMaxEventRef) : maxDistance_(maxDistance) {}

    /// Makes `holder`'s reference lead to `target` (another event of the same location).
    void link(EventStream& es, uint32_t holder, uint32_t target)
    {
        const uint32_t d = holder > target ? holder - target : target - holder;
        if (d <= maxDistance_) {
            es.setRef(holder, d);
        } else {
            es.setRef(holder, 0);
            far_.emplace_back(holder, target);
        }
    }

    /// Call once all links are made, before linked().
    void sort() { std::sort(far_.begin(), far_.end()); }

    /// The event `holder`'s reference leads to (`forward`: to a later event, else to an earlier
    /// one; the holder's kind says which), or kNoEvent when it has no link.
    uint32_t linked(const EventStream& es, uint32_t holder, bool forward) const
    {
        const uint32_t d = es.ref(holder);
        if (d == kNoEventRef) return kNoEvent;
        if (d != 0) return forward ? holder + d : holder - d;
        const auto it =
            std::lower_bound(far_.begin(), far_.end(), std::pair<uint32_t, uint32_t>(holder, 0));
        return it != far_.end() && it->first == holder ? it->second : kNoEvent;
    }

private:
    std::vector<std::pair<uint32_t, uint32_t>> far_; ///< (holder, target), sorted by sort()
    uint32_t maxDistance_;
};

} // namespace rankscope
