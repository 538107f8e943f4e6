#pragma once
// One value per rank as a bar chart (rank on x, value on y) with the mean as a line: the
// distribution over ranks of a selected call path, as Cube shows beside its tree. With more
// ranks than pixels, each pixel column shows the largest value of the ranks it covers.

#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

namespace rankscope {

class RankDistribution : public QWidget
{
    Q_OBJECT
public:
    explicit RankDistribution(QWidget* parent = nullptr);

    /// Shows `values` (ns, indexed by rank) under `title`; empty values clear the chart.
    void setValues(std::vector<int64_t> values, const QString& title);
    const std::vector<int64_t>& values() const { return values_; }
    QString title() const { return title_; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<int64_t> values_;
    QString title_;
};

} // namespace rankscope
