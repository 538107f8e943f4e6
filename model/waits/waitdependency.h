#pragma once
// The partner call a waiting MPI call depends on (ALGORITHMS.md §6.1): the waiting call (p, i)
// cannot complete before the call (q, k) is entered. Internal to the wait-state analysis.

#include "model/trace/ids.h"
#include "model/trace/message.h"
#include "model/waits/waitstates.h"

#include <cstdint>

namespace rankscope {

struct WaitDependency
{
    WaitPattern pattern = WaitPattern::LateSender;
    RankId cause;                   ///< q
    uint32_t causeEvent = kNoEvent; ///< Enter of (q, k) on q's main location
    int64_t causeEnter = 0;         ///< Enter(q, k)

    bool valid() const { return causeEvent != kNoEvent; }
    /// Keeps the later of two dependencies: a call waits until its last partner arrives, so a
    /// Waitall over several late senders is charged to the latest one (as Scalasca does), and a
    /// call never gets two overlapping waits.
    void keepLatest(const WaitDependency& d)
    {
        if (d.valid() && (!valid() || d.causeEnter > causeEnter)) *this = d;
    }
};

} // namespace rankscope
