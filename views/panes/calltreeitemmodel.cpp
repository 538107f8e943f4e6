#include "views/panes/calltreeitemmodel.h"

#include "model/profile/calltree.h"
#include "model/trace/trace.h"
#include "views/panes/durationformat.h"

namespace rankscope {

CallTreeItemModel::CallTreeItemModel(QObject* parent) : QAbstractItemModel(parent) {}

void CallTreeItemModel::setTree(std::shared_ptr<const Trace> trace,
                                std::shared_ptr<const CallTree> tree)
{
    beginResetModel();
    trace_ = std::move(trace);
    tree_ = trace_ ? std::move(tree) : nullptr;
    rowInParent_.clear();
    if (tree_) {
        rowInParent_.assign(tree_->nodes.size(), 0);
        for (size_t i = 0; i < tree_->roots.size(); ++i)
            rowInParent_[tree_->roots[i]] = int(i);
        for (const CallTreeNode& n : tree_->nodes)
            for (size_t i = 0; i < n.children.size(); ++i)
                rowInParent_[n.children[i]] = int(i);
    }
    endResetModel();
}

const std::vector<uint32_t>* CallTreeItemModel::childrenOf(const QModelIndex& parent) const
{
    if (!tree_) return nullptr;
    if (!parent.isValid()) return &tree_->roots;
    if (parent.column() != 0) return nullptr;
    return &tree_->nodes[size_t(parent.internalId())].children;
}

QModelIndex CallTreeItemModel::index(int row, int column, const QModelIndex& parent) const
{
    const std::vector<uint32_t>* children = childrenOf(parent);
    if (!children || row < 0 || row >= int(children->size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, quintptr((*children)[size_t(row)]));
}

QModelIndex CallTreeItemModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || !tree_) return {};
    const uint32_t parent = tree_->nodes[size_t(child.internalId())].parent;
    if (parent == kNoCallNode) return {};
    return createIndex(rowInParent_[parent], 0, quintptr(parent));
}

int CallTreeItemModel::rowCount(const QModelIndex& parent) const
{
    const std::vector<uint32_t>* children = childrenOf(parent);
    return children ? int(children->size()) : 0;
}

int CallTreeItemModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant CallTreeItemModel::sortValue(uint32_t node, int column) const
{
    const CallTreeNode& n = tree_->nodes[node];
    switch (column) {
    case NameColumn:
        return QString::fromUtf8(trace_->regionName(n.region));
    case InclusiveColumn:
        return qint64(n.inclusive);
    case ExclusiveColumn:
        return qint64(n.exclusive);
    case VisitsColumn:
        return quint64(n.visits);
    case InclusiveMinColumn:
        return qint64(n.inclusivePerRank.min);
    case InclusiveMeanColumn:
        return n.inclusivePerRank.mean;
    case InclusiveMaxColumn:
        return qint64(n.inclusivePerRank.max);
    default:
        return {};
    }
}

QVariant CallTreeItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !tree_) return {};
    const uint32_t node = uint32_t(index.internalId());
    const int column = index.column();
    switch (role) {
    case SortRole:
        return sortValue(node, column);
    case NodeRole:
        return quint32(node);
    case Qt::DisplayRole: {
        const QVariant v = sortValue(node, column);
        if (column == NameColumn) return v;
        if (column == VisitsColumn) return formatCount(v.toULongLong());
        return formatDuration(v.toDouble());
    }
    case Qt::TextAlignmentRole:
        return column == NameColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                    : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == NameColumn) return QString::fromStdString(tree_->path(*trace_, node));
        return {};
    default:
        return {};
    }
}

QVariant CallTreeItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Call path");
        case InclusiveColumn:
            return tr("Inclusive");
        case ExclusiveColumn:
            return tr("Exclusive");
        case VisitsColumn:
            return tr("Visits");
        case InclusiveMinColumn:
            return tr("Incl. min/rank");
        case InclusiveMeanColumn:
            return tr("Incl. mean/rank");
        case InclusiveMaxColumn:
            return tr("Incl. max/rank");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case InclusiveColumn:
            return tr("Time in this call path, callees included, summed over ranks");
        case ExclusiveColumn:
            return tr("Time in this call path itself (callees excluded), summed over ranks");
        case VisitsColumn:
            return tr("Times the call path was entered, over all ranks");
        case InclusiveMinColumn:
        case InclusiveMeanColumn:
        case InclusiveMaxColumn:
            return tr("Inclusive time of one rank: minimum, mean and maximum over all ranks "
                      "(a rank that never took the path counts as 0)");
        default:
            return {};
        }
    }
    return {};
}

} // namespace rankscope
