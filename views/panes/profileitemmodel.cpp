#include "views/panes/profileitemmodel.h"

#include "model/profile/profile.h"
#include "model/trace/trace.h"
#include "views/panes/durationformat.h"

#include <cmath>

namespace rankscope {

QString ProfileItemModel::roleName(RegionRole role)
{
    switch (role) {
    case RegionRole::Function:
        return ProfileItemModel::tr("function");
    case RegionRole::MpiPointToPoint:
        return ProfileItemModel::tr("MPI point-to-point");
    case RegionRole::MpiCollective:
        return ProfileItemModel::tr("MPI collective");
    case RegionRole::Barrier:
        return ProfileItemModel::tr("MPI barrier");
    case RegionRole::MpiOther:
        return ProfileItemModel::tr("MPI other");
    case RegionRole::Other:
        return ProfileItemModel::tr("other");
    }
    return ProfileItemModel::tr("other");
}

ProfileItemModel::ProfileItemModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfileItemModel::setProfile(std::shared_ptr<const Trace> trace,
                                  std::shared_ptr<const Profile> profile)
{
    beginResetModel();
    trace_ = std::move(trace);
    profile_ = std::move(profile);
    rows_.clear();
    if (trace_ && profile_) {
        for (const RegionSummary& r : profile_->regions)
            if (r.calls > 0) rows_.push_back(r.region.value);
    }
    endResetModel();
}

int ProfileItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int ProfileItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileItemModel::sortValue(size_t row, int column) const
{
    const RegionId id(rows_[row]);
    const RegionSummary& r = profile_->regions[id.value];
    switch (column) {
    case RegionColumn:
        return QString::fromUtf8(trace_->regionName(id));
    case RoleColumn:
        return roleName(trace_->region(id).role);
    case CallsColumn:
        return quint64(r.calls);
    case InclusiveColumn:
        return qint64(r.inclusive);
    case ExclusiveColumn:
        return qint64(r.exclusive);
    case ExclusiveMinColumn:
        return qint64(r.exclusivePerRank.min);
    case ExclusiveMeanColumn:
        return r.exclusivePerRank.mean;
    case ExclusiveMaxColumn:
        return qint64(r.exclusivePerRank.max);
    default:
        return {};
    }
}

QVariant ProfileItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount)
        return {};
    const size_t row = size_t(index.row());
    const int column = index.column();
    switch (role) {
    case SortRole:
        return sortValue(row, column);
    case RegionIdRole:
        return quint32(rows_[row]);
    case Qt::DisplayRole: {
        const QVariant v = sortValue(row, column);
        if (column == RegionColumn || column == RoleColumn) return v;
        if (column == CallsColumn) return formatCount(v.toULongLong());
        return formatDuration(v.toDouble());
    }
    case Qt::TextAlignmentRole:
        if (column == RegionColumn || column == RoleColumn)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column >= InclusiveColumn)
            return tr("%1 ns").arg(
                formatCount(uint64_t(std::llround(std::fabs(sortValue(row, column).toDouble())))));
        if (column == RegionColumn) return sortValue(row, column);
        return {};
    default:
        return {};
    }
}

QVariant ProfileItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RegionColumn:
            return tr("Region");
        case RoleColumn:
            return tr("Role");
        case CallsColumn:
            return tr("Calls");
        case InclusiveColumn:
            return tr("Inclusive");
        case ExclusiveColumn:
            return tr("Exclusive");
        case ExclusiveMinColumn:
            return tr("Excl. min/rank");
        case ExclusiveMeanColumn:
            return tr("Excl. mean/rank");
        case ExclusiveMaxColumn:
            return tr("Excl. max/rank");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CallsColumn:
            return tr("Calls over all ranks");
        case InclusiveColumn:
            return tr("Time with the region on the stack, summed over ranks");
        case ExclusiveColumn:
            return tr("Time in the region itself (nested regions excluded), "
                      "summed over ranks");
        case ExclusiveMinColumn:
        case ExclusiveMeanColumn:
        case ExclusiveMaxColumn:
            return tr("Exclusive time of one rank: minimum, mean and maximum over all ranks "
                      "(a rank that never entered the region counts as 0)");
        default:
            return {};
        }
    }
    return {};
}

} // namespace rankscope
