#pragma once
// The rank timeline: one row per rank (or per group of ranks when they do not fit), time on the
// x axis with an adaptive tick axis, regions coloured by role, message lines, hover tooltips,
// click selection, wheel/keyboard/drag zoom and pan. Zoomed out it draws from TimelineSummary
// (one cell per pixel and row); zoomed in it draws the events of the window (two binary searches
// per row), folding what is narrower than a pixel. A frame never walks the whole trace.

#include "model/trace/ids.h"
#include "views/timeline/timelineselection.h"
#include "views/timeline/timemapping.h"

#include <QWidget>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;
class TimelineSummary;
class WaitSummary;
struct WaitStateAnalysis;
struct CriticalPath;
struct TimelineIndex;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    enum class RankOrder
    {
        ByRank,
        ByMpiTime
    };

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows `trace`; `summary` and `index` must have been built from it (all stay alive while
    /// shown). Without `index` it is built here, which takes seconds for tens of millions of
    /// events: pass one built off the GUI thread (TimelineIndex::build) for real traces.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const TimelineSummary> summary,
                  std::shared_ptr<const TimelineIndex> index = {});
    std::shared_ptr<const Trace> trace() const;

    const TimeMapping& mapping() const;
    /// Displayed time = trace time - offset (to align two runs, e.g. at the end of MPI_Init).
    void setTimeOffset(int64_t ns);
    int64_t timeOffset() const;
    /// Lets the view show [beginNs, endNs) of displayed time besides its own run, e.g. the union
    /// of two stacked runs so both share one axis; begin >= end goes back to the run alone.
    void setTimeLimits(double beginNs, double endNs);

    void setShowMessages(bool show);
    bool showMessages() const;
    /// Wait states of the shown trace, drawn over their calls; `summary` (built from `waits` for
    /// this trace) serves zoomed-out frames and is built here when not given. Null: none.
    void setWaitStates(std::shared_ptr<const WaitStateAnalysis> waits,
                       std::shared_ptr<const WaitSummary> summary = {});
    void setShowWaitStates(bool show);
    bool showWaitStates() const;
    /// The critical path of the shown trace, drawn as a line over the rows when shown. Null:
    /// none.
    void setCriticalPath(std::shared_ptr<const CriticalPath> path);
    void setShowCriticalPath(bool show);
    bool showCriticalPath() const;
    void setRankOrder(RankOrder order);
    /// Shows only these ranks, in this order (empty: all ranks in the chosen order).
    void setRankFilter(std::vector<RankId> ranks);
    /// Ranks shown in each row, top to bottom (a row holds several when they are aggregated).
    std::vector<std::vector<RankId>> rows() const;

    TimelineSelection selection() const;
    void setSelection(const TimelineSelection& selection);
    /// What lies under a widget position (invalid selection when nothing).
    TimelineSelection itemAt(QPoint pos) const;
    /// The region instance entered at event `enterEvent` of `rank`'s main location.
    TimelineSelection instanceAt(RankId rank, uint32_t enterEvent) const;
    /// The last instance of `region` on `rank` entered before trace time `before` (invalid when
    /// none within the last `maxEvents` events: the walk is bounded so a click stays quick).
    TimelineSelection lastInstanceBefore(RankId rank, RegionId region, int64_t before,
                                         size_t maxEvents = 4'000'000) const;
    /// Message `id` as a selection of its send call (invalid when the trace has no such message).
    TimelineSelection messageSelection(MessageId id) const;
    /// Draws the messages from any of `senders` to any of `receivers` highlighted (empty:
    /// none), e.g. a communication matrix cell's.
    void setMessageHighlight(std::vector<RankId> senders, std::vector<RankId> receivers);
    /// Highlighted message lines drawn in the last frame.
    size_t highlightedMessageCount() const;
    /// The first highlighted message sent in the visible range, as a selection of its send
    /// call (invalid when none; looks at most at the messages a frame would draw).
    TimelineSelection firstHighlightedMessage() const;
    /// Selects `s` and brings it into view, together with trace time [alsoBegin, alsoEnd) when
    /// that is not empty, with a margin on both sides.
    void reveal(const TimelineSelection& s, int64_t alsoBegin = 0, int64_t alsoEnd = 0);

    /// The area the rows are drawn in (time runs along x); widget coordinates.
    QRect plotArea() const;
    /// Row `row` of rows() in widget coordinates (its time extent is plotArea()'s).
    QRect rowRect(int row) const;

    /// Draws the legend of region colours into `rect` (also used by export).
    void paintLegend(class QPainter& painter, const QRect& rect) const;

public slots:
    /// Shows [begin, end) in displayed time (coupled views call this on each other).
    void setVisibleRange(double beginNs, double endNs);
    void zoomIn();
    void zoomOut();
    void fitToWindow();
    void panLeft();
    void panRight();
    /// Selects the next / previous MPI call on the selected rank and brings it into view.
    void selectNextCall();
    void selectPreviousCall();
    /// Back / Forward through the zoom and pan states the view went through (ZoomHistory;
    /// Alt+Left / Alt+Right, the mouse's back and forward buttons).
    void goBack();
    void goForward();

public:
    bool canGoBack() const;
    bool canGoForward() const;
    /// Selects and brings into view the next (`forward`) or previous occurrence of `query`
    /// (TimelineFinder: a function, call site or rank) after / before the selection, or from
    /// the start / end of the visible range when nothing is selected. Returns a status line
    /// ("MPI_Recv on rank 3 at 1.274320 s", "no later occurrence of ...", or why the query
    /// finds nothing); `found` tells whether something was selected.
    QString find(const QString& query, bool forward, bool* found = nullptr);
    /// Centres the view on displayed time `ns` (clamped to the run), keeping the zoom, and
    /// marks that time with a line until the next Go to Time.
    void goToTime(double ns);
    /// Shows [beginNs, endNs) in displayed time as one step of the zoom history of its own
    /// (Back returns to where the view was), as a bookmark jump does.
    void jumpTo(double beginNs, double endNs);
    /// The time marked by goToTime (NaN when none).
    double markedTime() const;

signals:
    void visibleRangeChanged(double beginNs, double endNs);
    void selectionChanged(const rankscope::TimelineSelection& selection);
    /// The rank filter or order changed (rows() tells the new ranks).
    void displayedRanksChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override; // tooltips

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace rankscope
