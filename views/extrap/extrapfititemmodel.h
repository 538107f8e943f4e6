#pragma once
// Every fitted series of one prediction x every candidate model tried for it: series, model,
// formula with its coefficients, goodness d, prediction at the target and whether it was
// chosen. Users want to see why a model won (ALGORITHMS.md §3.2), so nothing is left out.

#include "whatif/extrap/seriesfit.h"

#include <QAbstractTableModel>
#include <utility>
#include <vector>

namespace rankscope {

class ExtrapFitItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        SeriesColumn,
        ModelColumn,
        FormulaColumn,
        GoodnessColumn,
        PredictionColumn,
        ChosenColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;   ///< raw value for sorting
    static constexpr int SeriesRole = Qt::UserRole + 2; ///< index of the row's series (int)
    static constexpr int ModelRole = Qt::UserRole + 3;  ///< index of the candidate (int)

    explicit ExtrapFitItemModel(QObject* parent = nullptr);

    /// `rankscopeMethod`: d is a cross-validated SMAPE in % (else the classic d of §3.2).
    void setFits(std::vector<extrap::SeriesFit> fits, bool rankscopeMethod);
    const std::vector<extrap::SeriesFit>& fits() const { return fits_; }
    /// The (series, candidate) of a row.
    std::pair<int, int> entry(int row) const { return rows_[size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<extrap::SeriesFit> fits_;
    std::vector<std::pair<int, int>> rows_;
    bool rankscope_ = true;
};

} // namespace rankscope
