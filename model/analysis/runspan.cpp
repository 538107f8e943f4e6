#include "model/analysis/runspan.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/mpilifecycle.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <climits>

namespace rankscope {

std::string RunSpan::name() const
{
    return std::string(fromInit ? "mpi_init_end" : "first_event") + "_to_" +
           (toFinalize ? "finalize_end" : "last_event");
}

RankSpan rankSpan(const Trace& trace, const MpiLifecycle& life, RankId rank)
{
    RankSpan rs;
    const EventStream& ev = trace.rankEvents(rank);
    if (ev.empty()) return rs;
    rs.hasEvents = true;
    rs.firstEventNs = ev.time(0);
    rs.endNs = ev.time(ev.size() - 1);
    MpiCallScanner scanner(trace, rank);
    CallRecord call;
    int64_t mpi = 0;
    bool seenInit = false;
    while (scanner.next(call)) {
        if (!seenInit && life.isInit(call.region)) {
            seenInit = true;
            rs.initEndNs = call.leaveTime;
            mpi = 0; // only what follows MPI_Init counts
            continue;
        }
        mpi += call.duration();
        if (life.isFinalize(call.region)) {
            rs.finalizeEnterNs = call.enterTime;
            rs.endNs = call.leaveTime;
            rs.finalized = true;
            break;
        }
    }
    rs.mpiNs = mpi;
    return rs;
}

RunSpan runSpan(const Trace& trace)
{
    const MpiLifecycle life = MpiLifecycle::of(trace);
    std::vector<RankSpan> ranks(trace.rankCount());
    for (uint32_t r = 0; r < ranks.size(); ++r)
        ranks[r] = rankSpan(trace, life, RankId(r));
    return combineRankSpans(std::move(ranks));
}

RunSpan combineRankSpans(std::vector<RankSpan> ranks)
{
    RunSpan span;
    span.ranks = std::move(ranks);
    span.traceStartNs = INT64_MAX;
    span.traceEndNs = INT64_MIN;
    span.toFinalize = !span.ranks.empty();
    for (const RankSpan& rs : span.ranks) {
        if (!rs.hasEvents) {
            span.toFinalize = false;
            continue;
        }
        span.traceStartNs = std::min(span.traceStartNs, rs.firstEventNs);
        span.traceEndNs = std::max(span.traceEndNs, rs.endNs);
        span.toFinalize = span.toFinalize && rs.finalized;
    }
    if (span.traceStartNs == INT64_MAX) span.traceStartNs = span.traceEndNs = 0;
    span.startNs = span.traceStartNs;
    span.endNs = span.traceStartNs;
    for (const RankSpan& rs : span.ranks) {
        if (rs.initEndNs >= 0) {
            span.startNs = span.fromInit ? std::max(span.startNs, rs.initEndNs) : rs.initEndNs;
            span.fromInit = true;
        }
        span.endNs = std::max(span.endNs, rs.endNs);
    }
    span.endNs = std::max(span.endNs, span.startNs);
    if (span.toFinalize) {
        int64_t lastEnter = INT64_MIN;
        for (const RankSpan& rs : span.ranks)
            lastEnter = std::max(lastEnter, rs.finalizeEnterNs);
        span.finalizeCostNs = std::max<int64_t>(0, span.endNs - lastEnter);
    }
    return span;
}

} // namespace rankscope
