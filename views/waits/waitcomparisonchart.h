#pragma once
// Wait time per pattern of two runs as grouped bars (measured blue, predicted red, as in
// HistogramOverlay), each bar labelled with its value; the first group is the total over all
// patterns. Hand-drawn like HistogramOverlay; paintTo() serves the screen and export. The
// "Wait states" pane of WhatIfComparison.

#include <QString>
#include <QWidget>
#include <vector>

namespace rankscope {

class WaitComparisonChart : public QWidget
{
    Q_OBJECT
public:
    struct Group
    {
        QString name;
        double measuredNs = 0;
        double predictedNs = 0;
    };

    explicit WaitComparisonChart(QWidget* parent = nullptr);

    void setRunNames(const QString& measured, const QString& predicted);
    void setGroups(std::vector<Group> groups);
    const std::vector<Group>& groups() const { return groups_; }

    QRect plotArea(const QRect& bounds) const;
    /// The bar of group `group` (0: measured, 1: predicted) when drawn into `bounds`.
    QRectF barRect(int group, int run, const QRect& bounds) const;
    /// Top of the value axis (ns) when drawn into the widget / into `bounds`.
    double valueTop() const;
    double valueTop(const QRect& bounds) const;
    /// The hover text of the bar (or group) under widget position `pos`; empty when none.
    QString toolTipAt(QPoint pos) const;
    void paintTo(QPainter& p, const QRect& bounds) const;

    QSize sizeHint() const override { return {640, 320}; }
    QSize minimumSizeHint() const override { return {320, 180}; }

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;

private:
    void paintAxis(QPainter& p, const QRect& bounds) const;
    void paintLegend(QPainter& p, const QRect& bounds) const;
    int nameLines(int plotWidth) const; // lines the group names take

    std::vector<Group> groups_;
    QString measuredName_;
    QString predictedName_;
};

} // namespace rankscope
