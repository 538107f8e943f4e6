#include "views/extrap/extrapintervalitemmodel.h"

#include "views/extrap/extrapformat.h"
#include "views/panes/durationformat.h"

#include <QFont>
#include <algorithm>

namespace rankscope {

using extrap::ExtrapolationResult;
using extrap::IntervalPrediction;
using extrap::Method;

namespace {

std::map<std::string, size_t> indexOf(const std::optional<ExtrapolationResult>& r)
{
    std::map<std::string, size_t> m;
    if (r)
        for (size_t i = 0; i < r->intervals.size(); ++i)
            m.emplace(r->intervals[i].name, i);
    return m;
}

} // namespace

QString ExtrapIntervalItemModel::shortIntervalName(const QString& name)
{
    QStringList sides = name.split(QStringLiteral(" - "));
    for (QString& side : sides)
        side = side.mid(side.lastIndexOf(QLatin1Char('>')) + 1);
    return sides.join(QStringLiteral(" - "));
}

ExtrapIntervalItemModel::ExtrapIntervalItemModel(QObject* parent) : QAbstractTableModel(parent) {}

double ExtrapIntervalItemModel::totalTimeNs(const IntervalPrediction& p, uint32_t target)
{
    return p.predictedMean * p.predictedCount * double(target);
}

std::optional<double> ExtrapIntervalItemModel::accuracy(const IntervalPrediction& p)
{
    if (!p.measuredMean) return std::nullopt;
    return extrap::accuracyPercent(p.predictedMean, *p.measuredMean);
}

void ExtrapIntervalItemModel::setRun(std::shared_ptr<const ExtrapolationRun> run)
{
    beginResetModel();
    run_ = std::move(run);
    names_.clear();
    rankscopeIndex_.clear();
    classicIndex_.clear();
    if (run_) {
        rankscopeIndex_ = indexOf(run_->rankscope);
        classicIndex_ = indexOf(run_->classic);
        if (const ExtrapolationResult* primary = run_->primary()) {
            std::vector<const IntervalPrediction*> order;
            for (const IntervalPrediction& p : primary->intervals)
                order.push_back(&p);
            const uint32_t n = primary->target;
            std::stable_sort(order.begin(), order.end(), [n](const auto* a, const auto* b) {
                return totalTimeNs(*a, n) > totalTimeNs(*b, n);
            });
            for (const IntervalPrediction* p : order)
                names_.push_back(p->name);
        }
        method_ = run_->primary()   ? run_->primary()->method
                  : run_->rankscope ? Method::Rankscope
                                    : Method::Classic;
    }
    endResetModel();
}

void ExtrapIntervalItemModel::setMethod(Method method)
{
    if (method == method_) return;
    method_ = method;
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const ExtrapolationResult* ExtrapIntervalItemModel::result() const
{
    return run_ ? run_->result(method_) : nullptr;
}

QString ExtrapIntervalItemModel::intervalName(int row) const
{
    if (row < 1 || size_t(row) > names_.size()) return {};
    return QString::fromStdString(names_[size_t(row - 1)]);
}

const IntervalPrediction* ExtrapIntervalItemModel::interval(int row) const
{
    const ExtrapolationResult* r = result();
    if (!r || row < 1 || size_t(row) > names_.size()) return nullptr;
    const auto& index = method_ == Method::Classic ? classicIndex_ : rankscopeIndex_;
    const auto it = index.find(names_[size_t(row - 1)]);
    return it == index.end() ? nullptr : &r->intervals[it->second];
}

int ExtrapIntervalItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !run_ ? 0 : int(names_.size()) + 1;
}

int ExtrapIntervalItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExtrapIntervalItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !run_) return {};
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (index.row() == 0) return sumsData(index.column(), role);
    if (role == Qt::DisplayRole && index.column() == NameColumn)
        return shortIntervalName(intervalName(index.row()));
    if (role == SortRole && index.column() == NameColumn) return intervalName(index.row());
    const IntervalPrediction* p = interval(index.row());
    if (!p) {
        if (role == Qt::DisplayRole && index.column() != NameColumn) return QStringLiteral("—");
        if (role == Qt::ToolTipRole)
            return tr("%1\nNot predicted by this method (the classic run fitted the sums only)")
                .arg(intervalName(index.row()));
        return {};
    }
    return intervalData(*p, index.column(), role);
}

QVariant ExtrapIntervalItemModel::sumsData(int column, int role) const
{
    const ExtrapolationResult* r = result();
    if (!r) return {};
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return tr("Per-rank sums");
        case MeanColumn:
            return formatDuration(r->predictedSums.mean);
        case CountColumn:
            return QString::number(r->target);
        case AccuracyColumn:
            return r->accuracyPct ? formatAccuracy(*r->accuracyPct) : QString();
        }
    }
    if (role == SortRole) {
        switch (column) {
        case NameColumn:
            return QString();
        case MeanColumn:
            return r->predictedSums.mean;
        case CountColumn:
            return double(r->target);
        case AccuracyColumn:
            return r->accuracyPct.value_or(-1);
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("Per-rank delta sums S(r) at %1 ranks\npredicted mean %2, max %3\n%4")
            .arg(r->target)
            .arg(formatDuration(r->predictedSums.mean),
                 formatWithInterval(r->predictedMaxRankDeltaSum, r->predictedMaxLow,
                                    r->predictedMaxHigh),
                 r->accuracyPct
                     ? tr("accuracy of max S(r): %1").arg(formatAccuracy(*r->accuracyPct))
                     : tr("no measured trace at this scale"));
    if (role == Qt::FontRole) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QVariant ExtrapIntervalItemModel::intervalData(const IntervalPrediction& p, int column,
                                               int role) const
{
    const std::optional<double> acc = accuracy(p);
    if (role == Qt::DisplayRole) {
        switch (column) {
        case MeanColumn:
            return formatDuration(p.predictedMean);
        case CountColumn:
            return formatSeriesValue(p.predictedCount, SeriesUnit::Count);
        case AccuracyColumn:
            return acc ? formatAccuracy(*acc) : QString();
        }
    }
    if (role == SortRole) {
        switch (column) {
        case MeanColumn:
            return p.predictedMean;
        case CountColumn:
            return p.predictedCount;
        case AccuracyColumn:
            return acc.value_or(-1);
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip =
            tr("%1\npredicted mean delta %2 (model %3)\n%4 occurrences per rank, total %5")
                .arg(QString::fromStdString(p.name),
                     formatWithInterval(p.predictedMean, p.predictedMeanLow, p.predictedMeanHigh),
                     QString::fromStdString(p.chosenModel),
                     formatSeriesValue(p.predictedCount, SeriesUnit::Count),
                     formatDuration(totalTimeNs(p, run_->target)));
        if (p.measuredMean)
            tip += tr("\nmeasured mean %1, %2 per rank; accuracy %3")
                       .arg(formatDuration(*p.measuredMean),
                            formatSeriesValue(p.measuredCount.value_or(0), SeriesUnit::Count),
                            formatAccuracy(acc.value_or(0)));
        return tip;
    }
    return {};
}

QVariant ExtrapIntervalItemModel::headerData(int section, Qt::Orientation orientation,
                                             int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Interval");
        case MeanColumn:
            return tr("Mean");
        case CountColumn:
            return tr("Count");
        case AccuracyColumn:
            return tr("Accuracy");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn:
            return tr("Per-rank sums, then execution intervals by predicted total time at the "
                      "target (mean x count x ranks), largest first");
        case MeanColumn:
            return tr("Predicted mean delta time per occurrence (sums: mean S(r))");
        case CountColumn:
            return tr("Predicted occurrences per rank (sums: ranks)");
        case AccuracyColumn:
            return tr("Accuracy of the predicted mean against the measured trace (sums: of max "
                      "S(r)); empty without a measured trace");
        }
    }
    return {};
}

} // namespace rankscope
