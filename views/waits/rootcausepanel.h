#pragma once
// The root-cause panel: the top statements ("Balancing F would remove up to Y% of the waiting
// at S") above two sortable tables, by (function, rank) and by call site, in tabs. Selecting a
// row asks to show the wait that best illustrates it (waitRequested) and, for a function-rank
// row, the late function on its rank (causeRequested).

#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <QWidget>
#include <memory>

class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QStackedLayout;
class QTabWidget;
class QTableView;

namespace rankscope {

class Trace;
class RootCauseItemModel;
struct RootCauseReport;

class RootCausePanel : public QWidget
{
    Q_OBJECT
public:
    explicit RootCausePanel(QWidget* parent = nullptr);

    /// Shows `report`, made from `analysis` of `trace` (all stay alive while shown); null clears.
    void setReport(std::shared_ptr<const Trace> trace,
                   std::shared_ptr<const WaitStateAnalysis> analysis,
                   std::shared_ptr<const RootCauseReport> report);

    /// The statements line(s) at the top, as shown.
    QString statementsText() const;
    bool showsPlaceholder() const;

    RootCauseItemModel* functionRankModel() const { return byFunctionRank_; }
    RootCauseItemModel* callSiteModel() const { return byCallSite_; }
    QTableView* functionRankTable() const { return functionRankTable_; }
    QTableView* callSiteTable() const { return callSiteTable_; }
    QTabWidget* tabs() const { return tabs_; }

signals:
    /// The wait that best illustrates the selected row.
    void waitRequested(const rankscope::WaitState& wait);
    /// A function-rank row was selected: `function` ran late on `rank`, producing `wait`.
    void causeRequested(rankscope::RegionId function, rankscope::RankId rank,
                        const rankscope::WaitState& wait);

private:
    QTableView* makeTable(RootCauseItemModel* model, int stretchColumn);
    void onSelection(QTableView* table, RootCauseItemModel* model);

    std::shared_ptr<const WaitStateAnalysis> analysis_;
    RootCauseItemModel* byFunctionRank_;
    RootCauseItemModel* byCallSite_;
    QStackedLayout* pages_;
    QLabel* placeholder_;
    QLabel* statements_;
    QTabWidget* tabs_;
    QTableView* functionRankTable_;
    QTableView* callSiteTable_;
};

} // namespace rankscope
