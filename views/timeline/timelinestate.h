#pragma once
// State of a TimelineView shared by the widget (timelineview.cpp), its painter
// (timelinepainter.cpp) and its hit-testing and call navigation (timelinepicker.cpp).
// A plain struct: TimelineView::Private derives from it.

#include "model/profile/timelinesummary.h"
#include "model/trace/trace.h"
#include "views/timeline/criticalpathoverlay.h"
#include "views/timeline/messageindex.h"
#include "views/timeline/regionpalette.h"
#include "views/timeline/rowsampler.h"
#include "views/timeline/stackcheckpoints.h"
#include "views/timeline/timelineindex.h"
#include "views/timeline/timelinerows.h"
#include "views/timeline/timelineview.h"
#include "views/waits/waitoverlay.h"

#include <QFont>
#include <QPoint>
#include <QRect>
#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <vector>

namespace rankscope {

struct TimelineState
{
    static constexpr int kAxisHeight = 30;
    static constexpr int kLegendHeight = 26;
    static constexpr int kRightMargin = 12;
    static constexpr size_t kMaxMessageLines = 2000;
    /// Share of the plot's pixels message lines may cover before they are thinned further.
    static constexpr double kMaxMessageInk = 0.06;
    /// Candidates looked at for highlighted messages (the highlighted senders' messages in the
    /// window, sampled evenly when more), so a pair with few messages among many is still found.
    static constexpr size_t kMaxHighlightCandidates = 20000;

    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineSummary> summary;
    TimeMapping mapping; ///< in displayed time (trace time - offset)
    int64_t offset = 0;
    /// Displayed time the view may show besides its run (setTimeLimits); empty when begin >= end.
    std::pair<double, double> extraLimits{0.0, 0.0};
    bool showMessages = true;
    bool showWaits = true;
    WaitOverlay waits; ///< wait states drawn over the calls (empty until setWaitStates)
    bool showCriticalPath = false;
    CriticalPathOverlay criticalPath; ///< empty until setCriticalPath

    TimelineView::RankOrder order = TimelineView::RankOrder::ByRank;
    std::vector<RankId> filter;
    std::vector<RankId> displayed; ///< ranks in display order

    /// Checkpoints, message index, MPI time per rank; never null while a trace is shown.
    std::shared_ptr<const TimelineIndex> index;
    RegionPalette palette;
    RowSampler sampler;
    TimelineRows rows;

    // Geometry: recomputed when the widget's size or the displayed ranks change.
    bool layoutDirty = true;
    QSize layoutSize;
    QRect plot; ///< the rows' area (x: time, y: rows)
    int labelWidth = 80;

    TimelineSelection selection;
    /// Messages from one set of ranks to another drawn highlighted (the communication matrix's
    /// cell); both sorted, empty when nothing is highlighted.
    std::vector<RankId> highlightSenders, highlightReceivers;
    size_t highlightedLines = 0; ///< highlighted lines in the last frame
    /// Whether a message line from `sender` to `receiver` is highlighted.
    bool highlighted(RankId sender, RankId receiver) const
    {
        return std::binary_search(highlightSenders.begin(), highlightSenders.end(), sender) &&
               std::binary_search(highlightReceivers.begin(), highlightReceivers.end(), receiver);
    }

    // Mouse interaction.
    enum class Drag
    {
        None,
        Pan,
        Zoom
    };
    Drag drag = Drag::None;
    QPoint pressPos;
    QPoint dragPos;
    bool dragMoved = false;

    // Last frame's message lines (trace time), for hit-testing what was drawn.
    std::vector<MessageIndex::Line> drawnMessages;
    size_t messageCandidates = 0;
    size_t messageThinning = 1; ///< every k-th sampled line drawn in the last frame (density)

    // Per-frame scratch, sized by pixels, never by events.
    std::vector<RegionId> cells;
    std::array<std::vector<QRect>, RegionPalette::kSlotCount> buckets;

    /// Sets `m`'s limits to the run (in displayed time) widened by extraLimits.
    void applyLimits(TimeMapping& m) const
    {
        if (!trace) return;
        double begin = double(trace->beginTime() - offset);
        double end = double(trace->endTime() - offset);
        if (extraLimits.first < extraLimits.second) {
            begin = std::min(begin, extraLimits.first);
            end = std::max(end, extraLimits.second);
        }
        m.setLimits(begin, end);
    }
    /// Trace time of a displayed time and back.
    double traceTime(double displayedNs) const { return displayedNs + double(offset); }
    double displayedTime(double traceNs) const { return traceNs - double(offset); }
    /// Widget x of a trace time.
    double xOf(double traceNs) const
    {
        return plot.left() + mapping.toPixel(displayedTime(traceNs));
    }
    /// Trace time at widget x.
    double timeAtX(double x) const { return traceTime(mapping.toTime(x - plot.left())); }
    QRect rowRect(int row) const
    {
        const int h = rows.rowHeight();
        return QRect(plot.left(), plot.top() + row * h, plot.width(), h);
    }
};

} // namespace rankscope
