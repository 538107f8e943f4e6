#pragma once
// The counter profile of one metric as a table: per region the calls, the exclusive and
// inclusive counter deltas, and the mean, least and most per call (model/metrics/
// metricprofile.h). SortRole gives numbers for sorting.

#include "model/metrics/metricprofile.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace rankscope {

class MetricRegionItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RegionColumn,
        CallsColumn,
        ExclusiveColumn,
        InclusiveColumn,
        MeanColumn,
        MinColumn,
        MaxColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit MetricRegionItemModel(QObject* parent = nullptr);

    void setProfile(std::shared_ptr<const Trace> trace,
                    std::shared_ptr<const MetricProfile> profile);
    /// Shows the regions of `metric` (none when it is not a running total).
    void setMetric(MetricId metric);
    /// The region of row `row`, or nullptr.
    const MetricRegion* regionAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const MetricProfile> profile_;
    std::vector<const MetricRegion*> rows_;
};

} // namespace rankscope
