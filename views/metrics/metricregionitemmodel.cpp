#include "views/metrics/metricregionitemmodel.h"

#include <QLocale>
#include <cmath>

namespace rankscope {

namespace {

/// Counter values with their digits grouped ("12,452,840"): the C locale omits the separator by
/// default, which printed raw runs of digits no reader could compare at a glance.
QString counterText(double v)
{
    static const QLocale grouped = [] {
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::DefaultNumberOptions);
        return c;
    }();
    if (std::abs(v) < 9e15 && v == std::floor(v)) return grouped.toString(qlonglong(v));
    return grouped.toString(v, 'f', 1);
}

} // namespace

MetricRegionItemModel::MetricRegionItemModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetricRegionItemModel::setProfile(std::shared_ptr<const Trace> trace,
                                       std::shared_ptr<const MetricProfile> profile)
{
    beginResetModel();
    trace_ = std::move(trace);
    profile_ = std::move(profile);
    rows_.clear();
    endResetModel();
}

void MetricRegionItemModel::setMetric(MetricId metric)
{
    beginResetModel();
    rows_.clear();
    if (profile_)
        for (const MetricRegion& r : profile_->regions)
            if (r.metric == metric) rows_.push_back(&r);
    endResetModel();
}

const MetricRegion* MetricRegionItemModel::regionAt(int row) const
{
    return row >= 0 && size_t(row) < rows_.size() ? rows_[size_t(row)] : nullptr;
}

int MetricRegionItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int MetricRegionItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricRegionItemModel::data(const QModelIndex& index, int role) const
{
    const MetricRegion* r = regionAt(index.row());
    if (!r || !trace_) return {};
    const auto number = [&](double v) -> QVariant {
        if (role == SortRole) return v;
        if (role == Qt::DisplayRole) return counterText(v);
        if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    };
    switch (index.column()) {
    case RegionColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return QString::fromStdString(std::string(trace_->regionName(r->region)));
        return {};
    case CallsColumn:
        return number(double(r->calls));
    case ExclusiveColumn:
        return number(r->exclusive);
    case InclusiveColumn:
        return number(r->inclusive);
    case MeanColumn:
        return number(std::round(r->meanPerCall() * 10) / 10);
    case MinColumn:
        return number(r->minPerCall);
    case MaxColumn:
        return number(r->maxPerCall);
    default:
        return {};
    }
}

QVariant MetricRegionItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case RegionColumn:
        return tr("Region");
    case CallsColumn:
        return tr("Calls");
    case ExclusiveColumn:
        return tr("Exclusive");
    case InclusiveColumn:
        return tr("Inclusive");
    case MeanColumn:
        return tr("Mean/call");
    case MinColumn:
        return tr("Min/call");
    case MaxColumn:
        return tr("Max/call");
    default:
        return {};
    }
}

} // namespace rankscope
