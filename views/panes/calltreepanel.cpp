#include "views/panes/calltreepanel.h"

#include "model/profile/calltree.h"
#include "model/trace/trace.h"
#include "views/panes/calltreeitemmodel.h"
#include "views/panes/itemviewtext.h"
#include "views/panes/rankdistribution.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSplitter>
#include <QTreeView>

namespace rankscope {

namespace {

/// Levels expanded when a tree is shown: enough to see where the time goes.
constexpr int kExpandedLevels = 2;

} // namespace

CallTreePanel::CallTreePanel(QWidget* parent)
    : QWidget(parent), model_(new CallTreeItemModel(this)), view_(new QTreeView(this)),
      distribution_(new RankDistribution(this))
{
    view_->setObjectName(QStringLiteral("callTreeView"));
    view_->setModel(model_);
    ItemViewText::install(view_);
    view_->setAlternatingRowColors(true);
    view_->setUniformRowHeights(true);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->header()->setSectionResizeMode(CallTreeItemModel::NameColumn, QHeaderView::Stretch);
    view_->setToolTip(tr("Call-path profile: time per call path over all ranks; select a row to "
                         "see its inclusive time per rank"));
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showNode(current); });

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(distribution_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void CallTreePanel::setTree(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const CallTree> tree)
{
    model_->setTree(std::move(trace), std::move(tree));
    view_->expandToDepth(kExpandedLevels - 1);
    distribution_->setValues({}, {});
    if (model_->rowCount() > 0) view_->setCurrentIndex(model_->index(0, 0));
}

void CallTreePanel::showNode(const QModelIndex& index)
{
    const std::shared_ptr<const CallTree>& tree = model_->tree();
    if (!index.isValid() || !tree) {
        distribution_->setValues({}, {});
        return;
    }
    const uint32_t node = index.data(CallTreeItemModel::NodeRole).toUInt();
    distribution_->setValues(tree->nodes[node].inclusiveByRank,
                             tr("Inclusive time per rank: %1")
                                 .arg(QString::fromStdString(tree->path(*model_->trace(), node))));
}

} // namespace rankscope
