#include "model/analysis/usefultime.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/trace.h"

#include <algorithm>

namespace rankscope {

UsefulTime usefulTime(const Trace& trace)
{
    UsefulTime u;
    u.span = runSpan(trace);
    u.perRank.assign(trace.rankCount(), 0);
    const int64_t start = u.span.startNs;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        const RankSpan& rs = u.span.ranks[r];
        if (!rs.hasEvents || rs.endNs <= start) continue;
        const int64_t end = rs.endNs;
        int64_t mpi = 0;
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        while (scanner.next(call)) {
            if (call.enterTime >= end) break;
            const int64_t from = std::max(call.enterTime, start);
            const int64_t to = std::min(call.leaveTime, end);
            if (to > from) mpi += to - from;
        }
        u.perRank[r] = (end - start) - mpi;
    }
    return u;
}

} // namespace rankscope
