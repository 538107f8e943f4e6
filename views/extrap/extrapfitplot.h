#pragma once
// A small plot of one fitted series: the samples (n, value) at the small scales as dots, the
// chosen model's curve up to the target, the target marked with the prediction and its
// [low, high] interval as an error bar, the measured value there when known, and optionally a
// second candidate (dashed) for comparison. n runs on a log2 axis (scales usually double).
//
// The curves are the candidates' fitted functions (evaluateCandidate, extrapcurve.h); for a
// model without a curve in n (terms in the problem size), a dotted line joins the last sample
// to the prediction and the plot says so.

#include "whatif/extrap/seriesfit.h"

#include <QWidget>
#include <optional>
#include <vector>

namespace rankscope {

class ExtrapFitPlot : public QWidget
{
    Q_OBJECT
public:
    explicit ExtrapFitPlot(QWidget* parent = nullptr);

    /// Shows `fit` extrapolated to `target`; nullopt clears.
    void setSeries(std::optional<extrap::SeriesFit> fit, double target,
                   std::optional<double> measuredAtTarget = std::nullopt);
    /// Also draws candidate `model` (dashed); -1 or the chosen one: nothing extra.
    void setCandidate(int model);
    const std::optional<extrap::SeriesFit>& series() const { return fit_; }
    /// True when the chosen curve was evaluated from the model (not a dotted stand-in).
    bool chosenCurveExact() const { return chosenCurve_.has_value(); }

    void paintTo(QPainter& p, const QRect& bounds) const;
    QSize sizeHint() const override { return {420, 260}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    std::vector<double> curveNs() const;

    std::optional<extrap::SeriesFit> fit_;
    double target_ = 0;
    std::optional<double> measured_;
    int candidate_ = -1;
    std::optional<std::vector<double>> chosenCurve_;
    std::optional<std::vector<double>> candidateCurve_;
};

} // namespace rankscope
