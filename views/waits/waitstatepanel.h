#pragma once
// The wait-state panel: a totals line, a filter row (pattern, call site or rank text, clicked
// rank), the WaitStateItemModel table sorted by waiting time and the per-rank WaitBarChart.
// Clicking a bar shows only that rank; Esc or the rank button clears the filters; Ctrl+F goes to
// the text filter. Selecting a row asks (waitRequested) to show that row's longest wait.

#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <QWidget>
#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedLayout;
class QTableView;
class QToolButton;

namespace rankscope {

class Trace;
class WaitBarChart;
class WaitStateItemModel;
namespace detail {
class WaitStateFilter;
}

class WaitStatePanel : public QWidget
{
    Q_OBJECT
public:
    explicit WaitStatePanel(QWidget* parent = nullptr);
    ~WaitStatePanel() override;

    /// Shows `analysis` of `trace` (both stay alive while shown); null clears. Filters reset.
    void setAnalysis(std::shared_ptr<const Trace> trace,
                     std::shared_ptr<const WaitStateAnalysis> analysis);
    /// MPI time summed over all ranks (ns), for "= x% of MPI time"; 0 leaves the share out.
    void setMpiTimeNs(int64_t ns);

    /// Shows only `rank`'s rows (an invalid id shows every rank) and highlights its bar.
    void setRankFilter(RankId rank);
    RankId rankFilter() const;
    /// Every pattern, no text, every rank.
    void clearFilters();

    /// The totals line ("Waiting 1.23 s = 12.3% of MPI time · direct ... · indirect ...").
    QString summaryText() const;
    /// True while the "no wait states" placeholder is shown instead of table and chart.
    bool showsPlaceholder() const;

    WaitStateItemModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const;
    QTableView* table() const { return table_; }
    WaitBarChart* chart() const { return chart_; }
    QComboBox* patternFilter() const { return patterns_; }
    QLineEdit* textFilter() const { return text_; }

signals:
    /// The longest wait of the selected row.
    void waitRequested(const rankscope::WaitState& wait);

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    void fillPatterns();
    void updateSummary();
    void onSelection();

    std::shared_ptr<const WaitStateAnalysis> analysis_;
    int64_t mpiTimeNs_ = 0;
    WaitStateItemModel* model_;
    detail::WaitStateFilter* filter_;
    QStackedLayout* pages_;
    QLabel* placeholder_;
    QLabel* summary_;
    QComboBox* patterns_;
    QLineEdit* text_;
    QToolButton* rankButton_;
    QTableView* table_;
    WaitBarChart* chart_;
};

} // namespace rankscope
