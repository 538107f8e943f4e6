#include "views/waits/waitstateitemmodel.h"

#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/waits/waitpalette.h"

#include <QPainter>
#include <QPixmap>
#include <unordered_map>

namespace rankscope {

namespace {

// (pattern, call site, rank) packed into one 64-bit key: the pattern needs 3 bits and a call
// site id fits the remaining 29 comfortably (one per distinct call path).
uint64_t rowKey(const WaitState& w)
{
    return (uint64_t(w.rank.value) << 32) | (uint64_t(w.callSite.value) << 3) | uint64_t(w.pattern);
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(share, 0, 'f', 1);
}

} // namespace

WaitStateItemModel::WaitStateItemModel(QObject* parent) : QAbstractTableModel(parent) {}

QIcon WaitStateItemModel::swatch(WaitPattern pattern)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(QColor(80, 80, 80));
    p.setBrush(WaitPalette::color(pattern));
    p.drawRect(0, 0, 11, 11);
    return QIcon(pm);
}

void WaitStateItemModel::setAnalysis(std::shared_ptr<const Trace> trace,
                                     std::shared_ptr<const WaitStateAnalysis> analysis)
{
    beginResetModel();
    trace_ = std::move(trace);
    analysis_ = std::move(analysis);
    rows_.clear();
    if (trace_ && analysis_) {
        std::unordered_map<uint64_t, uint32_t> index;
        index.reserve(analysis_->callSites.size() * kWaitPatternCount + 16);
        const std::vector<WaitState>& waits = analysis_->waits;
        for (size_t i = 0; i < waits.size(); ++i) {
            const WaitState& w = waits[i];
            auto [it, added] = index.try_emplace(rowKey(w), uint32_t(rows_.size()));
            if (added)
                rows_.push_back(Row{w.pattern, w.callSite, w.rank, 0, 0, 0, 0, 0, uint32_t(i)});
            Row& r = rows_[it->second];
            r.waitNs += w.duration();
            r.indirectNs += w.direct ? 0 : w.duration();
            r.wrongOrderNs += w.wrongOrder != WrongOrder::None ? w.duration() : 0;
            ++r.occurrences;
            // Waits come by (rank, begin) and a row has one rank: strictly longer keeps the
            // earliest of equally long waits.
            if (w.duration() > waits[r.worst].duration()) r.worst = uint32_t(i);
            r.longestNs = waits[r.worst].duration();
        }
        // A result summary holds the rows, not the waits: no single wait to show.
        if (waits.empty())
            for (const WaitRow& w : analysis_->rows)
                rows_.push_back(Row{w.pattern, w.callSite, w.rank, w.waitNs, w.indirectNs,
                                    w.wrongOrderNs, w.occurrences, w.longestNs, kNoWait});
    }
    endResetModel();
}

int WaitStateItemModel::worstWait(int row) const
{
    if (row < 0 || row >= int(rows_.size()) || rows_[size_t(row)].worst == kNoWait) return -1;
    return int(rows_[size_t(row)].worst);
}

QString WaitStateItemModel::callSiteName(int row) const
{
    if (row < 0 || row >= int(rows_.size())) return {};
    return QString::fromUtf8(analysis_->callSites.name(rows_[size_t(row)].callSite));
}

int WaitStateItemModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int WaitStateItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WaitStateItemModel::sortValue(const Row& row, int column) const
{
    switch (column) {
    case PatternColumn:
        return WaitPalette::name(row.pattern);
    case CallSiteColumn:
        return QString::fromUtf8(analysis_->callSites.name(row.callSite));
    case RankColumn:
        return quint32(row.rank.value);
    case WaitingColumn:
        return qint64(row.waitNs);
    case OccurrencesColumn:
        return quint64(row.occurrences);
    case ShareColumn:
        return analysis_->totalNs > 0 ? 100.0 * double(row.waitNs) / double(analysis_->totalNs)
                                      : 0.0;
    case LongestColumn:
        return qint64(row.longestNs);
    case IndirectShareColumn:
        return row.waitNs > 0 ? 100.0 * double(row.indirectNs) / double(row.waitNs) : 0.0;
    default:
        return {};
    }
}

QString WaitStateItemModel::toolTip(const Row& row, int column) const
{
    switch (column) {
    case PatternColumn: {
        QString tip = tr("%1: %2 ns waiting in %3 call(s)")
                          .arg(WaitPalette::name(row.pattern), formatCount(uint64_t(row.waitNs)))
                          .arg(row.occurrences);
        if (row.wrongOrderNs > 0)
            tip += tr("; %1 of it in wrong order (a message sent earlier could have been "
                      "received first)")
                       .arg(formatDuration(double(row.wrongOrderNs)));
        return tip;
    }
    case CallSiteColumn:
        return QString::fromUtf8(analysis_->callSites.name(row.callSite));
    case RankColumn:
        return tr("Waiting rank %1").arg(row.rank.value);
    case WaitingColumn:
    case ShareColumn:
        return tr("%1 ns of %2 ns waiting in all")
            .arg(formatCount(uint64_t(row.waitNs)), formatCount(uint64_t(analysis_->totalNs)));
    case LongestColumn: {
        if (row.worst == kNoWait)
            return tr("Longest: %1 (a result summary keeps no single waits)")
                .arg(formatDuration(double(row.longestNs)));
        const WaitState& w = analysis_->waits[row.worst];
        return tr("Longest: %1 in %2 from %3, waiting for rank %4%5")
            .arg(formatDuration(double(w.duration())),
                 QString::fromUtf8(trace_->regionName(w.region)), formatTimestamp(w.begin))
            .arg(w.cause.value)
            .arg(w.direct ? QString() : tr(" (which was itself waiting)"));
    }
    case IndirectShareColumn:
    case OccurrencesColumn:
        return tr("direct %1 / indirect %2 (indirect: the rank waited for was itself waiting)")
            .arg(formatDuration(double(row.waitNs - row.indirectNs)),
                 formatDuration(double(row.indirectNs)));
    default:
        return {};
    }
}

QVariant WaitStateItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()) || index.column() >= ColumnCount)
        return {};
    const Row& row = rows_[size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case SortRole:
        return sortValue(row, column);
    case PatternRole:
        return int(row.pattern);
    case RankRole:
        return quint32(row.rank.value);
    case Qt::DisplayRole: {
        const QVariant v = sortValue(row, column);
        switch (column) {
        case WaitingColumn:
        case LongestColumn:
            return formatDuration(v.toDouble());
        case OccurrencesColumn:
            return formatCount(v.toULongLong());
        case ShareColumn:
        case IndirectShareColumn:
            return percent(v.toDouble());
        default:
            return v.toString();
        }
    }
    case Qt::DecorationRole:
        if (column != PatternColumn) return {};
        // Painting asks for every visible row: make each pattern's pixmap once.
        if (icons_[size_t(row.pattern)].isNull()) icons_[size_t(row.pattern)] = swatch(row.pattern);
        return icons_[size_t(row.pattern)];
    case Qt::TextAlignmentRole:
        if (column == PatternColumn || column == CallSiteColumn)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    default:
        return {};
    }
}

QVariant WaitStateItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case PatternColumn:
            return tr("Pattern");
        case CallSiteColumn:
            return tr("Call site");
        case RankColumn:
            return tr("Rank");
        case WaitingColumn:
            return tr("Waiting");
        case OccurrencesColumn:
            return tr("Occurrences");
        case ShareColumn:
            return tr("% of all");
        case LongestColumn:
            return tr("Longest");
        case IndirectShareColumn:
            return tr("% indirect");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PatternColumn:
            return tr("Wait-state pattern (Scalasca names)");
        case CallSiteColumn:
            return tr("Where the waiting MPI call was made");
        case RankColumn:
            return tr("The rank that waited");
        case WaitingColumn:
            return tr("Waiting time summed over the occurrences");
        case OccurrencesColumn:
            return tr("Calls in which the rank waited");
        case ShareColumn:
            return tr("Share of all waiting in the trace, in percent");
        case LongestColumn:
            return tr("The worst single wait; select the row to show it");
        case IndirectShareColumn:
            return tr("Share of the waiting caused by a rank that was itself waiting");
        default:
            return {};
        }
    }
    return {};
}

} // namespace rankscope
