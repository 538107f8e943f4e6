#pragma once
// The Metrics pane (beside the profile): a choice of metric, its counter timeline per rank
// (MetricRateView, following the timeline's visible range and rows) above its counter profile
// per region (MetricRegionItemModel).

#include "model/metrics/metricprofile.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QTableView;
class QSortFilterProxyModel;

namespace rankscope {

class MetricRateView;
class MetricRegionItemModel;

class MetricsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MetricsPanel(QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const Trace> trace,
                    std::shared_ptr<const MetricProfile> profile);
    /// Shows metric `metric` (an index into the trace's metrics).
    void setMetric(MetricId metric);

    QComboBox* metricBox() const { return box_; }
    MetricRateView* rateView() const { return rates_; }
    MetricRegionItemModel* model() const { return model_; }
    QTableView* table() const { return table_; }

private:
    std::shared_ptr<const Trace> trace_;
    QComboBox* box_;
    MetricRateView* rates_;
    MetricRegionItemModel* model_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
};

} // namespace rankscope
