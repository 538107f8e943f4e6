#include "importers/rsum/resultsummary.h"
#include "model/analysis/runspan.h"
#include "model/trace/mpilifecycle.h"

namespace rankscope {

ResultSummary summarizeWholeTrace(std::shared_ptr<const Trace> trace, const std::string& source,
                                  const WaitStateOptions& waitOptions,
                                  double hotspotThresholdPercent, unsigned threads)
{
    ResultSummary s;
    const Trace& t = *trace;
    s.source = source;
    s.events = t.eventCount();
    s.sourcePartial = t.diagnostics().partial;
    s.sourceProblems = t.diagnostics().warnings;
    const MpiLifecycle life = MpiLifecycle::of(t);
    s.ranks.reserve(t.rankCount());
    for (uint32_t r = 0; r < t.rankCount(); ++r) {
        RankShare share;
        share.profile = computeRankProfile(t, RankId(r));
        share.intervals = computeRankIntervals(t, RankId(r));
        share.span = rankSpan(t, life, RankId(r));
        s.ranks.push_back(std::move(share));
    }
    s.waits = analyzeWaitStates(t, waitOptions);
    RootCauseOptions causes;
    causes.hotspotThresholdPercent = hotspotThresholdPercent;
    s.rootCauses = analyzeRootCauses(t, s.waits, causes);
    s.timeline = TimelineSummary::build(t, {}, threads);
    s.waitSummary = WaitSummary::build(s.waits, t.rankCount(), t.beginTime(), t.endTime());
    s.waits.rows = waitRows(s.waits);
    s.waits.waits.clear();
    s.waits.waits.shrink_to_fit();
    s.trace = std::move(trace);
    return s;
}

} // namespace rankscope
