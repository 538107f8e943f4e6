#include "app/tracedocument.h"

#include "model/mpicallscanner.h"
#include "model/mpilifecycle.h"
#include "views/detailspane.h"
#include "views/profilemodel.h"
#include "views/timelineview.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

TraceDocument::TraceDocument(LoadedTrace data, QWidget* parent)
    : QWidget(parent), data_(std::move(data)), timeline_(new TimelineView(this)),
      details_(new DetailsPane(this)), profile_(new ProfileModel(this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView(this))
{
    timeline_->setTrace(data_.trace, data_.timeline, data_.timelineIndex);
    timeline_->setWaitStates(data_.waits, data_.waitSummary);
    details_->setTrace(data_.trace);
    connect(timeline_, &TimelineView::selectionChanged, details_, &DetailsPane::setSelection);

    profile_->setProfile(data_.trace, data_.profile);
    sorted_->setSourceModel(profile_);
    sorted_->setSortRole(ProfileModel::SortRole);
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ProfileModel::ExclusiveColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(ProfileModel::RegionColumn,
                                                     QHeaderView::Stretch);
    table_->setToolTip(tr("Flat profile over all ranks; click a header to sort"));

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(details_);
    bottom->addWidget(table_);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    bottom->setChildrenCollapsible(false);

    auto* main = new QSplitter(Qt::Vertical, this);
    main->addWidget(timeline_);
    main->addWidget(bottom);
    // The timeline is what users look at; the panes get about a third of the height.
    main->setStretchFactor(0, 2);
    main->setStretchFactor(1, 1);
    main->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(main);
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

} // namespace rankscope
