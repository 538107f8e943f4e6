#pragma once
// The flat profile as a table: one row per region that was entered, with calls, inclusive and
// exclusive time over all ranks and the spread of exclusive time over ranks. Display text is
// formatted ("12.34 ms"); SortRole gives the raw number so a QSortFilterProxyModel sorts by value.

#include "model/trace/definitions.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;
struct Profile;

class ProfileItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RegionColumn,
        RoleColumn,
        CallsColumn,
        InclusiveColumn,
        ExclusiveColumn,
        ExclusiveMinColumn,
        ExclusiveMeanColumn,
        ExclusiveMaxColumn,
        ColumnCount
    };
    /// Raw value for sorting: qint64 ns / quint64 calls / QString for text columns.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The RegionId value of a row (quint32).
    static constexpr int RegionIdRole = Qt::UserRole + 2;

    explicit ProfileItemModel(QObject* parent = nullptr);

    /// How a region role reads in tables and panes ("MPI point-to-point").
    static QString roleName(RegionRole role);

    /// Shows `profile` of `trace` (both stay alive while shown); null clears.
    void setProfile(std::shared_ptr<const Trace> trace, std::shared_ptr<const Profile> profile);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(size_t row, int column) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const Profile> profile_;
    std::vector<uint32_t> rows_; // RegionId values of the regions that were entered
};

} // namespace rankscope
