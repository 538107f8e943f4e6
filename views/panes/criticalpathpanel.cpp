#include "views/panes/criticalpathpanel.h"

#include "model/trace/trace.h"
#include "model/waits/criticalpath.h"
#include "views/panes/criticalpathitemmodel.h"
#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

CriticalPathPanel::CriticalPathPanel(QWidget* parent)
    : QWidget(parent), model_(new CriticalPathItemModel(this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView(this)),
      summary_(new QLabel(this))
{
    summary_->setObjectName(QStringLiteral("criticalPathSummary"));
    summary_->setWordWrap(true);
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(CriticalPathItemModel::SortRole);
    table_->setObjectName(QStringLiteral("criticalPathTable"));
    table_->setModel(sorted_);
    ItemViewText::install(table_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CriticalPathItemModel::PathColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(CriticalPathItemModel::FunctionColumn,
                                                     QHeaderView::Stretch);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
}

void CriticalPathPanel::setPath(std::shared_ptr<const Trace> trace,
                                std::shared_ptr<const CriticalPath> path)
{
    if (!trace || !path) {
        summary_->setText(tr("No critical path"));
        model_->setPath(nullptr, nullptr);
        return;
    }
    size_t ranks = 0;
    for (int64_t t : path->byRank)
        ranks += t > 0 ? 1 : 0;
    summary_->setText(tr("Critical path: %1 over %2 segments on %3 of %4 ranks. Press C to "
                         "draw it on the timeline.")
                          .arg(formatDuration(double(path->lengthNs)))
                          .arg(formatCount(path->segments.size()))
                          .arg(ranks)
                          .arg(trace->rankCount()));
    model_->setPath(std::move(trace), std::move(path));
}

} // namespace rankscope
