#pragma once
// The critical-path profile as a table (Scalasca's critical-path profile): one row per function
// on the critical path, with its time on the path, its share of the path, its mean exclusive
// time per rank and the critical-path imbalance (path time the average rank does not spend in
// it). Display text is formatted; SortRole gives the raw number for a QSortFilterProxyModel.

#include <QAbstractTableModel>
#include <memory>

namespace rankscope {

class Trace;
struct CriticalPath;

class CriticalPathItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        FunctionColumn,
        PathColumn,
        ShareColumn,
        MeanColumn,
        ImbalanceColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit CriticalPathItemModel(QObject* parent = nullptr);

    /// Shows `path` of `trace` (both stay alive while shown); null clears.
    void setPath(std::shared_ptr<const Trace> trace, std::shared_ptr<const CriticalPath> path);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(int row, int column) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const CriticalPath> path_;
};

} // namespace rankscope
