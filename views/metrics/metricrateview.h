#pragma once
// Counter timelines (Vampir's counter rows): one heat row per timeline row (a rank, or a group
// of ranks when they do not fit), each pixel coloured by the metric's mean rate over the time
// the pixel covers, (value(t1) - value(t0)) / (t1 - t0) with values interpolated linearly
// between samples (exact for a running total). A grouped row shows its ranks' mean. The colour
// scale runs from 0 to the largest rate in view and is printed in the corner; hovering shows
// the row's ranks, the time span, the rate and the counter increase.

#include "model/trace/trace.h"

#include <QWidget>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace rankscope {

class MetricRateView : public QWidget
{
    Q_OBJECT
public:
    explicit MetricRateView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    /// The metric drawn (a running total; other metrics are drawn as their sampled level).
    void setMetric(MetricId metric);
    /// The rows, as the timeline shows them (each a rank or a group of ranks).
    void setRows(std::vector<std::vector<RankId>> rows);
    /// The time range drawn, ns since the clock offset: the timeline's visible range.
    void setTimeRange(int64_t begin, int64_t end);
    /// Lines the rows up with another view's time axis (the timeline's): `axis` gives the global
    /// x of that axis's left end and of its right end (exclusive), over which the time range
    /// runs; the rows are drawn where this view lies under it, so that an event and the counter
    /// at its time are one above the other. Without one, the time range spans the view.
    void setAxis(std::function<std::pair<int, int>()> axis);

    /// What the last geometry draws: the rows' rectangle and the times at its left and right
    /// ends (the whole time range without an axis, the part under this view with one).
    struct Drawn
    {
        QRect area;
        int64_t begin = 0;
        int64_t end = 0;
    };
    Drawn drawn() const;

    MetricId shownMetric() const { return metric_; }
    /// Mean rate (per second; the level for non-accumulated metrics) of row `row` over
    /// [t0, t1), and whether any of its ranks has samples covering the span.
    bool rowRate(size_t row, int64_t t0, int64_t t1, double& rate, double& increase) const;
    /// The largest rate of the last frame (the top of the colour scale).
    double scaleMax() const { return scaleMax_; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotArea() const; ///< the view less its labels and legend
    /// Value of `c` at t, interpolated; false outside its samples.
    bool valueAt(const MetricColumn& c, int64_t t, double& v) const;
    QString toolTipAt(QPoint pos) const;

    std::shared_ptr<const Trace> trace_;
    MetricId metric_;
    std::vector<std::vector<RankId>> rows_;
    int64_t begin_ = 0;
    int64_t end_ = 1;
    std::function<std::pair<int, int>()> axis_;
    mutable double scaleMax_ = 0;
};

} // namespace rankscope
