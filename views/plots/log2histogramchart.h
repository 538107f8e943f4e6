#pragma once
// A bar chart of one power-of-two histogram (model/analysis/messagestats.h): one bar per bin
// from the first non-empty to the last, its height the count (linear), the count over the bar
// and the bin's lower bound under it (bytes, a duration or bytes per second); hovering a bar
// shows its range and count.

#include "model/analysis/messagestats.h"

#include <QString>
#include <QWidget>
#include <vector>

namespace rankscope {

class Log2HistogramChart : public QWidget
{
    Q_OBJECT
public:
    enum class Unit
    {
        Bytes,
        Nanoseconds,
        BytesPerSecond
    };

    explicit Log2HistogramChart(Unit unit, QString title, QWidget* parent = nullptr);

    void setHistogram(const Log2Histogram& histogram);

    /// One bar as drawn: the bin, its range as text ("[1.00 KiB, 2.00 KiB)", "0") and count.
    struct Bar
    {
        uint32_t bin = 0;
        QString range;
        uint64_t count = 0;
    };
    /// The bars, empty bins between non-empty ones included.
    const std::vector<Bar>& bars() const { return bars_; }
    /// A value of this chart's unit as text ("1.00 KiB", "2.00 us", "1.00 GiB/s").
    QString valueText(uint64_t v) const;

    QSize sizeHint() const override { return {360, 160}; }
    QSize minimumSizeHint() const override { return {100, 90}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF barRect(size_t i) const;
    QRectF plotRect() const;

    Unit unit_;
    QString title_;
    std::vector<Bar> bars_;
    uint64_t largest_ = 0;
};

} // namespace rankscope
