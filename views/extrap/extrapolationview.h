#pragma once
// The tab of one extrapolation: on the left the per-rank sums and the predicted intervals,
// most expensive first (ExtrapIntervalItemModel); in the centre the measured and predicted
// histograms of the selection (HistogramOverlay); under it the fitted series and candidate
// models behind that prediction (FitDetails). A toolbar switches the method shown (the run
// holds both results), linear/log x and the uncertainty band, and exports the plot (PNG, SVG)
// and its bins (CSV); a summary line gives the headline numbers of both methods.

#include "views/extrap/extraprun.h"

#include <QWidget>
#include <memory>

class QAction;
class QLabel;
class QTableView;
class QToolBar;

namespace rankscope {

class ExtrapIntervalItemModel;
class HistogramOverlay;
class FitDetails;

class ExtrapolationView : public QWidget
{
    Q_OBJECT
public:
    explicit ExtrapolationView(QWidget* parent = nullptr);

    void setRun(ExtrapolationRun run);
    const ExtrapolationRun& run() const { return *run_; }

    /// Shows the result of `method` (ignored when the run has no such result).
    void setMethod(extrap::Method method);
    extrap::Method method() const;
    void setLogScale(bool log);
    /// Row 0: per-rank sums; rows 1..: intervals (as in intervalModel()).
    void selectRow(int row);
    int currentRow() const;

    /// Writes the histogram plot as PNG or SVG (by suffix), `size` pixels (empty: as shown).
    bool exportPlot(const QString& path, QString* error = nullptr, QSize size = {}) const;
    /// Writes the bins of the shown histograms as CSV.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

    QString summaryText() const;
    ExtrapIntervalItemModel* intervalModel() const { return model_; }
    QTableView* intervalTable() const { return list_; }
    HistogramOverlay* overlay() const { return overlay_; }
    FitDetails* details() const { return details_; }
    QAction* rankscopeAction() const { return rankscopeAction_; }
    QAction* classicAction() const { return classicAction_; }
    QAction* logAction() const { return logAction_; }

private:
    void createToolBar(QToolBar* bar);
    void chooseAndExport(const QString& suffix);
    void refresh();
    void showSums();
    void showInterval(int row);

    std::shared_ptr<ExtrapolationRun> run_;
    ExtrapIntervalItemModel* model_;
    QTableView* list_;
    HistogramOverlay* overlay_;
    FitDetails* details_;
    QLabel* summary_;
    QAction* rankscopeAction_ = nullptr;
    QAction* classicAction_ = nullptr;
    QAction* logAction_ = nullptr;
    QAction* bandAction_ = nullptr;
};

} // namespace rankscope
