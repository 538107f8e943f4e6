#pragma once
// The list beside an extrapolation's histogram: first "Per-rank sums", then every predicted
// execution interval, most expensive first. "Expensive" is the predicted total time at the
// target, mean delta x count per rank x target ranks, taken from the primary (Rankscope, else
// classic) result, so the order stays put when the user switches the method shown; the
// columns show the chosen method's numbers.

#include "views/extrap/extraprun.h"

#include <QAbstractTableModel>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rankscope {

class ExtrapIntervalItemModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        MeanColumn,
        CountColumn,
        AccuracyColumn,
        ColumnCount
    };
    /// Raw value for sorting: double, QString for the name.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ExtrapIntervalItemModel(QObject* parent = nullptr);

    void setRun(std::shared_ptr<const ExtrapolationRun> run);
    void setMethod(extrap::Method method);
    extrap::Method method() const { return method_; }

    /// Predicted total time of `p` over all `target` ranks, ns.
    static double totalTimeNs(const extrap::IntervalPrediction& p, uint32_t target);
    /// Accuracy of the predicted mean delta, when measured.
    static std::optional<double> accuracy(const extrap::IntervalPrediction& p);

    /// `name` with each call site cut to its innermost region ("main>iteration:MPI_Isend -
    /// main>iteration:MPI_Waitall" reads "iteration:MPI_Isend - iteration:MPI_Waitall"), for
    /// the narrow list; the full name is in the tooltip.
    static QString shortIntervalName(const QString& name);
    /// Row 0 is the per-rank sums; rows 1.. the intervals. Empty name for row 0.
    QString intervalName(int row) const;
    /// The interval of `row` in the shown method's result; null for row 0 or when that result
    /// has no such interval (classic in sum mode).
    const extrap::IntervalPrediction* interval(int row) const;
    const extrap::ExtrapolationResult* result() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sumsData(int column, int role) const;
    QVariant intervalData(const extrap::IntervalPrediction& p, int column, int role) const;

    std::shared_ptr<const ExtrapolationRun> run_;
    extrap::Method method_ = extrap::Method::Rankscope;
    std::vector<std::string> names_; // rows 1..
    std::map<std::string, size_t> rankscopeIndex_;
    std::map<std::string, size_t> classicIndex_;
};

} // namespace rankscope
