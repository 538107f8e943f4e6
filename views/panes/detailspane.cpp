#include "views/panes/detailspane.h"

#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/panes/itemviewtext.h"
#include "views/panes/profileitemmodel.h"

#include <QHeaderView>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

namespace {

/// Item heights for wrapped values: QTreeView asks the delegate for a size without the
/// column's width, so a wrapped value would keep one line and be cut.
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), view_(view) {}

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        if (index.column() != 1) return size;
        const int width = view_->columnWidth(1) - 28;
        if (width <= 20) return size;
        const QRect text = option.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20),
                                                           Qt::TextWordWrap | Qt::TextWrapAnywhere,
                                                           index.data(Qt::DisplayRole).toString());
        size.setHeight(std::max(size.height(), text.height() + 4));
        return size;
    }

private:
    QTreeView* view_;
};

} // namespace

namespace {

// Members listed one by one; larger collectives list the earliest and latest arrivals.
constexpr size_t kMaxListedMembers = 16;

QString rankText(RankId r)
{
    return r.valid() ? DetailsPane::tr("rank %1").arg(r.value) : DetailsPane::tr("none");
}

} // namespace

DetailsPane::DetailsPane(QWidget* parent) : QWidget(parent), tree_(new QTreeWidget(this))
{
    tree_->setColumnCount(2);
    ItemViewText::install(tree_);
    tree_->setHeaderLabels({tr("Field"), tr("Value")});
    tree_->setRootIsDecorated(false);
    // Long values (call paths, call sites) wrap instead of being cut.
    tree_->setUniformRowHeights(false);
    tree_->setWordWrap(true);
    tree_->setTextElideMode(Qt::ElideNone); // wrapped lines are not cut as well
    tree_->setItemDelegate(new WrappingDelegate(tree_));
    // Row heights follow the value column's width when the pane is resized.
    connect(tree_->header(), &QHeaderView::sectionResized, tree_,
            [this] { tree_->doItemsLayout(); });
    tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->setToolTip(tr("Details of the region, message or MPI call selected on the timeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tree_);
    refresh();
}

DetailsPane::~DetailsPane() = default;

void DetailsPane::setTrace(std::shared_ptr<const Trace> trace)
{
    trace_ = std::move(trace);
    callSites_ = CallSiteTable();
    calls_.clear();
    recentRanks_.clear();
    rows_.clear();
    refresh();
}

QString DetailsPane::value(const QString& section, const QString& field) const
{
    for (const Row& r : rows_)
        if (r.section == section && r.field == field) return r.value;
    return {};
}

void DetailsPane::add(const QString& section, const QString& field, const QString& value)
{
    rows_.push_back({section, field, value});
}

const RankCallRecords& DetailsPane::callsOf(RankId rank)
{
    recentRanks_.erase(std::remove(recentRanks_.begin(), recentRanks_.end(), rank.value),
                       recentRanks_.end());
    recentRanks_.push_back(rank.value);
    auto it = calls_.find(rank.value);
    if (it == calls_.end()) {
        if (calls_.size() >= kCachedRanks) { // forget the least recently used rank
            calls_.erase(recentRanks_.front());
            recentRanks_.erase(recentRanks_.begin());
        }
        it = calls_.emplace(rank.value, mpiCallRecords(*trace_, rank, callSites_)).first;
    }
    return it->second;
}

void DetailsPane::setSelection(const TimelineSelection& selection)
{
    rows_.clear();
    if (trace_ && selection.valid() && selection.rank.value < trace_->rankCount()) {
        const TimelineSelection& s = selection;
        // MPI calls live on the rank's main location; a pick inside one describes the call.
        const bool onMain = !s.location.valid() || trace_->rank(s.rank).mainLocation == s.location;
        const RankCallRecords* calls = nullptr;
        const CallRecord* call = nullptr;
        if (onMain && s.enterEvent != kNoEvent) {
            calls = &callsOf(s.rank);
            auto it =
                std::upper_bound(calls->calls.begin(), calls->calls.end(), s.enterEvent,
                                 [](uint32_t e, const CallRecord& c) { return e < c.enterEvent; });
            if (it != calls->calls.begin()) {
                --it;
                if (it->enterEvent == s.enterEvent || it->leaveEvent == kNoEvent ||
                    it->leaveEvent > s.enterEvent)
                    call = &*it;
            }
        }
        // The call section repeats enter and leave; a region picked inside a call keeps its own.
        if (s.location.valid() && s.enterEvent != kNoEvent)
            describeRegion(s, !call || call->enterEvent != s.enterEvent);
        if (call) {
            describeCall(*calls, size_t(call - calls->calls.data()));
            bool messageShown = s.message.valid();
            for (const CallPayload& p : calls->payloadOf(*call)) {
                if (p.message().valid() && !messageShown) {
                    describeMessage(p.message(), s.rank);
                    messageShown = true;
                } else if (p.collective().valid() && p.kind == EventKind::MpiCollectiveEnd) {
                    describeCollective(p.collective(), s.rank);
                }
            }
        }
        if (s.message.valid() && s.message.value < trace_->messages().size())
            describeMessage(s.message, s.rank);
    }
    refresh();
}

void DetailsPane::describeRegion(const TimelineSelection& s, bool withTimes)
{
    const Trace& t = *trace_;
    const EventStream& ev = t.events(s.location);
    if (s.enterEvent >= ev.size()) return;
    const QString sec = tr("Region");
    const RegionId region = s.region.valid() ? s.region : ev.region(s.enterEvent);
    const int64_t enter = ev.time(s.enterEvent);
    const bool closed = s.leaveEvent != kNoEvent && s.leaveEvent < ev.size();
    const int64_t leave = closed ? ev.time(s.leaveEvent) : ev.time(ev.size() - 1);
    if (region.valid() && region.value < t.regions().size()) {
        add(sec, tr("Region"), QString::fromUtf8(t.regionName(region)));
        add(sec, tr("Role"), ProfileItemModel::roleName(t.region(region).role));
    }
    add(sec, tr("Rank"), rankText(s.rank));
    if (s.location != t.rank(s.rank).mainLocation)
        add(sec, tr("Location"), QString::fromUtf8(t.str(t.location(s.location).name)));
    if (!withTimes) return;
    add(sec, tr("Enter"), formatTimestamp(enter));
    add(sec, tr("Leave"),
        closed ? formatTimestamp(leave)
               : tr("%1 (unclosed: trace ends)").arg(formatTimestamp(leave)));
    add(sec, tr("Duration"), formatDuration(double(leave - enter)));
}

void DetailsPane::describeCall(const RankCallRecords& calls, size_t index)
{
    const CallRecord& c = calls.calls[index];
    const QString sec = tr("MPI call");
    const QString site = c.callSite.valid() ? QString::fromUtf8(callSites_.name(c.callSite))
                                            : QString::fromUtf8(trace_->regionName(c.region));
    add(sec, tr("Function"), QString::fromUtf8(trace_->regionName(c.region)));
    add(sec, tr("Call site"), site);
    add(sec, tr("Enter"), formatTimestamp(c.enterTime));
    add(sec, tr("Leave"), formatTimestamp(c.leaveTime));
    add(sec, tr("Duration"), formatDuration(double(c.duration())));
    add(sec, tr("Call"), tr("%1 of %2 on this rank").arg(index + 1).arg(calls.calls.size()));
    if (index == 0) {
        add(sec, tr("Delta time"), tr("none (first MPI call of the rank)"));
        return;
    }
    const CallRecord& prev = calls.calls[index - 1];
    const QString prevSite = prev.callSite.valid()
                                 ? QString::fromUtf8(callSites_.name(prev.callSite))
                                 : QString::fromUtf8(trace_->regionName(prev.region));
    add(sec, tr("Delta time"), formatDuration(double(c.enterTime - prev.leaveTime)));
    add(sec, tr("Interval"), QStringLiteral("%1 - %2").arg(prevSite, site));
}

void DetailsPane::describeMessage(MessageId id, RankId self)
{
    const Trace& t = *trace_;
    const Message& m = t.message(id);
    const QString sec = tr("Message");
    const RankId sender = t.messageSender(m);
    const RankId receiver = t.messageReceiver(m);
    if (sender == self && receiver != self)
        add(sec, tr("Direction"), tr("sent to %1").arg(rankText(receiver)));
    else if (receiver == self && sender != self)
        add(sec, tr("Direction"), tr("received from %1").arg(rankText(sender)));
    else
        add(sec, tr("Direction"), tr("%1 to %2").arg(rankText(sender), rankText(receiver)));
    add(sec, tr("Tag"), QString::number(m.tag));
    if (m.comm.valid() && m.comm.value < t.communicators().size())
        add(sec, tr("Communicator"), QString::fromUtf8(t.str(t.communicator(m.comm).name)));
    add(sec, tr("Bytes"), tr("%1 (%2)").arg(formatCount(m.bytes), formatBytes(m.bytes)));
    if (m.sendLocation.valid())
        add(sec, tr("Sent"), formatTimestamp(t.events(m.sendLocation).time(m.sendEvent)));
    else
        add(sec, tr("Sent"), tr("unmatched: no send found"));
    if (m.recvLocation.valid())
        add(sec, tr("Received"), formatTimestamp(t.events(m.recvLocation).time(m.recvEvent)));
    else
        add(sec, tr("Received"), tr("unmatched: no receive found"));
    if (m.matched()) {
        const int64_t d =
            t.events(m.recvLocation).time(m.recvEvent) - t.events(m.sendLocation).time(m.sendEvent);
        add(sec, tr("Send to receive"), formatDuration(double(d)));
    }
}

int64_t DetailsPane::memberEnterTime(LocationId location, uint32_t beginEvent) const
{
    // The collective-begin record follows the call's Enter; a few records may sit between.
    const EventStream& ev = trace_->events(location);
    for (uint32_t i = beginEvent, steps = 0; i != kNoEvent && steps < 8; --i, ++steps) {
        if (ev.kind(i) == EventKind::Enter && trace_->region(ev.region(i)).isMpi())
            return ev.time(i);
        if (i == 0) break;
    }
    return ev.time(beginEvent);
}

void DetailsPane::describeCollective(CollectiveId id, RankId self)
{
    const Trace& t = *trace_;
    const CollectiveInstance& c = t.collective(id);
    const QString sec = tr("Collective");
    add(sec, tr("Operation"), QString::fromUtf8(collectiveOpName(c.op)));
    if (c.comm.valid() && c.comm.value < t.communicators().size()) {
        const Communicator& comm = t.communicator(c.comm);
        add(sec, tr("Communicator"),
            tr("%1 (%2 ranks)").arg(QString::fromUtf8(t.str(comm.name))).arg(comm.members.size()));
    }
    add(sec, tr("Root"), rankText(c.root));
    if (!c.complete) add(sec, tr("Complete"), tr("no: some member ranks never took part"));

    struct Arrival
    {
        RankId rank;
        int64_t enter;
    };
    std::vector<Arrival> arrivals;
    arrivals.reserve(c.memberCount);
    for (uint32_t i = 0; i < c.memberCount; ++i) {
        const CollectiveMember& m = t.collectiveMembers()[c.firstMember + i];
        const RankId r = t.rankOf(m.location);
        arrivals.push_back({r, memberEnterTime(m.location, m.beginEvent)});
        if (r == self) {
            add(sec, tr("Bytes sent"), formatBytes(m.bytesSent));
            add(sec, tr("Bytes received"), formatBytes(m.bytesReceived));
        }
    }
    if (arrivals.empty()) return;
    std::stable_sort(arrivals.begin(), arrivals.end(),
                     [](const Arrival& a, const Arrival& b) { return a.enter < b.enter; });
    const int64_t first = arrivals.front().enter;
    const QString msec = tr("Members (by arrival)");
    const auto line = [&](const Arrival& a) {
        add(msec, rankText(a.rank) + (a.rank == self ? tr(" (this)") : QString()),
            tr("%1  (+%2)").arg(formatTimestamp(a.enter), formatDuration(double(a.enter - first))));
    };
    if (arrivals.size() <= kMaxListedMembers) {
        for (const Arrival& a : arrivals)
            line(a);
        return;
    }
    const size_t half = kMaxListedMembers / 2;
    for (size_t i = 0; i < half; ++i)
        line(arrivals[i]);
    add(msec, QStringLiteral("..."), tr("%1 more").arg(arrivals.size() - 2 * half));
    for (size_t i = arrivals.size() - half; i < arrivals.size(); ++i)
        line(arrivals[i]);
}

void DetailsPane::setRows(std::vector<Row> rows)
{
    rows_ = std::move(rows);
    refresh();
}

void DetailsPane::refresh()
{
    tree_->clear();
    if (rows_.empty()) {
        auto* hint = new QTreeWidgetItem(
            tree_, {tr("Nothing selected"), tr("Click a region or a message line on the "
                                               "timeline; N / P step through MPI calls")});
        hint->setDisabled(true);
        return;
    }
    QTreeWidgetItem* section = nullptr;
    for (const Row& r : rows_) {
        if (!section || section->text(0) != r.section) {
            section = new QTreeWidgetItem(tree_, {r.section});
            QFont f = section->font(0);
            f.setBold(true);
            section->setFont(0, f);
            section->setFirstColumnSpanned(true);
            section->setExpanded(true);
        }
        // Call paths wrap after their separators (a zero-width space is a break opportunity).
        QString shown = r.value;
        shown.replace(QLatin1Char('>'), QStringLiteral(">\u200B"));
        shown.replace(QLatin1Char(':'), QStringLiteral(":\u200B"));
        new QTreeWidgetItem(section, {r.field, shown});
    }
    tree_->expandAll();
}

} // namespace rankscope
