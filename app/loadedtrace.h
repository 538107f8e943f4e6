#pragma once
// Everything one background load produces for a document: the trace, its level-of-detail
// summary for the timeline, its profile and its headline numbers. Shared pointers to const:
// views read them from the GUI thread after the job has finished, never while it runs.

#include "model/analysis/messagestats.h"
#include "model/matching/clockcorrection.h"
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
#include "views/timeline/timelineindex.h"

#include <QMetaType>
#include <QString>
#include <memory>

namespace rankscope {

struct LoadedTrace
{
    QString path; ///< as the user gave it (anchor file or folder)
    QString name; ///< short name for tabs and titles (the trace's folder)
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineSummary> timeline;
    std::shared_ptr<const TimelineIndex> timelineIndex; ///< built here, off the GUI thread
    std::shared_ptr<const Profile> profile;
    std::shared_ptr<const CallTree> callTree; ///< the call-path profile
    /// Wait states (default eager limit) and their root causes (default hotspot threshold).
    std::shared_ptr<const WaitStateAnalysis> waits;
    std::shared_ptr<const RootCauseReport> rootCauses;
    std::shared_ptr<const CriticalPath> criticalPath;  ///< over the wait states above
    std::shared_ptr<const WaitSummary> waitSummary;    ///< for drawing waits zoomed out
    std::shared_ptr<const MetricProfile> metrics;      ///< hardware counters per region
    std::shared_ptr<const MessageStatistics> messages; ///< size/time/bandwidth histograms
    TraceSummary headline;
    /// Set when the clocks were corrected after loading (Analysis > Correct Clocks): what moved.
    std::shared_ptr<const ClockCorrection> clockCorrection;
    /// With clockCorrection: the trace as loaded, to switch back without reading it again.
    std::shared_ptr<const LoadedTrace> uncorrected;
    /// Opened from a result summary (.rsum): `trace` holds definitions only, the analyses are
    /// the stored ones, and single events need the summarised trace.
    bool fromSummary = false;
    QString summarySource;      ///< the trace the summary was made from, as recorded
    uint64_t summaryEvents = 0; ///< that trace's events
    /// Loaded with TraceLoader::loadRanks: only ranks [firstRank, endRank) have events (the
    /// timeline shows just them); both 0 otherwise.
    uint32_t firstRank = 0;
    uint32_t endRank = 0;
};

/// What a load job hands back: the trace, or the importer's message.
struct LoadOutcome
{
    LoadedTrace loaded;
    QString error;          ///< empty on success
    bool cancelled = false; ///< stopped by its progress callback (no error, no trace)
};

} // namespace rankscope

Q_DECLARE_METATYPE(rankscope::LoadedTrace)
