#pragma once
// A parameter sweep of what-if runs (e.g. network latency 1, 2, 5, 10, 20 ms): the predicted
// run time and the wait time of each point against the parameter's value. SweepView puts a
// header above the plot (SweepPlot, in sweepplot.h) and a table of the same points below it,
// updated as each point finishes.

#include "views/whatif/sweepplot.h"

#include <QString>
#include <QWidget>
#include <vector>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace rankscope {

class SweepView : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        ValueColumn,
        RuntimeColumn,
        WaitColumn,
        StatusColumn
    };

    explicit SweepView(QWidget* parent = nullptr);

    void setSweep(const QString& title, const QString& parameter, const QString& unit,
                  std::vector<SweepPlot::Point> points);
    void setPoint(int index, SweepPlot::Point point);

    SweepPlot* plot() const { return plot_; }
    /// Columns: value | run time | wait time | status; row i is point i.
    QTableView* table() const { return table_; }
    /// "title — parameter: n points, k finished, f failed".
    QString headerText() const;

signals:
    /// A click on a plotted point or a double-click on a table row.
    void pointActivated(int index);

private:
    void fillRow(int index);
    void updateHeader();

    QLabel* header_;
    SweepPlot* plot_;
    QStandardItemModel* model_;
    QTableView* table_;
    QString title_;
};

} // namespace rankscope
