#include "views/panes/messagestatspanel.h"

#include "model/analysis/messagestats.h"
#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"
#include "views/plots/log2histogramchart.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rankscope {

namespace {

constexpr int kGroupRole = Qt::UserRole + 1; // the MessageGroup* of an item

QTreeWidgetItem* groupItem(const MessageGroup& g, const QString& name)
{
    auto* item = new QTreeWidgetItem;
    item->setText(MessageStatsPanel::GroupColumn, name);
    item->setToolTip(MessageStatsPanel::GroupColumn, name);
    item->setText(MessageStatsPanel::CountColumn, formatCount(g.count));
    item->setText(MessageStatsPanel::BytesColumn, formatBytes(g.bytes));
    item->setText(MessageStatsPanel::MeanColumn, formatDuration(g.meanNs()));
    item->setText(MessageStatsPanel::MaxColumn, formatDuration(double(g.maxNs)));
    for (int c = MessageStatsPanel::CountColumn; c < MessageStatsPanel::ColumnCount; ++c)
        item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    item->setData(MessageStatsPanel::GroupColumn, kGroupRole,
                  QVariant::fromValue(static_cast<const void*>(&g)));
    return item;
}

} // namespace

MessageStatsPanel::MessageStatsPanel(QWidget* parent)
    : QWidget(parent), tree_(new QTreeWidget(this)), summary_(new QLabel(this)),
      size_(new Log2HistogramChart(Log2HistogramChart::Unit::Bytes, tr("Message size"), this)),
      time_(new Log2HistogramChart(Log2HistogramChart::Unit::Nanoseconds,
                                   tr("Transfer time (receive minus send)"), this)),
      bandwidth_(new Log2HistogramChart(Log2HistogramChart::Unit::BytesPerSecond,
                                        tr("Bandwidth (bytes / transfer time)"), this))
{
    tree_->setColumnCount(ColumnCount);
    tree_->setHeaderLabels({tr("Group"), tr("Messages"), tr("Bytes"), tr("Mean"), tr("Max")});
    tree_->setRootIsDecorated(true);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    // Call paths are long: elided in the middle, whole in a tooltip where cut.
    ItemViewText::install(tree_);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(GroupColumn, QHeaderView::Stretch);
    tree_->setToolTip(tr("Messages by call site of the send and by communicator; select a "
                         "group to see its histograms"));
    connect(tree_, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item) { selectGroup(item); });
    summary_->setWordWrap(true);

    auto* charts = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(charts);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(summary_);
    // Sizes above, times and bandwidths side by side below: wide enough for their axis labels,
    // low enough for the timeline to keep most of the height.
    chartLayout->addWidget(size_, 1);
    auto* row = new QHBoxLayout;
    row->addWidget(time_, 1);
    row->addWidget(bandwidth_, 1);
    chartLayout->addLayout(row, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tree_);
    split->addWidget(charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 600}); // the group names need room; the charts take the rest
    split->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    showGroup(nullptr);
}

void MessageStatsPanel::setStatistics(std::shared_ptr<const MessageStatistics> stats)
{
    stats_ = std::move(stats);
    tree_->clear();
    showGroup(nullptr);
    if (!stats_) return;
    QTreeWidgetItem* all = groupItem(stats_->all, tr("All messages"));
    tree_->addTopLevelItem(all);
    const auto addGroups = [this](const QString& title, const std::vector<MessageGroup>& groups) {
        auto* parent = new QTreeWidgetItem(tree_, {title});
        parent->setFirstColumnSpanned(true);
        parent->setFlags(parent->flags() & ~Qt::ItemIsSelectable);
        for (const MessageGroup& g : groups)
            parent->addChild(groupItem(g, QString::fromStdString(g.name)));
        parent->setExpanded(true);
    };
    addGroups(tr("By call site (%n)", nullptr, int(stats_->byCallSite.size())), stats_->byCallSite);
    addGroups(tr("By communicator (%n)", nullptr, int(stats_->byCommunicator.size())),
              stats_->byCommunicator);
    tree_->setCurrentItem(all);
}

void MessageStatsPanel::selectGroup(QTreeWidgetItem* item)
{
    if (!item) return;
    const QVariant v = item->data(GroupColumn, kGroupRole);
    if (!v.isValid()) return; // a heading
    showGroup(static_cast<const MessageGroup*>(v.value<const void*>()));
}

void MessageStatsPanel::showGroup(const MessageGroup* group)
{
    shown_ = group;
    const Log2Histogram none;
    size_->setHistogram(group ? group->size : none);
    time_->setHistogram(group ? group->time : none);
    bandwidth_->setHistogram(group ? group->bandwidth : none);
    if (!group) {
        summary_->setText(stats_ ? tr("No group selected") : tr("No trace"));
        return;
    }
    QString text =
        tr("<b>%1</b>: %2 messages, %3, mean transfer %4, max %5")
            .arg(group == &stats_->all ? tr("All messages")
                                       : QString::fromStdString(group->name).toHtmlEscaped(),
                 formatCount(group->count), formatBytes(group->bytes),
                 formatDuration(group->meanNs()), formatDuration(double(group->maxNs)));
    if (group == &stats_->all && stats_->unmatched > 0)
        text += tr(" (%1 unmatched left out)").arg(formatCount(stats_->unmatched));
    summary_->setText(text);
}

} // namespace rankscope
