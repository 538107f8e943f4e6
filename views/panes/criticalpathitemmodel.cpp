#include "views/panes/criticalpathitemmodel.h"

#include "model/trace/trace.h"
#include "model/waits/criticalpath.h"
#include "views/panes/durationformat.h"

namespace rankscope {

CriticalPathItemModel::CriticalPathItemModel(QObject* parent) : QAbstractTableModel(parent) {}

void CriticalPathItemModel::setPath(std::shared_ptr<const Trace> trace,
                                    std::shared_ptr<const CriticalPath> path)
{
    beginResetModel();
    trace_ = std::move(trace);
    path_ = trace_ ? std::move(path) : nullptr;
    endResetModel();
}

int CriticalPathItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !path_ ? 0 : int(path_->byFunction.size());
}

int CriticalPathItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CriticalPathItemModel::sortValue(int row, int column) const
{
    const CriticalFunction& f = path_->byFunction[size_t(row)];
    switch (column) {
    case FunctionColumn:
        return QString::fromUtf8(trace_->regionName(f.region));
    case PathColumn:
        return qint64(f.pathNs);
    case ShareColumn:
        return path_->lengthNs > 0 ? 100.0 * double(f.pathNs) / double(path_->lengthNs) : 0.0;
    case MeanColumn:
        return f.meanNs;
    case ImbalanceColumn:
        return qint64(f.imbalanceNs);
    default:
        return {};
    }
}

QVariant CriticalPathItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int column = index.column();
    switch (role) {
    case SortRole:
        return sortValue(index.row(), column);
    case Qt::DisplayRole: {
        const QVariant v = sortValue(index.row(), column);
        if (column == FunctionColumn) return v;
        if (column == ShareColumn) return QStringLiteral("%1 %").arg(v.toDouble(), 0, 'f', 1);
        return formatDuration(v.toDouble());
    }
    case Qt::TextAlignmentRole:
        return column == FunctionColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                        : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return column == FunctionColumn ? sortValue(index.row(), column) : QVariant();
    default:
        return {};
    }
}

QVariant CriticalPathItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case FunctionColumn:
            return tr("Function");
        case PathColumn:
            return tr("On critical path");
        case ShareColumn:
            return tr("Share");
        case MeanColumn:
            return tr("Mean/rank");
        case ImbalanceColumn:
            return tr("Critical-path imbalance");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PathColumn:
            return tr("Time the critical path spends in the function itself");
        case ShareColumn:
            return tr("Share of the critical path's length");
        case MeanColumn:
            return tr("Exclusive time of the function per rank, mean over all ranks");
        case ImbalanceColumn:
            return tr("Time on the critical path minus the mean per rank, where positive: what "
                      "balancing this function could save at most");
        default:
            return {};
        }
    }
    return {};
}

} // namespace rankscope
