#pragma once
// The plot of a parameter sweep of what-if runs (SweepView's upper half): the predicted run time
// and the wait time of each point against the parameter's value.
//
// SweepPlot draws the two series on one time axis (0 to a 1-2-5 value, labels from
// TimeMapping) against the parameter (linear, or log10 when the values span 20x or more),
// hand-drawn like HistogramOverlay (see there why not QCustomPlot) so paintTo() serves the
// screen and export alike. Points still running are hollow markers on the x axis, failed ones
// a cross there; both series connect the finished points in x order.

#include "views/plots/histogramaxis.h"

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

namespace rankscope {

class SweepPlot : public QWidget
{
    Q_OBJECT
public:
    struct Point
    {
        double x = 0;                    ///< the parameter's value, in its unit
        QString label;                   ///< how the value is written (empty: the number and unit)
        std::optional<double> runtimeNs; ///< predicted run time; nullopt while pending
        std::optional<double> waitNs; ///< wait time (the caller chooses: the app plots it per rank)
        QString error;                ///< non-empty: the run failed
        std::optional<double> mpiNs;  ///< MPI time (per rank in the app, like the wait time)
        bool pending() const { return !runtimeNs && error.isEmpty(); }
        bool failed() const { return !error.isEmpty(); }
        bool operator==(const Point&) const = default;
    };

    static QColor runtimeColor() { return {214, 39, 40}; }
    static QColor waitColor() { return {255, 127, 14}; }
    static QColor mpiColor() { return {31, 119, 180}; }
    static QColor baselineColor() { return {110, 110, 110}; }
    /// Failed points: their cross here, their status in SweepView's table.
    static QColor errorColor() { return {150, 0, 0}; }
    static constexpr int kHitRadius = 8; ///< pixels around a marker that count as on it

    explicit SweepPlot(QWidget* parent = nullptr);

    /// The parameter's name and unit, for the x axis title and tick labels.
    void setParameter(const QString& name, const QString& unit);
    QString parameterName() const { return parameter_; }
    QString unit() const { return unit_; }
    /// All points, pending ones without values; chooses log x when max / min x >= 20.
    void setPoints(std::vector<Point> points);
    /// One point finished (or changed); out-of-range indices are ignored.
    void setPoint(int index, Point point);
    const std::vector<Point>& points() const { return points_; }
    /// The baseline replay (the trace on the unedited spec): a reference line at its run time
    /// and one at its MPI time (same units as the points'); nothing removes them.
    void setBaseline(std::optional<double> runtimeNs, std::optional<double> mpiNs);
    std::optional<double> baselineRuntime() const { return baselineRun_; }
    std::optional<double> baselineMpi() const { return baselineMpi_; }
    /// Overrides the automatic choice (until the next setPoints).
    void setLogX(bool on);
    bool logX() const { return logX_; }

    /// The value written with its unit ("10 ms", "2.5 GB/s", "1.2k ranks").
    QString valueText(double x) const;
    /// The label of point `index` (its own, or valueText).
    QString pointLabel(int index) const;

    /// Geometry when the plot is drawn into `bounds`.
    QRect plotArea(const QRect& bounds) const;
    HistogramAxis xAxis(const QRect& bounds) const;
    double yToPixel(double ns, const QRect& bounds) const;
    /// Top of the time axis (ns).
    double valueTop() const;
    /// Where point `index`'s run-time marker sits (pending and failed points: on the x axis).
    QPointF pointPosition(int index, const QRect& bounds) const;
    /// Where its wait-time marker sits; nullopt without a wait time.
    std::optional<QPointF> waitPosition(int index, const QRect& bounds) const;

    /// The point whose marker is nearest to widget position `pos`, within kHitRadius; -1: none.
    int pointAt(QPoint pos) const;
    int hoveredPoint() const { return hovered_; }
    void paintTo(QPainter& p, const QRect& bounds) const;
    /// Value, run time and wait time (or status) of the point under `pos`; empty when none.
    QString toolTipAt(QPoint pos) const;

    QSize sizeHint() const override { return {640, 360}; }
    QSize minimumSizeHint() const override { return {320, 200}; }

signals:
    void pointClicked(int index);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    int pointAt(QPoint pos, const QRect& bounds) const;
    std::vector<int> finishedInXOrder() const;
    void paintAxes(QPainter& p, const QRect& bounds, const HistogramAxis& x) const;
    void paintSeries(QPainter& p, const QRect& bounds) const;
    void paintLegend(QPainter& p, const QRect& bounds) const;

    QString parameter_;
    QString unit_;
    std::vector<Point> points_;
    bool logX_ = false;
    int hovered_ = -1;
    std::optional<double> baselineRun_, baselineMpi_;
};

} // namespace rankscope
