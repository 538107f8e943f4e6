#pragma once
// Whole-trace indexes a TimelineView needs besides the LOD summary: the open-region stack every
// 256 events (to start drawing anywhere), matched messages by send and receive time (to find
// the lines of a window), and MPI time per rank (to order ranks). Building them walks the whole
// trace, so the loader builds them off the GUI thread and hands them to TimelineView::setTrace.

#include "model/trace/trace.h"
#include "views/timeline/messageindex.h"
#include "views/timeline/stackcheckpoints.h"

#include <memory>
#include <vector>

namespace rankscope {

struct TimelineIndex
{
    StackCheckpoints checkpoints;
    MessageIndex messages;
    std::vector<int64_t> mpiTime; ///< per rank: time inside outermost MPI calls

    /// Builds every index of `trace` (seconds for tens of millions of events: not on the GUI
    /// thread).
    static std::shared_ptr<const TimelineIndex> build(const Trace& trace);
};

} // namespace rankscope
