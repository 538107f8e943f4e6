#pragma once
// Collective operation instances, matched across the ranks of a communicator.

#include "model/trace/definitions.h"
#include "model/trace/ids.h"

#include <cstdint>
#include <tuple>

namespace rankscope {

/// One rank's part in one collective instance.
struct CollectiveMember
{
    LocationId location;
    uint32_t beginEvent = 0; ///< index of the MpiCollectiveBegin event in `location`
    uint32_t endEvent = 0;   ///< index of the MpiCollectiveEnd event in `location`
    uint64_t bytesSent = 0;
    uint64_t bytesReceived = 0;

    bool operator==(const CollectiveMember& o) const
    {
        return std::tie(location, beginEvent, endEvent, bytesSent, bytesReceived) ==
               std::tie(o.location, o.beginEvent, o.endEvent, o.bytesSent, o.bytesReceived);
    }
};

/// The k-th collective on a communicator, over all its member ranks.
struct CollectiveInstance
{
    CommId comm;
    CollectiveOp op = CollectiveOp::Other;
    RankId root;              ///< world rank of the root; invalid when the operation has none
    uint32_t firstMember = 0; ///< index into Trace::collectiveMembers()
    uint32_t memberCount = 0;
    bool complete = true; ///< false when some member ranks never took part

    bool operator==(const CollectiveInstance& o) const
    {
        return std::tie(comm, op, root, firstMember, memberCount, complete) ==
               std::tie(o.comm, o.op, o.root, o.firstMember, o.memberCount, o.complete);
    }
};

} // namespace rankscope
