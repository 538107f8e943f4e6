#pragma once
// The wait-state table's filter: a pattern (or all), a rank (or all) and a text that must occur,
// case-insensitively, in the call site or in "rank N". Private to WaitStatePanel.

#include "views/waits/waitstateitemmodel.h"

#include <QSortFilterProxyModel>

namespace rankscope::detail {

class WaitStateFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// -1 for every pattern, else a WaitPattern value.
    void setPattern(int pattern) { update(pattern_, pattern); }
    /// -1 for every rank, else a RankId value.
    void setRank(qint64 rank) { update(rank_, rank); }
    void setText(const QString& text) { update(text_, text.trimmed()); }
    int pattern() const { return pattern_; }
    qint64 rank() const { return rank_; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QModelIndex i = sourceModel()->index(row, 0, parent);
        if (pattern_ >= 0 && i.data(WaitStateItemModel::PatternRole).toInt() != pattern_)
            return false;
        const qint64 rank = i.data(WaitStateItemModel::RankRole).toLongLong();
        if (rank_ >= 0 && rank != rank_) return false;
        if (text_.isEmpty()) return true;
        const QString site = sourceModel()
                                 ->index(row, WaitStateItemModel::CallSiteColumn, parent)
                                 .data(WaitStateItemModel::SortRole)
                                 .toString();
        return site.contains(text_, Qt::CaseInsensitive) ||
               QStringLiteral("rank %1").arg(rank).contains(text_, Qt::CaseInsensitive);
    }

private:
    template <class T, class U> void update(T& field, const U& value)
    {
        if (field == value) return;
        field = value;
        invalidateFilter();
    }

    int pattern_ = -1;
    qint64 rank_ = -1;
    QString text_;
};

} // namespace rankscope::detail
