#pragma once
// The model details of one prediction (an interval, or the per-rank sums): every fitted series
// with every candidate model (ExtrapFitItemModel), filtered to one series or all, and beside the
// table a plot of the selected series (ExtrapFitPlot) with its samples, the chosen model's
// curve and the prediction's interval at the target. Picking a candidate row adds its curve.

#include "whatif/extrap/seriesfit.h"

#include <QWidget>
#include <map>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace rankscope {

class ExtrapFitItemModel;
class ExtrapFitPlot;

class FitDetails : public QWidget
{
    Q_OBJECT
public:
    explicit FitDetails(QWidget* parent = nullptr);

    /// Shows `fits` predicted at `target`. `measuredAtTarget`: measured values of some series
    /// (by quantity, e.g. "mean"), marked in the plot. `heading` names what was predicted.
    void setFits(std::vector<extrap::SeriesFit> fits, double target, bool rankscopeMethod,
                 const QString& heading, std::map<std::string, double> measuredAtTarget = {});
    /// Shows series `index` in the plot and filters the table to it (-1: all series).
    void selectSeries(int index);
    /// The series shown in the plot (-1: none).
    int currentSeries() const { return current_; }

    ExtrapFitItemModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ExtrapFitPlot* plot() const { return plot_; }
    QComboBox* seriesBox() const { return seriesBox_; }

private:
    void showSeries(int series, int candidate);
    void onRowActivated();

    QLabel* heading_;
    QComboBox* seriesBox_;
    ExtrapFitItemModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    ExtrapFitPlot* plot_;
    double target_ = 0;
    int current_ = -1;
    std::map<std::string, double> measured_;
};

} // namespace rankscope
