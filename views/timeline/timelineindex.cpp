#include "views/timeline/timelineindex.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callrecord.h"

namespace rankscope {

std::shared_ptr<const TimelineIndex> TimelineIndex::build(const Trace& trace)
{
    auto index = std::make_shared<TimelineIndex>();
    index->checkpoints.build(trace);
    index->messages.build(trace);
    index->mpiTime.assign(trace.rankCount(), 0);
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        while (scanner.next(call))
            index->mpiTime[r] += call.duration();
    }
    return index;
}

} // namespace rankscope
