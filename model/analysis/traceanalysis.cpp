#include "model/analysis/traceanalysis.h"

#include "model/trace/traceerror.h"

#include <thread>

namespace rankscope {

TraceAnalysis analyseTrace(std::shared_ptr<const Trace> trace,
                           const std::function<bool(double)>& keepGoing, unsigned threads)
{
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    TraceAnalysis a;
    double done = 0;
    auto timeline = std::make_shared<TimelineSummary>(TimelineSummary::build(
        *trace, progressSlice(keepGoing, done, done + AnalysisShares::kSummary), threads));
    if (timeline->cancelled()) throw Cancelled();
    done += AnalysisShares::kSummary;

    auto profile = std::make_shared<Profile>(
        computeProfile(*trace, progressSlice(keepGoing, done, done + AnalysisShares::kProfile)));
    if (profile->cancelled) throw Cancelled();
    done += AnalysisShares::kProfile;

    auto callTree = std::make_shared<CallTree>(
        computeCallTree(*trace, progressSlice(keepGoing, done, done + AnalysisShares::kCallTree)));
    if (callTree->cancelled) throw Cancelled();
    done += AnalysisShares::kCallTree;

    WaitStateOptions waitOptions;
    waitOptions.progress = progressSlice(keepGoing, done, done + AnalysisShares::kWaits);
    auto waits = std::make_shared<WaitStateAnalysis>(analyzeWaitStates(*trace, waitOptions));
    if (waits->cancelled) throw Cancelled();
    done += AnalysisShares::kWaits;

    auto path = std::make_shared<CriticalPath>(computeCriticalPath(
        *trace, *waits, progressSlice(keepGoing, done, done + AnalysisShares::kCriticalPath)));
    if (path->cancelled) throw Cancelled();
    done += AnalysisShares::kCriticalPath;

    auto messages = std::make_shared<MessageStatistics>(computeMessageStatistics(
        *trace, progressSlice(keepGoing, done, done + AnalysisShares::kMessages)));
    if (messages->cancelled) throw Cancelled();
    done += AnalysisShares::kMessages;

    RootCauseOptions causeOptions;
    causeOptions.progress = progressSlice(keepGoing, done, 1.0);
    auto causes =
        std::make_shared<RootCauseReport>(analyzeRootCauses(*trace, *waits, causeOptions));
    if (causes->cancelled) throw Cancelled();
    a.waitSummary = std::make_shared<WaitSummary>(
        WaitSummary::build(*waits, trace->rankCount(), trace->beginTime(), trace->endTime()));
    if (keepGoing && !keepGoing(1.0)) throw Cancelled();

    // One pass per metric column over its location's events: cheap next to the passes above.
    a.metrics = std::make_shared<MetricProfile>(computeMetricProfile(*trace));
    a.headline = summarizeTrace(*trace);
    a.trace = std::move(trace);
    a.timeline = std::move(timeline);
    a.profile = std::move(profile);
    a.callTree = std::move(callTree);
    a.criticalPath = std::move(path);
    a.waits = std::move(waits);
    a.messages = std::move(messages);
    a.rootCauses = std::move(causes);
    return a;
}

} // namespace rankscope
