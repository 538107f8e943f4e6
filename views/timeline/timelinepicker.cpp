#include "views/timeline/timelinepicker.h"

#include "views/timeline/timelinepainter.h"
#include "views/timeline/timelinestate.h"
#include "views/waits/waitpalette.h"

#include <QLineF>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr double kMessagePickDistance = 4.0;

bool anyMpiFrame(const Trace& trace, const StackCheckpoints::Stack& stack)
{
    return std::any_of(stack.begin(), stack.end(),
                       [&](const auto& f) { return trace.region(f.region).isMpi(); });
}

QString bytesText(uint64_t bytes)
{
    if (bytes >= (uint64_t(1) << 20))
        return QStringLiteral("%1 MiB").arg(double(bytes) / double(1 << 20), 0, 'f', 1);
    if (bytes >= 1024) return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(bytes);
}

QString durationText(double ns)
{
    return TimeMapping::formatTime(ns, std::max(1.0, ns / 1000));
}

QString qstr(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped();
}

} // namespace

TimelineSelection TimelinePicker::instance(RankId rank, uint32_t enter) const
{
    TimelineSelection s;
    const Trace& trace = *d.trace;
    const EventStream& events = trace.rankEvents(rank);
    if (enter >= events.size() || events.kind(enter) != EventKind::Enter) return s;
    s.rank = rank;
    s.location = trace.rank(rank).mainLocation;
    s.enterEvent = enter;
    s.region = events.region(enter);
    // Replay forward from the Enter until its frame is closed (its own Leave, or an enclosing
    // region's Leave under broken nesting); the work is the events inside the instance.
    StackCheckpoints::Stack stack;
    d.index->checkpoints.stackAt(rank, size_t(enter) + 1, stack);
    const size_t depth = stack.size();
    const bool pointToPoint = trace.region(s.region).role == RegionRole::MpiPointToPoint;
    for (size_t i = size_t(enter) + 1; i < events.size(); ++i) {
        if (pointToPoint && !s.message.valid() && isPointToPoint(events.kind(i)) &&
            stack.size() >= depth)
            s.message = events.message(i);
        StackCheckpoints::apply(events, i, stack);
        if (stack.size() < depth) {
            s.leaveEvent = uint32_t(i);
            break;
        }
    }
    return s;
}

std::pair<int64_t, int64_t> TimelinePicker::extent(const TimelineSelection& s) const
{
    const EventStream& events = d.trace->rankEvents(s.rank);
    if (s.enterEvent >= events.size()) return {0, 0};
    const int64_t end =
        s.leaveEvent < events.size() ? events.time(s.leaveEvent) : events.times().back();
    return {events.time(s.enterEvent), end};
}

RegionId TimelinePicker::drawnRegion(int row, int pixel) const
{
    RegionId region;
    const double npp = d.mapping.nsPerPixel();
    const double begin = d.traceTime(d.mapping.begin()) + pixel * npp;
    d.sampler.sampleRow(d.rows.rows()[size_t(row)].ranks, begin, npp, std::span(&region, 1));
    return region;
}

TimelineSelection TimelinePicker::messageAt(QPoint pos) const
{
    TimelineSelection s;
    if (!d.showMessages) return s;
    double best = kMessagePickDistance;
    const QPointF p(pos);
    for (const MessageIndex::Line& l : d.drawnMessages) {
        const int r0 = d.rows.rowOf(l.sender), r1 = d.rows.rowOf(l.receiver);
        if (r0 < 0 || r1 < 0 || r0 == r1) continue;
        const QPointF a(d.xOf(double(l.sendTime)), d.rowRect(r0).center().y());
        const QPointF b(d.xOf(double(l.recvTime)), d.rowRect(r1).center().y());
        const QPointF ab = b - a;
        const double len2 = QPointF::dotProduct(ab, ab);
        const double t =
            len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
        const double dist = QLineF(p, a + t * ab).length();
        if (dist < best) {
            best = dist;
            s.message = l.message;
            s.rank = l.sender;
        }
    }
    return s.message.valid() ? messageInstance(s.message) : s;
}

TimelineSelection TimelinePicker::messageInstance(MessageId id) const
{
    // The message's send call (the innermost region open at the send event) is the instance.
    const Message& m = d.trace->message(id);
    TimelineSelection s;
    s.rank = d.trace->rankOf(m.sendLocation);
    StackCheckpoints::Stack stack;
    d.index->checkpoints.stackAt(s.rank, size_t(m.sendEvent) + 1, stack);
    if (!stack.empty()) s = instance(s.rank, stack.back().enterEvent);
    s.message = id;
    s.location = m.sendLocation;
    return s;
}

TimelineSelection TimelinePicker::firstHighlightedMessage() const
{
    if (!d.trace || !d.index || d.highlightSenders.empty()) return {};
    const double begin = d.traceTime(d.mapping.begin());
    const double end = d.traceTime(d.mapping.end());
    thread_local std::vector<MessageIndex::Line> lines;
    d.index->messages.collect(d.highlightSenders, int64_t(std::floor(begin)),
                              int64_t(std::ceil(end)), TimelineState::kMaxHighlightCandidates,
                              lines);
    const MessageIndex::Line* first = nullptr;
    for (const MessageIndex::Line& l : lines)
        if (d.highlighted(l.sender, l.receiver) && l.sendTime >= begin &&
            (!first || l.sendTime < first->sendTime))
            first = &l;
    return first ? messageInstance(first->message) : TimelineSelection();
}

TimelineSelection TimelinePicker::itemAt(QPoint pos) const
{
    if (!d.trace || !d.plot.contains(pos)) return {};
    if (TimelineSelection s = messageAt(pos); s.valid()) return s;
    const int row = d.rows.rowAt(pos.y() - d.plot.top());
    if (row < 0 || d.rows.rows()[size_t(row)].group()) return {};
    const RankId rank = d.rows.rows()[size_t(row)].ranks[0];
    const int pixel = pos.x() - d.plot.left();
    const RegionId region = drawnRegion(row, pixel);
    if (!region.valid()) return {};
    // Find an instance of the drawn region in this pixel: open at its start, or entered in it.
    const double npp = d.mapping.nsPerPixel();
    const double t0 = d.traceTime(d.mapping.begin()) + pixel * npp;
    const EventStream& events = d.trace->rankEvents(rank);
    const auto [first, last] = events.window(int64_t(std::floor(t0)), int64_t(std::ceil(t0 + npp)));
    StackCheckpoints::Stack stack;
    d.index->checkpoints.stackAt(rank, first, stack);
    for (auto f = stack.rbegin(); f != stack.rend(); ++f)
        if (f->region == region) return instance(rank, f->enterEvent);
    for (size_t i = first; i < last; ++i)
        if (events.kind(i) == EventKind::Enter && events.region(i) == region)
            return instance(rank, uint32_t(i));
    return {};
}

TimelineSelection TimelinePicker::nextCall(RankId rank, size_t from, bool forward) const
{
    const Trace& trace = *d.trace;
    if (!rank.valid() || rank.value >= trace.rankCount()) return {};
    const EventStream& events = trace.rankEvents(rank);
    StackCheckpoints::Stack stack;
    auto isMpiEnter = [&](size_t i) {
        return events.kind(i) == EventKind::Enter && trace.region(events.region(i)).isMpi();
    };
    if (forward) {
        d.index->checkpoints.stackAt(rank, from, stack);
        for (size_t i = from; i < events.size(); ++i) {
            if (isMpiEnter(i) && !anyMpiFrame(trace, stack)) return instance(rank, uint32_t(i));
            StackCheckpoints::apply(events, i, stack);
        }
        return {};
    }
    // Backward: each MPI Enter is a candidate; it is outermost when no MPI frame is open at it.
    for (size_t i = std::min(from, events.size()); i-- > 0;) {
        if (!isMpiEnter(i)) continue;
        d.index->checkpoints.stackAt(rank, i, stack);
        if (!anyMpiFrame(trace, stack)) return instance(rank, uint32_t(i));
    }
    return {};
}

QString TimelinePicker::describe(const TimelineSelection& s) const
{
    const Trace& trace = *d.trace;
    const Region& region = trace.region(s.region);
    const auto [t0, t1] = extent(s);
    QString text = QStringLiteral("<b>%1</b> &mdash; %2<br>Rank %3")
                       .arg(qstr(trace.regionName(s.region)), RegionPalette::roleLabel(region.role))
                       .arg(s.rank.value);
    text += QStringLiteral("<br>Duration %1%2 (from %3 to %4)")
                .arg(durationText(double(t1 - t0)),
                     s.leaveEvent == kNoEvent ? QStringLiteral(", unclosed") : QString(),
                     // Start and end with the digits the duration needs to tell them apart.
                     TimeMapping::formatTime(d.displayedTime(double(t0)),
                                             std::max(double(t1 - t0) / 10, 1.0)),
                     TimeMapping::formatTime(d.displayedTime(double(t1)),
                                             std::max(double(t1 - t0) / 10, 1.0)));
    // Call path: the regions open below this one ("main > iteration > MPI_Allreduce").
    StackCheckpoints::Stack stack;
    d.index->checkpoints.stackAt(s.rank, s.enterEvent, stack);
    QStringList path;
    for (const auto& f : stack)
        path << qstr(trace.regionName(f.region));
    path << qstr(trace.regionName(s.region));
    text += QStringLiteral("<br>Call path: %1").arg(path.join(QStringLiteral(" &rsaquo; ")));
    const EventStream& events = trace.rankEvents(s.rank);
    if (const SourceLocation* where = events.sourceLocation(s.enterEvent); where)
        text += QStringLiteral("<br>Call site: %1:%2")
                    .arg(qstr(trace.str(where->file)))
                    .arg(where->line);
    else if (region.file.valid() && region.line > 0)
        text += QStringLiteral("<br>Defined at %1:%2")
                    .arg(qstr(trace.str(region.file)))
                    .arg(region.line);
    if (d.showWaits && trace.region(s.region).isMpi()) {
        const WaitState* w = d.waits.waitAt(s.rank, double(t0));
        if (w && w->enterEvent == s.enterEvent) text += QStringLiteral("<hr>") + describeWait(*w);
    }
    if (s.message.valid()) text += QStringLiteral("<hr>") + describeMessage(s.message);
    return text;
}

QString TimelinePicker::describeWait(const WaitState& w) const
{
    QString text =
        QStringLiteral("<b>%1</b>: waited %2 for rank %3 (%4)")
            .arg(WaitPalette::name(w.pattern).toHtmlEscaped(), durationText(double(w.duration())))
            .arg(w.cause.value)
            .arg(w.direct
                     ? QStringLiteral("direct")
                     : QStringLiteral("indirect: rank %1 was itself waiting").arg(w.cause.value));
    if (w.wrongOrder == WrongOrder::SameSource)
        text += QStringLiteral("<br>Messages in wrong order: an earlier message from rank %1 "
                               "was received later")
                    .arg(w.cause.value);
    else if (w.wrongOrder == WrongOrder::DifferentSource)
        text += QStringLiteral("<br>Messages in wrong order: an earlier message from another "
                               "rank was received later");
    return text;
}

QString TimelinePicker::describeMessage(MessageId id) const
{
    const Trace& trace = *d.trace;
    const Message& m = trace.message(id);
    const MessageIndex::Line l = MessageIndex::line(trace, id);
    QString comm;
    if (m.comm.valid()) comm = qstr(trace.str(trace.communicator(m.comm).name));
    QString text =
        QStringLiteral("<b>Message</b> rank %1 &rarr; rank %2<br>Tag %3, %4%5")
            .arg(l.sender.value)
            .arg(l.receiver.value)
            .arg(m.tag)
            .arg(bytesText(m.bytes), comm.isEmpty() ? QString() : QStringLiteral(", ") + comm);
    if (m.matched())
        text +=
            QStringLiteral("<br>Sent at %1, received %2 later")
                .arg(TimeMapping::formatTime(d.displayedTime(double(l.sendTime)),
                                             std::max(double(l.recvTime - l.sendTime) / 10, 1.0)),
                     durationText(double(l.recvTime - l.sendTime)));
    return text;
}

QString TimelinePicker::toolTipAt(QPoint pos) const
{
    if (!d.trace || !d.plot.contains(pos)) return {};
    const TimelineSelection s = itemAt(pos);
    if (s.valid() && s.region.valid()) return describe(s);
    if (s.valid() && s.message.valid()) return describeMessage(s.message);
    const int row = d.rows.rowAt(pos.y() - d.plot.top());
    if (row < 0 || !d.rows.rows()[size_t(row)].group()) return {};
    const auto& ranks = d.rows.rows()[size_t(row)].ranks;
    const RegionId region = drawnRegion(row, pos.x() - d.plot.left());
    return QStringLiteral("<b>%1</b> (%2 ranks)<br>Most of them: %3<br><i>Double-click to "
                          "expand the group</i>")
        .arg(TimelinePainter::rowLabel(ranks))
        .arg(ranks.size())
        .arg(region.valid() ? qstr(d.trace->regionName(region)) : QStringLiteral("idle"));
}

} // namespace rankscope
