#pragma once
// Wait states as a table: one row per (pattern, call site, waiting rank) with its waiting time,
// occurrences, share of all waiting, longest single wait and indirect share. Rows are built in
// one pass over the waits (hash on the triple), so a reset costs O(waits); display text is
// formatted ("12.34 ms") and SortRole gives the raw number for a QSortFilterProxyModel.

#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <QAbstractTableModel>
#include <QIcon>
#include <array>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;

class WaitStateItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        PatternColumn,
        CallSiteColumn,
        RankColumn,
        WaitingColumn,
        OccurrencesColumn,
        ShareColumn,
        LongestColumn,
        IndirectShareColumn,
        ColumnCount
    };
    /// Raw value for sorting: qint64 ns / quint64 count / double % / QString / quint32 rank.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The WaitPattern of a row as int (any column).
    static constexpr int PatternRole = Qt::UserRole + 2;
    /// The waiting RankId value of a row as quint32 (any column).
    static constexpr int RankRole = Qt::UserRole + 3;

    explicit WaitStateItemModel(QObject* parent = nullptr);

    /// Shows `analysis` of `trace` (both stay alive while shown); null clears.
    void setAnalysis(std::shared_ptr<const Trace> trace,
                     std::shared_ptr<const WaitStateAnalysis> analysis);
    const WaitStateAnalysis* analysis() const { return analysis_.get(); }

    /// Index into analysis()->waits of the longest wait of `row` (ties: the earliest); -1 if none.
    int worstWait(int row) const;
    /// The call site of `row` as printed ("main>solve:MPI_Recv").
    QString callSiteName(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// A framed colour square for `pattern` (white patterns stay visible on white).
    static QIcon swatch(WaitPattern pattern);

private:
    struct Row
    {
        WaitPattern pattern;
        CallSiteId callSite;
        RankId rank;
        int64_t waitNs = 0;
        int64_t indirectNs = 0;
        int64_t wrongOrderNs = 0; // Late Sender with a message that could have come first
        uint64_t occurrences = 0;
        int64_t longestNs = 0;
        uint32_t worst = 0; // index into waits, kNoWait for rows of a result summary
    };
    static constexpr uint32_t kNoWait = 0xFFFFFFFFu;

    QVariant sortValue(const Row& row, int column) const;
    QString toolTip(const Row& row, int column) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const WaitStateAnalysis> analysis_;
    std::vector<Row> rows_; // in order of first occurrence, i.e. by rank
    mutable std::array<QIcon, kWaitPatternCount> icons_;
};

} // namespace rankscope
