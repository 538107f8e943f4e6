#pragma once
// One open trace in its tab: the timeline in the centre, and under it the details of the
// selection beside a set of tabs: the profile table (sorted by exclusive time), the call tree
// beside it, the metrics (counter rows and counter profile, for traces that record counters),
// the wait states (table and per-rank chart), their root causes, the critical-path
// profile, the communication matrix (following the timeline's visible range and rank
// filter; a click on a cell highlights its messages) and the message statistics. Picking a wait or
// a cause in those tables selects it on the timeline and brings it into view.

#include "app/bookmark.h"
#include "app/loadedtrace.h"

#include <QWidget>
#include <utility>
#include <vector>

class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

class QSplitter;
class QShowEvent;
class QResizeEvent;

namespace rankscope {

class CommMatrixPanel;
class CallTreePanel;
class CriticalPathPanel;
class DetailsPane;
class OverviewStrip;
class MessageStatsPanel;
class MetricsPanel;
class ProfileItemModel;
class RootCausePanel;
class TimelineFindBar;
class TimelineView;
class WaitStatePanel;
struct WaitState;

class TraceDocument : public QWidget
{
    Q_OBJECT
public:
    explicit TraceDocument(LoadedTrace data, QWidget* parent = nullptr);

    const LoadedTrace& data() const { return data_; }
    TimelineView* timeline() const { return timeline_; }
    DetailsPane* details() const { return details_; }
    ProfileItemModel* profileModel() const { return profile_; }
    QTableView* profileTable() const { return table_; }
    WaitStatePanel* waitPanel() const { return waits_; }
    RootCausePanel* rootCausePanel() const { return causes_; }
    CommMatrixPanel* matrixPanel() const { return matrix_; }
    CallTreePanel* callTreePanel() const { return callTree_; }
    MessageStatsPanel* messagesPanel() const { return messages_; }
    CriticalPathPanel* criticalPathPanel() const { return criticalPath_; }
    /// The Metrics pane; a tab only when the trace records metrics.
    MetricsPanel* metricsPanel() const { return metrics_; }
    QTabWidget* panes() const { return panes_; }
    /// Makes `pane` the current tab; for a pane a result summary cannot fill, the note that
    /// stands in for it (then false).
    bool showPane(QWidget* pane);
    /// The find bar over the timeline (Ctrl+F).
    TimelineFindBar* findBar() const { return findBar_; }

    /// Selects the call holding `wait` and brings it into view.
    void showWait(const WaitState& wait);
    /// Selects the last instance of `function` on `rank` before the end of `wait` (the late
    /// computation that caused it) and brings it into view together with the wait.
    void showCause(RegionId function, RankId rank, const WaitState& wait);

    /// Selects the longest MPI call other than MPI_Init/MPI_Finalize (a useful first look, e.g.
    /// for screenshots; one pass over every rank's events); false when there is none.
    bool selectLongestMpiCall();

    /// Highlights the messages from `senders` to `receivers` on the timeline (a communication
    /// matrix cell) and selects the first of them sent in the visible range; false when none is.
    bool showMessages(const std::vector<RankId>& senders, const std::vector<RankId>& receivers);

    /// The bookmarks of this trace (BookmarkController edits them), in the order made.
    const std::vector<Bookmark>& bookmarks() const { return bookmarks_; }
    /// The overview strip above the timeline (it draws the bookmarks).
    OverviewStrip* overview() const { return overview_; }
    void setBookmarks(std::vector<Bookmark> bookmarks);

    /// The timeline's share of the document's height (0..1) after the first show: the saved
    /// layout when there is one, else kTimelineShare.
    double timelineShare() const;
    static constexpr double kTimelineShare = 0.68;

signals:
    void bookmarksChanged();
    /// The user asked, from a pane a result summary cannot fill, for ranks of the trace.
    void loadRanksRequested();
    /// Bookmark `index` was clicked on the overview strip (BookmarkController shows it).
    void bookmarkActivated(int index);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// In place of a pane that needs single events: what it needs, and a way to load them.
    QWidget* summaryNote(const QString& needs);
    std::vector<std::pair<QWidget*, QWidget*>> standIns_; ///< (pane, the note in its tab)

    LoadedTrace data_;
    TimelineView* timeline_;
    OverviewStrip* overview_ = nullptr;
    DetailsPane* details_;
    ProfileItemModel* profile_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    WaitStatePanel* waits_;
    RootCausePanel* causes_;
    CommMatrixPanel* matrix_;
    CallTreePanel* callTree_;
    CriticalPathPanel* criticalPath_;
    MetricsPanel* metrics_;
    MessageStatsPanel* messages_;
    QTabWidget* panes_;
    TimelineFindBar* findBar_;
    QSplitter* split_ = nullptr;
    std::vector<Bookmark> bookmarks_;
    bool sized_ = false;
    double share_ = kTimelineShare; ///< kept when the document is resized
    void applyShare();
};

} // namespace rankscope
