#pragma once
// The communication matrix as a heat map: senders down, receivers across, one cell per pair of
// displayed ranks coloured by the chosen metric on a logarithmic scale, with a colour bar.
// When the ranks do not fit at kMinCellPixels each, consecutive displayed ranks are grouped (as
// the timeline groups rows): a group cell sums counts and bytes, averages the transfer times
// over its messages and keeps the longest. Hovering a cell shows its values; a click selects it
// and emits cellClicked with the ranks of its row and column.

#include "model/analysis/commmatrix.h"
#include "model/trace/ids.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

namespace rankscope {

class CommMatrixView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMinCellPixels = 3;

    explicit CommMatrixView(QWidget* parent = nullptr);

    /// Shows `matrix` (null: nothing to show).
    void setMatrix(std::shared_ptr<const CommMatrix> matrix);
    std::shared_ptr<const CommMatrix> matrix() const { return matrix_; }
    /// The ranks shown, in order (the timeline's rank filter and order); empty: all ranks.
    void setRanks(std::vector<RankId> ranks);
    void setMetric(CommMatrixMetric metric);
    CommMatrixMetric shownMetric() const { return metric_; }

    /// Groups of ranks along each axis (rows = senders, columns = receivers, the same groups).
    int groupCount() const;
    const std::vector<RankId>& groupRanks(int group) const;
    /// The aggregate of the cells from group `row` to group `column` (count 0: empty).
    CommMatrixCell groupCell(int row, int column) const;
    /// Where cell (row, column) is drawn; widget coordinates.
    QRect cellRect(int row, int column) const;
    /// The (row, column) under `pos`, or (-1, -1).
    std::pair<int, int> cellAt(QPoint pos) const;
    /// The tooltip text for `pos` (empty outside the cells).
    QString toolTipAt(QPoint pos) const;
    /// The clicked cell, or (-1, -1).
    std::pair<int, int> selectedCell() const { return selected_; }
    void clearSelection();
    /// Selects cell (row, column) as a click does (emits cellClicked).
    void selectCell(int row, int column);
    /// The cell with the largest value of the current metric, or (-1, -1) when all are empty.
    std::pair<int, int> largestCell() const;

    QSize sizeHint() const override { return {420, 320}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

signals:
    void cellClicked(const std::vector<rankscope::RankId>& senders,
                     const std::vector<rankscope::RankId>& receivers);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void layoutCells();
    void aggregate();
    void renderImage();
    QString rankText(int group) const;
    QString valueText(double v) const;

    std::shared_ptr<const CommMatrix> matrix_;
    std::vector<RankId> ranks_; ///< as set (empty: all)
    CommMatrixMetric metric_ = CommMatrixMetric::Count;
    std::vector<std::vector<RankId>> groups_;
    std::vector<CommMatrixCell> cells_; ///< groups x groups aggregates
    double maxValue_ = 0;
    double minValue_ = 0; ///< smallest non-zero value
    QImage image_;        ///< one pixel per group cell
    QRect plot_;
    std::pair<int, int> selected_{-1, -1};
};

} // namespace rankscope
