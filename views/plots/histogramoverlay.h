#pragma once
// A measured and a predicted histogram on shared axes (ALGORITHMS.md §2): measured blue,
// predicted red, both semi-transparent so the overlap shows; x = value in time units (linear or
// log10), y = relative frequency. Optionally a light red band for the uncertainty interval of
// the predicted maximum (§4.4), and a title line carrying the accuracy and the W1 distance.
//
// Hand-drawn with QPainter. Debian 12 does ship QCustomPlot 2.1 for Qt 6 (libqcustomplot-dev,
// libQCustomPlotQt6.so 1.7 MB), but under GPL-3+ (its Debian copyright file), which would
// decide the licence of the whole application for a few plots; two bar series with a band need
// little. paintTo() draws the whole plot into any painter, so the same code serves the screen,
// PNG and SVG export, and the tests check its geometry exactly.

#include "model/deltas/histogram.h"
#include "views/plots/histogramaxis.h"

#include <QWidget>
#include <optional>

namespace rankscope {

class HistogramOverlay : public QWidget
{
    Q_OBJECT
public:
    explicit HistogramOverlay(QWidget* parent = nullptr);

    static QColor measuredColor() { return {31, 119, 180}; }
    static QColor predictedColor() { return {214, 39, 40}; }
    static constexpr int kFillAlpha = 110; ///< of both bar fills (out of 255)

    /// The two histograms; nullopt or an empty histogram is simply not drawn.
    void setHistograms(std::optional<Histogram> measured, std::optional<Histogram> predicted);
    const std::optional<Histogram>& measured() const { return measured_; }
    const std::optional<Histogram>& predicted() const { return predicted_; }
    /// Uncertainty interval of the predicted maximum, drawn as a band; nullopt: none.
    void setBand(std::optional<std::pair<double, double>> band);
    void setBandVisible(bool visible);
    bool bandVisible() const { return bandVisible_; }
    /// Title, what the x axis shows, and the comparison figures (nullopt: unknown, not shown).
    void setTitle(const QString& title);
    void setXLabel(const QString& label);
    void setComparison(std::optional<double> accuracyPct, std::optional<double> w1Normalized);
    void setScale(HistogramAxis::Scale scale);
    HistogramAxis::Scale scale() const { return scale_; }

    /// "title · accuracy 97.3 % · W1 0.041" (the parts that are known).
    QString headerText() const;
    /// The plot rectangle when the whole overlay is drawn into `bounds`.
    QRect plotArea(const QRect& bounds) const;
    /// The x axis as laid out in `bounds`; y maps frequency: yToPixel below.
    HistogramAxis xAxis(const QRect& bounds) const;
    double yToPixel(double frequency, const QRect& bounds) const;
    /// Top of the frequency axis (a 1-2-5 value above the highest bar).
    double frequencyTop() const;

    /// Draws everything (title, legend, axes, bars, band) into `bounds`.
    void paintTo(QPainter& painter, const QRect& bounds) const;
    /// Bins of both histograms: lower, upper, measured frequency, predicted frequency (one row
    /// per bin; the other histogram's column is empty), shortest round-trip numbers.
    QString toCsv() const;
    /// Hover text at widget position `pos`: the bins under it (empty outside the plot).
    QString toolTipAt(QPoint pos) const;

    QSize sizeHint() const override { return {640, 400}; }
    QSize minimumSizeHint() const override { return {320, 200}; }

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;

private:
    void paintBars(QPainter& p, const Histogram& h, const QColor& colour, const QRect& bounds,
                   const HistogramAxis& x) const;
    void paintAxes(QPainter& p, const QRect& bounds, const HistogramAxis& x) const;
    void paintLegend(QPainter& p, const QRect& bounds) const;

    std::optional<Histogram> measured_;
    std::optional<Histogram> predicted_;
    std::optional<std::pair<double, double>> band_;
    bool bandVisible_ = true;
    QString title_;
    QString xLabel_;
    std::optional<double> accuracy_;
    std::optional<double> w1_;
    HistogramAxis::Scale scale_ = HistogramAxis::Scale::Linear;
};

} // namespace rankscope
