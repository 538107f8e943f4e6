#include "views/waits/rootcauseitemmodel.h"

#include "model/trace/trace.h"
#include "model/waits/rootcause.h"
#include "model/waits/waitstates.h"
#include "views/panes/durationformat.h"

#include <algorithm>
#include <numeric>

namespace rankscope {

namespace {

// Keeps in `slot` the longer of the waits `slot` and `candidate`; candidates come in index
// order, so on equal length the earlier begin and then the lower index win.
void keepWorse(int& slot, int candidate, const std::vector<WaitState>& waits)
{
    if (slot < 0) {
        slot = candidate;
        return;
    }
    const WaitState& a = waits[size_t(slot)];
    const WaitState& b = waits[size_t(candidate)];
    if (b.duration() > a.duration() || (b.duration() == a.duration() && b.begin < a.begin))
        slot = candidate;
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100.0 * share, 0, 'f', 1);
}

} // namespace

RootCauseItemModel::RootCauseItemModel(Mode mode, QObject* parent)
    : QAbstractTableModel(parent), mode_(mode)
{
}

void RootCauseItemModel::setReport(std::shared_ptr<const Trace> trace,
                                   std::shared_ptr<const WaitStateAnalysis> analysis,
                                   std::shared_ptr<const RootCauseReport> report)
{
    beginResetModel();
    trace_ = std::move(trace);
    analysis_ = std::move(analysis);
    report_ = std::move(report);
    worstByCause_.clear();
    worstByCallSite_.clear();
    if (!trace_ || !analysis_ || !report_) {
        trace_.reset();
        analysis_.reset();
        report_.reset();
    } else {
        worstByCause_.assign(trace_->rankCount(), -1);
        worstByCallSite_.assign(analysis_->callSites.size(), -1);
        const std::vector<WaitState>& waits = analysis_->waits;
        for (size_t i = 0; i < waits.size(); ++i) {
            const WaitState& w = waits[i];
            if (w.cause.valid() && w.cause.value < worstByCause_.size())
                keepWorse(worstByCause_[w.cause.value], int(i), waits);
            if (w.callSite.value < worstByCallSite_.size())
                keepWorse(worstByCallSite_[w.callSite.value], int(i), waits);
        }
    }
    endResetModel();
}

int RootCauseItemModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !report_) return 0;
    return int(mode_ == Mode::FunctionRank ? report_->perFunctionRank.size()
                                           : report_->perCallSite.size());
}

int RootCauseItemModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int RootCauseItemModel::worstWait(int row) const
{
    if (row < 0 || row >= rowCount()) return -1;
    if (mode_ == Mode::FunctionRank) {
        const uint32_t r = report_->perFunctionRank[size_t(row)].rank.value;
        return r < worstByCause_.size() ? worstByCause_[r] : -1;
    }
    const uint32_t site = report_->perCallSite[size_t(row)].callSite.value;
    return site < worstByCallSite_.size() ? worstByCallSite_[site] : -1;
}

RegionId RootCauseItemModel::function(int row) const
{
    if (row < 0 || row >= rowCount()) return {};
    return mode_ == Mode::FunctionRank ? report_->perFunctionRank[size_t(row)].function
                                       : report_->perCallSite[size_t(row)].function;
}

RankId RootCauseItemModel::rank(int row) const
{
    if (mode_ != Mode::FunctionRank || row < 0 || row >= rowCount()) return {};
    return report_->perFunctionRank[size_t(row)].rank;
}

QString RootCauseItemModel::functionName(RegionId id) const
{
    return QString::fromUtf8(trace_->regionName(id));
}

QString RootCauseItemModel::callSiteName(uint32_t id) const
{
    return QString::fromUtf8(analysis_->callSites.name(CallSiteId(id)));
}

QStringList RootCauseItemModel::statements(int count) const
{
    QStringList out;
    if (!report_ || count <= 0) return out;
    const std::vector<CallSiteCause>& causes = report_->perCallSite;
    std::vector<size_t> order(causes.size());
    std::iota(order.begin(), order.end(), size_t(0));
    const size_t n = std::min(order.size(), size_t(count));
    // Largest cost first; equal costs keep the report's order.
    std::partial_sort(order.begin(), order.begin() + ptrdiff_t(n), order.end(),
                      [&](size_t a, size_t b) {
                          if (causes[a].costNs != causes[b].costNs)
                              return causes[a].costNs > causes[b].costNs;
                          return a < b;
                      });
    for (size_t i = 0; i < n; ++i) {
        const CallSiteCause& c = causes[order[i]];
        out << tr("Balancing %1 would remove up to %2 of the waiting at %3")
                   .arg(functionName(c.function), percent(c.shareOfWaitingAtCallSite),
                        callSiteName(c.callSite.value));
    }
    return out;
}

QVariant RootCauseItemModel::sortValue(int row, int column) const
{
    if (mode_ == Mode::FunctionRank) {
        const RootCauseCost& c = report_->perFunctionRank[size_t(row)];
        switch (column) {
        case FunctionColumn:
            return functionName(c.function);
        case RankColumn:
            return quint32(c.rank.value);
        case CostColumn:
            return qint64(c.costNs);
        case ShareOfAllColumn:
            return report_->totalWaitNs > 0
                       ? 100.0 * double(c.costNs) / double(report_->totalWaitNs)
                       : 0.0;
        default:
            return {};
        }
    }
    const CallSiteCause& c = report_->perCallSite[size_t(row)];
    switch (column) {
    case CallSiteColumn:
        return callSiteName(c.callSite.value);
    case CallSiteFunctionColumn:
        return functionName(c.function);
    case CallSiteCostColumn:
        return qint64(c.costNs);
    case ShareAtCallSiteColumn:
        return 100.0 * c.shareOfWaitingAtCallSite;
    default:
        return {};
    }
}

QString RootCauseItemModel::toolTip(int row, int column) const
{
    if (mode_ == Mode::FunctionRank) {
        const RootCauseCost& c = report_->perFunctionRank[size_t(row)];
        if (column == FunctionColumn || column == RankColumn)
            return tr("%1 ran longer on rank %2 than on the ranks that waited for it; "
                      "select to show the longest wait rank %2 caused")
                .arg(functionName(c.function))
                .arg(c.rank.value);
        return tr("%1 ns of %2 ns waiting")
            .arg(formatCount(uint64_t(c.costNs)), formatCount(uint64_t(report_->totalWaitNs)));
    }
    const CallSiteCause& c = report_->perCallSite[size_t(row)];
    if (column == CallSiteColumn) return callSiteName(c.callSite.value);
    if (column == CallSiteFunctionColumn)
        return tr("Excess time in %1 on the late ranks explains this waiting")
            .arg(functionName(c.function));
    return tr("%1 ns; balancing %2 would remove up to %3 of the waiting at this call site")
        .arg(formatCount(uint64_t(c.costNs)), functionName(c.function),
             percent(c.shareOfWaitingAtCallSite));
}

QVariant RootCauseItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int row = index.row();
    const int column = index.column();
    // Column 2 is the cost and column 3 a percentage in both modes.
    const bool text =
        mode_ == Mode::FunctionRank ? column == FunctionColumn : column <= CallSiteFunctionColumn;
    switch (role) {
    case SortRole:
        return sortValue(row, column);
    case Qt::DisplayRole: {
        const QVariant v = sortValue(row, column);
        if (column == CostColumn) return formatDuration(v.toDouble());
        if (column == ShareOfAllColumn) return QStringLiteral("%1%").arg(v.toDouble(), 0, 'f', 1);
        return v.toString();
    }
    case Qt::TextAlignmentRole:
        return int((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    default:
        return {};
    }
}

QVariant RootCauseItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kFunctionRank[] = {QT_TR_NOOP("Function"), QT_TR_NOOP("Rank"),
                                                QT_TR_NOOP("Cost"),
                                                QT_TR_NOOP("Share of all waiting")};
    static const char* const kCallSite[] = {QT_TR_NOOP("Call site"), QT_TR_NOOP("Function"),
                                            QT_TR_NOOP("Cost"), QT_TR_NOOP("Share at call site")};
    if (role == Qt::DisplayRole)
        return tr(mode_ == Mode::FunctionRank ? kFunctionRank[section] : kCallSite[section]);
    if (role == Qt::ToolTipRole && section == CostColumn)
        return tr("Waiting explained by the function running late (root-cause analysis)");
    if (role == Qt::ToolTipRole && section == ShareOfAllColumn)
        return mode_ == Mode::FunctionRank ? tr("Cost as a share of all waiting in the trace")
                                           : tr("Cost as a share of the waiting at the call site");
    return {};
}

} // namespace rankscope
