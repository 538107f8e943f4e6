#pragma once
// The analysis a trace gets when it is opened, one Qt-free pipeline for the GUI's loader, the
// what-if results and the command line: the level-of-detail summary for the timeline, the
// profile and the call-path profile, wait states (default eager limit), the critical path over
// them and their root causes (default hotspot threshold), the wait summary for drawing waits
// zoomed out, the counter profile (metrics), the message statistics, and the headline numbers.

#include "model/analysis/messagestats.h"
#include "model/metrics/metricprofile.h"
#include "model/profile/calltree.h"
#include "model/profile/profile.h"
#include "model/profile/timelinesummary.h"
#include "model/profile/tracesummary.h"
#include "model/trace/trace.h"
#include "model/waits/criticalpath.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"
#include "model/waits/waitsummary.h"

#include <functional>
#include <memory>

namespace rankscope {

struct TraceAnalysis
{
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineSummary> timeline;
    std::shared_ptr<const Profile> profile;
    std::shared_ptr<const CallTree> callTree;
    std::shared_ptr<const WaitStateAnalysis> waits;
    std::shared_ptr<const CriticalPath> criticalPath;
    std::shared_ptr<const RootCauseReport> rootCauses;
    std::shared_ptr<const WaitSummary> waitSummary;
    std::shared_ptr<const MetricProfile> metrics;      ///< counters per region (empty without any)
    std::shared_ptr<const MessageStatistics> messages; ///< message size/time/bandwidth
    TraceSummary headline;
};

/// Shares of the pipeline's passes in its progress (they add up to 1): the timeline summary,
/// the profile, the call tree, the wait states, the critical path, the message statistics, then
/// the root causes and the wait summary.
struct AnalysisShares
{
    static constexpr double kSummary = 0.3;
    static constexpr double kProfile = 0.15;
    static constexpr double kCallTree = 0.1;
    static constexpr double kWaits = 0.2;
    static constexpr double kCriticalPath = 0.1;
    static constexpr double kMessages = 0.05;
};

/// Runs the passes on `trace` in order. `keepGoing` receives the fraction done (0..1, not
/// decreasing, 1 at the end) and returns false to stop: then throws Cancelled. `threads` is
/// for the timeline summary (0: one per core).
TraceAnalysis analyseTrace(std::shared_ptr<const Trace> trace,
                           const std::function<bool(double)>& keepGoing = {}, unsigned threads = 0);

} // namespace rankscope
