#include "app/tracedocument.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/mpilifecycle.h"
#include "views/matrix/commmatrixpanel.h"
#include "views/matrix/commmatrixview.h"
#include "views/metrics/metricrateview.h"
#include "views/metrics/metricspanel.h"
#include "views/panes/calltreepanel.h"
#include "views/panes/criticalpathpanel.h"
#include "views/panes/detailspane.h"
#include "views/panes/itemviewtext.h"
#include "views/panes/messagestatspanel.h"
#include "views/panes/profileitemmodel.h"
#include "views/timeline/overviewstrip.h"
#include "views/timeline/timelinefindbar.h"
#include "views/timeline/timelineview.h"
#include "views/waits/rootcausepanel.h"
#include "views/waits/waitstatepanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QSplitterHandle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>
#include <tuple>

namespace rankscope {

namespace {
/// Settings key of the timeline's share of a document's height, as the user last dragged it.
const QString kSplitKey = QStringLiteral("layout/timelineShare");
} // namespace

TraceDocument::TraceDocument(LoadedTrace data, QWidget* parent)
    : QWidget(parent), data_(std::move(data)), timeline_(new TimelineView(this)),
      details_(new DetailsPane(this)), profile_(new ProfileItemModel(this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView(this)),
      waits_(new WaitStatePanel(this)), causes_(new RootCausePanel(this)),
      matrix_(new CommMatrixPanel(this)), callTree_(new CallTreePanel(this)),
      criticalPath_(new CriticalPathPanel(this)), metrics_(new MetricsPanel(this)),
      messages_(new MessageStatsPanel(this)), panes_(new QTabWidget(this)),
      findBar_(new TimelineFindBar(timeline_, this))
{
    timeline_->setTrace(data_.trace, data_.timeline, data_.timelineIndex);
    timeline_->setWaitStates(data_.waits, data_.waitSummary);
    timeline_->setCriticalPath(data_.criticalPath);
    details_->setTrace(data_.trace);
    connect(timeline_, &TimelineView::selectionChanged, details_, &DetailsPane::setSelection);

    profile_->setProfile(data_.trace, data_.profile);
    sorted_->setSourceModel(profile_);
    sorted_->setSortRole(ProfileItemModel::SortRole);
    table_->setModel(sorted_);
    ItemViewText::install(table_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ProfileItemModel::ExclusiveColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(ProfileItemModel::RegionColumn,
                                                     QHeaderView::Stretch);
    table_->setToolTip(tr("Flat profile over all ranks; click a header to sort"));

    waits_->setAnalysis(data_.trace, data_.waits);
    if (data_.profile) {
        int64_t mpi = 0;
        for (const RankProfile& r : data_.profile->ranks)
            mpi += r.mpiTime;
        waits_->setMpiTimeNs(mpi);
    }
    causes_->setReport(data_.trace, data_.waits, data_.rootCauses);
    connect(waits_, &WaitStatePanel::waitRequested, this, &TraceDocument::showWait);
    connect(causes_, &RootCausePanel::waitRequested, this, &TraceDocument::showWait);
    connect(causes_, &RootCausePanel::causeRequested, this, &TraceDocument::showCause);

    // The matrix follows what the timeline shows: its time range and its ranks, in its order.
    matrix_->setTrace(data_.trace);
    auto displayedRanks = [this] {
        std::vector<RankId> ranks;
        for (const std::vector<RankId>& row : timeline_->rows())
            ranks.insert(ranks.end(), row.begin(), row.end());
        return ranks;
    };
    matrix_->setRanks(displayedRanks());
    connect(timeline_, &TimelineView::displayedRanksChanged, matrix_,
            [this, displayedRanks] { matrix_->setRanks(displayedRanks()); });
    // The counter rows follow the timeline too: its rows and its range.
    metrics_->setProfile(data_.trace, data_.metrics);
    metrics_->rateView()->setRows(timeline_->rows());
    // On the timeline's time axis: the counter under an event is at the event's x.
    metrics_->rateView()->setAxis([this] {
        const QRect plot = timeline_->plotArea();
        const int left = timeline_->mapToGlobal(plot.topLeft()).x();
        return std::pair(left, left + plot.width());
    });
    connect(timeline_, &TimelineView::displayedRanksChanged, metrics_,
            [this] { metrics_->rateView()->setRows(timeline_->rows()); });
    connect(timeline_, &TimelineView::visibleRangeChanged, metrics_,
            [this](double begin, double end) {
                const double offset = double(timeline_->timeOffset());
                metrics_->rateView()->setTimeRange(int64_t(std::floor(begin + offset)),
                                                   int64_t(std::ceil(end + offset)) + 1);
            });
    connect(timeline_, &TimelineView::visibleRangeChanged, matrix_,
            [this](double begin, double end) {
                const double offset = double(timeline_->timeOffset());
                // [begin, end] of what is drawn, so the whole run includes its last event.
                matrix_->setTimeRange(int64_t(std::floor(begin + offset)),
                                      int64_t(std::ceil(end + offset)) + 1);
            });
    connect(matrix_, &CommMatrixPanel::cellClicked, this, &TraceDocument::showMessages);

    callTree_->setTree(data_.trace, data_.callTree);
    criticalPath_->setPath(data_.trace, data_.criticalPath);
    messages_->setStatistics(data_.messages);

    // The call tree goes beside the flat profile.
    panes_->addTab(table_, tr("Profile"));
    panes_->addTab(callTree_, tr("Call Tree"));
    if (data_.trace && !data_.trace->metrics().empty()) {
        panes_->addTab(metrics_, tr("Metrics"));
        panes_->setTabToolTip(panes_->indexOf(metrics_),
                              tr("Hardware counters: their rate per rank over the visible "
                                 "range, and the counter delta per region"));
    } else {
        metrics_->hide();
    }
    panes_->addTab(waits_, tr("Wait States"));
    panes_->addTab(causes_, tr("Root Causes"));
    if (data_.fromSummary) {
        // A result summary keeps no messages and no single events: these panes would show
        // zeros ("0 messages", "0 ns over 0 segments") as if the run had none.
        for (auto [pane, title, needs] :
             {std::tuple<QWidget*, QString, QString>{
                  criticalPath_, tr("Critical Path"),
                  tr("The critical path follows single events and messages")},
              {matrix_, tr("Communication Matrix"), tr("The communication matrix counts messages")},
              {messages_, tr("Message Statistics"),
               tr("The message histograms need every message")}}) {
            pane->hide();
            QWidget* note = summaryNote(needs);
            standIns_.emplace_back(pane, note);
            panes_->addTab(note, title);
        }
    } else {
        panes_->addTab(criticalPath_, tr("Critical Path"));
        panes_->addTab(matrix_, tr("Communication Matrix"));
        panes_->addTab(messages_, tr("Message Statistics"));
    }
    panes_->setTabToolTip(panes_->indexOf(messages_),
                          tr("Histograms of message size, transfer time and bandwidth, over all "
                             "messages, per call site and per communicator"));
    panes_->setTabToolTip(panes_->indexOf(callTree_),
                          tr("Call-path profile: time per call path as a tree, with the "
                             "selected path's time per rank"));
    panes_->setTabToolTip(panes_->indexOf(waits_),
                          tr("Where ranks waited for each other, by pattern, call site and "
                             "rank; select a row to see its longest wait on the timeline"));
    panes_->setTabToolTip(panes_->indexOf(causes_),
                          tr("Which computation made the late ranks late (hotspot model); "
                             "select a row to see it on the timeline"));
    panes_->setTabToolTip(panes_->indexOf(criticalPath_),
                          tr("The chain of computation and communication that determines "
                             "the run time, per function (press C to draw it)"));
    panes_->setTabToolTip(panes_->indexOf(matrix_),
                          tr("Messages, bytes and transfer times per sender and receiver "
                             "rank, over the visible time range and ranks; click a cell to "
                             "highlight its messages on the timeline"));
    panes_->setDocumentMode(true);

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(details_);
    bottom->addWidget(panes_);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    bottom->setSizes({480, 1440}); // the panes' size hints would squeeze the details otherwise
    bottom->setChildrenCollapsible(false);

    // The find bar sits over the timeline it searches, hidden until Ctrl+F.
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(findBar_);
    overview_ = new OverviewStrip(timeline_, top);
    overview_->setTrace(data_.trace, data_.timeline);
    topLayout->addWidget(overview_);
    // A bookmark clicked on the strip is shown as the panel and menu show one.
    connect(overview_, &OverviewStrip::markActivated, this, &TraceDocument::bookmarkActivated);
    topLayout->addWidget(timeline_, 1);
    split_ = new QSplitter(Qt::Vertical, this);
    split_->addWidget(top);
    split_->addWidget(bottom);
    // The timeline is what users look at: it gets most of the height (showEvent sets the
    // first sizes, as the panes' tables would otherwise claim their large size hints), and
    // extra height when the window grows. The handle is wide and drawn so it can be found.
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 0);
    split_->setChildrenCollapsible(false);
    split_->setHandleWidth(7);
    split_->setObjectName(QStringLiteral("documentSplitter"));
    split_->setStyleSheet(QStringLiteral(
        "QSplitter#documentSplitter::handle { background: palette(midlight);"
        " border-top: 1px solid palette(mid); border-bottom: 1px solid palette(mid); }"
        "QSplitter#documentSplitter::handle:hover { background: palette(highlight); }"));
    split_->handle(1)->setToolTip(tr("Drag to share the height between the timeline and the "
                                     "panes (remembered for the next trace)"));
    connect(split_, &QSplitter::splitterMoved, this, [this] {
        const QList<int> sizes = split_->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        if (total <= 0) return;
        share_ = double(sizes.value(0)) / total;
        QSettings().setValue(kSplitKey, share_);
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split_);
}

double TraceDocument::timelineShare() const
{
    const QList<int> sizes = split_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    return total > 0 ? double(sizes.value(0)) / total : 0.0;
}

void TraceDocument::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (sized_) return;
    sized_ = true;
    bool ok = false;
    const double saved = QSettings().value(kSplitKey).toDouble(&ok);
    share_ = ok && saved >= 0.2 && saved <= 0.95 ? saved : kTimelineShare;
    applyShare();
}

void TraceDocument::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (sized_) applyShare(); // the share stays as set when the window grows or shrinks
}

void TraceDocument::applyShare()
{
    const int total = std::max(1, height() - split_->handleWidth());
    const int top = int(std::lround(share_ * total));
    split_->setSizes({top, total - top});
}

void TraceDocument::showWait(const WaitState& wait)
{
    const TimelineSelection call = timeline_->instanceAt(wait.rank, wait.enterEvent);
    timeline_->reveal(call); // the details pane follows the timeline's selection
}

void TraceDocument::showCause(RegionId function, RankId rank, const WaitState& wait)
{
    const TimelineSelection late = timeline_->lastInstanceBefore(rank, function, wait.end);
    if (!late.valid()) {
        showWait(wait); // not found near the wait: the wait still tells the story
        return;
    }
    timeline_->reveal(late, wait.begin, wait.end);
}

bool TraceDocument::selectLongestMpiCall()
{
    const Trace& trace = *data_.trace;
    // MPI_Init and MPI_Finalize are long but say little; prefer the longest call between them.
    const MpiLifecycle lifecycle = MpiLifecycle::of(trace);
    TimelineSelection best;
    int64_t longest = -1;
    for (uint32_t r = 0; r < trace.rankCount(); ++r) {
        MpiCallScanner scanner(trace, RankId(r));
        CallRecord call;
        while (scanner.next(call)) {
            if (call.duration() <= longest || lifecycle.isInit(call.region) ||
                lifecycle.isFinalize(call.region))
                continue;
            longest = call.duration();
            best.rank = RankId(r);
            best.location = trace.rank(RankId(r)).mainLocation;
            best.enterEvent = call.enterEvent;
            best.leaveEvent = call.leaveEvent;
            best.region = call.region;
        }
    }
    if (!best.valid()) return false;
    timeline_->setSelection(best);
    details_->setSelection(best);
    return true;
}

bool TraceDocument::showMessages(const std::vector<RankId>& senders,
                                 const std::vector<RankId>& receivers)
{
    timeline_->setMessageHighlight(senders, receivers);
    const TimelineSelection first = timeline_->firstHighlightedMessage();
    if (!first.valid()) return false;
    // Selected in place: bringing it into view would move the range the matrix shows.
    timeline_->setSelection(first);
    return true;
}

void TraceDocument::setBookmarks(std::vector<Bookmark> bookmarks)
{
    if (bookmarks == bookmarks_) return;
    bookmarks_ = std::move(bookmarks);
    std::vector<OverviewStrip::Mark> marks;
    for (const Bookmark& b : bookmarks_)
        marks.push_back({QString::fromStdString(b.name), b.begin, b.end});
    overview_->setMarks(std::move(marks));
    emit bookmarksChanged();
}

bool TraceDocument::showPane(QWidget* pane)
{
    for (const auto& [real, note] : standIns_)
        if (real == pane) {
            panes_->setCurrentWidget(note);
            return false;
        }
    panes_->setCurrentWidget(pane);
    return true;
}

QWidget* TraceDocument::summaryNote(const QString& needs)
{
    auto* note = new QWidget(this);
    note->setObjectName(QStringLiteral("summaryNote"));
    auto* text = new QLabel(
        tr("%1, which a result summary (.rsum) does not keep.\nFile > Load Ranks from Trace "
           "opens ranks of the trace it was made from.")
            .arg(needs),
        note);
    text->setAlignment(Qt::AlignCenter);
    text->setWordWrap(true);
    auto* load = new QPushButton(tr("Load Ranks from Trace… (Ctrl+Shift+L)"), note);
    load->setObjectName(QStringLiteral("summaryLoadRanks"));
    connect(load, &QPushButton::clicked, this, &TraceDocument::loadRanksRequested);
    auto* layout = new QVBoxLayout(note);
    layout->addStretch();
    layout->addWidget(text);
    layout->addWidget(load, 0, Qt::AlignCenter);
    layout->addStretch();
    return note;
}

} // namespace rankscope
