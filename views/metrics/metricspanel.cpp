#include "views/metrics/metricspanel.h"

#include "views/metrics/metricrateview.h"
#include "views/metrics/metricregionitemmodel.h"
#include "views/panes/itemviewtext.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace rankscope {

MetricsPanel::MetricsPanel(QWidget* parent)
    : QWidget(parent), box_(new QComboBox(this)), rates_(new MetricRateView(this)),
      model_(new MetricRegionItemModel(this)), sorted_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this))
{
    box_->setToolTip(tr("The metric (hardware counter) shown"));
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(MetricRegionItemModel::SortRole);
    table_->setModel(sorted_);
    ItemViewText::install(table_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(MetricRegionItemModel::ExclusiveColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Region names of real programs are long: the name column takes what the numbers leave.
    table_->horizontalHeader()->setSectionResizeMode(MetricRegionItemModel::RegionColumn,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(table_->fontMetrics().averageCharWidth() * 8);
    table_->setToolTip(tr("Counter delta per region: each call's value at its Leave minus at "
                          "its Enter, summed (inclusive) and without the calls inside "
                          "(exclusive); click a header to sort"));
    rates_->setToolTip(QString());
    connect(box_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) setMetric(MetricId(uint32_t(box_->itemData(i).toUInt())));
    });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(new QLabel(tr("Metric:"), this));
    top->addWidget(box_);
    top->addStretch(1);
    // Rows above, the table below at full width: region names are long.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(rates_);
    split->addWidget(table_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(split, 1);
}

void MetricsPanel::setProfile(std::shared_ptr<const Trace> trace,
                              std::shared_ptr<const MetricProfile> profile)
{
    trace_ = trace;
    rates_->setTrace(trace);
    model_->setProfile(trace, std::move(profile));
    const QSignalBlocker block(box_);
    box_->clear();
    if (trace_)
        for (uint32_t m = 0; m < trace_->metrics().size(); ++m)
            box_->addItem(QString::fromStdString(std::string(trace_->metricName(MetricId(m)))), m);
    box_->setEnabled(box_->count() > 0);
    setMetric(box_->count() > 0 ? MetricId(0) : MetricId());
}

void MetricsPanel::setMetric(MetricId metric)
{
    const int i = metric.valid() ? box_->findData(metric.value) : -1;
    if (i >= 0 && box_->currentIndex() != i) {
        const QSignalBlocker block(box_);
        box_->setCurrentIndex(i);
    }
    rates_->setMetric(metric);
    model_->setMetric(metric);
}

} // namespace rankscope
