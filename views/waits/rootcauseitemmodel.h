#pragma once
// Root causes as a table, in one of two modes: the waiting charged to each (hotspot function,
// late rank) pair, or each function's part of the waiting at each call site. Each row also knows
// the wait it best illustrates (worstWait), precomputed in one pass over the waits. SortRole
// gives raw numbers for a QSortFilterProxyModel, as in ProfileItemModel.

#include "model/trace/ids.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;
struct WaitStateAnalysis;
struct RootCauseReport;

class RootCauseItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Mode
    {
        FunctionRank, ///< rows of RootCauseReport::perFunctionRank
        CallSite,     ///< rows of RootCauseReport::perCallSite
    };
    // Columns of FunctionRank mode.
    enum FunctionRankColumn
    {
        FunctionColumn,
        RankColumn,
        CostColumn,
        ShareOfAllColumn,
    };
    // Columns of CallSite mode.
    enum CallSiteColumnIndex
    {
        CallSiteColumn,
        CallSiteFunctionColumn,
        CallSiteCostColumn,
        ShareAtCallSiteColumn,
    };
    static constexpr int ColumnCount = 4;
    /// Raw value for sorting: qint64 ns / double % / QString / quint32 rank.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RootCauseItemModel(Mode mode, QObject* parent = nullptr);
    Mode mode() const { return mode_; }

    /// Shows `report`, made from `analysis` of `trace` (all stay alive while shown); null clears.
    void setReport(std::shared_ptr<const Trace> trace,
                   std::shared_ptr<const WaitStateAnalysis> analysis,
                   std::shared_ptr<const RootCauseReport> report);

    /// Index into the analysis' waits best showing `row`: FunctionRank mode, the longest wait
    /// whose cause is the row's rank; CallSite mode, the longest wait at the row's call site.
    /// Ties: the earliest begin, then the lower index. -1 if none.
    int worstWait(int row) const;
    /// The function of `row` (both modes) and its rank (FunctionRank mode; else invalid).
    RegionId function(int row) const;
    RankId rank(int row) const;

    /// Up to `count` sentences "Balancing F would remove up to Y% of the waiting at S", from the
    /// call-site causes with the largest cost.
    QStringList statements(int count = 3) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(int row, int column) const;
    QString toolTip(int row, int column) const;
    QString functionName(RegionId id) const;
    QString callSiteName(uint32_t id) const;

    Mode mode_;
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const WaitStateAnalysis> analysis_;
    std::shared_ptr<const RootCauseReport> report_;
    std::vector<int> worstByCause_;    // RankId -> index of its longest caused wait, or -1
    std::vector<int> worstByCallSite_; // CallSiteId -> index of its longest wait, or -1
};

} // namespace rankscope
