#include "views/extrap/extrapfititemmodel.h"

#include "views/extrap/extrapformat.h"

#include <QColor>
#include <QFont>
#include <cmath>

namespace rankscope {

ExtrapFitItemModel::ExtrapFitItemModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExtrapFitItemModel::setFits(std::vector<extrap::SeriesFit> fits, bool rankscopeMethod)
{
    beginResetModel();
    fits_ = std::move(fits);
    rankscope_ = rankscopeMethod;
    rows_.clear();
    for (size_t s = 0; s < fits_.size(); ++s)
        for (size_t m = 0; m < fits_[s].models.size(); ++m)
            rows_.emplace_back(int(s), int(m));
    endResetModel();
}

int ExtrapFitItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int ExtrapFitItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExtrapFitItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= rows_.size()) return {};
    const auto [s, m] = rows_[size_t(index.row())];
    const extrap::SeriesFit& fit = fits_[size_t(s)];
    const extrap::CandidateModel& c = fit.models[size_t(m)];
    const bool chosen = fit.chosen == m;
    if (role == SeriesRole) return s;
    if (role == ModelRole) return m;
    const SeriesUnit unit = seriesUnit(fit.quantity);
    const QString d = std::isfinite(c.d) ? QString::number(c.d, 'g', 4) : QStringLiteral("inf");
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case SeriesColumn:
            return QString::fromStdString(fit.quantity);
        case ModelColumn:
            return QString::fromStdString(c.name);
        case FormulaColumn:
            return QString::fromStdString(c.formula);
        case GoodnessColumn:
            return d;
        case PredictionColumn:
            return formatSeriesValue(c.prediction, unit);
        case ChosenColumn:
            return chosen ? QStringLiteral("✓") : QString();
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case SeriesColumn:
            return s;
        case ModelColumn:
            return QString::fromStdString(c.name);
        case FormulaColumn:
            return QString::fromStdString(c.formula);
        case GoodnessColumn:
            return std::isfinite(c.d) && c.plausible ? c.d : 1e300; // implausible last
        case PredictionColumn:
            return c.prediction;
        case ChosenColumn:
            return chosen ? 1 : 0;
        }
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == GoodnessColumn || index.column() == PredictionColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::TextAlignmentRole && index.column() == ChosenColumn)
        return QVariant(Qt::AlignCenter);
    if (role == Qt::FontRole && (chosen || !c.plausible)) {
        QFont f;
        f.setBold(chosen);
        f.setItalic(!c.plausible);
        return f;
    }
    if (role == Qt::ForegroundRole && !c.plausible) return QColor(Qt::gray);
    if (role == Qt::ToolTipRole) {
        QString tip = QStringLiteral("%1: %2\n%3\nd = %4, %5 coefficient(s)\nat the target: %6")
                          .arg(QString::fromStdString(fit.quantity), QString::fromStdString(c.name),
                               QString::fromStdString(c.formula), d)
                          .arg(c.terms)
                          .arg(formatSeriesValue(c.prediction, unit));
        if (chosen)
            tip += tr("\nchosen; prediction %1")
                       .arg(formatWithInterval(fit.prediction, fit.low, fit.high, unit));
        if (chosen && fit.clamped) tip += tr(" (negative, clamped to 0)");
        if (c.heldOutPct >= 0)
            tip += tr("\nheld out: predicts the largest input scale from the smaller ones with "
                      "error %1 %")
                       .arg(c.heldOutPct, 0, 'f', 1);
        if (!c.plausible)
            tip +=
                tr("\nimplausible: negative at the target for a positive quantity; never chosen");
        return tip;
    }
    return {};
}

QVariant ExtrapFitItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case SeriesColumn:
            return tr("Series");
        case ModelColumn:
            return tr("Model");
        case FormulaColumn:
            return tr("Formula");
        case GoodnessColumn:
            return tr("d");
        case PredictionColumn:
            return tr("Prediction");
        case ChosenColumn:
            return tr("Chosen");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SeriesColumn:
            return tr("The quantity fitted across the small scales");
        case ModelColumn:
            return tr("The candidate model");
        case FormulaColumn:
            return tr("The fitted function of n with its coefficients");
        case GoodnessColumn:
            return rankscope_ ? tr("Goodness: the error (SMAPE, %) of predicting the largest input "
                                   "scale from the smaller ones (with 4 or more scales, the mean "
                                   "with the leave-one-out error); smaller is better. A model "
                                   "with more coefficients must be clearly better, beyond the "
                                   "noise, to be chosen")
                              : tr("Goodness d of ALGORITHMS.md 3.2; smaller is better");
        case PredictionColumn:
            return tr("The candidate evaluated at the target scale");
        case ChosenColumn:
            return tr("✓: the model chosen for this series");
        }
    }
    return {};
}

} // namespace rankscope
