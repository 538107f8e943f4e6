// Design note: TimelineView is a thin widget over a TimelineState (views/timeline/timelinestate.h).
// - Time: a TimeMapping in displayed time (trace time - offset); every change goes through
//   d->applyMapping(), which emits visibleRangeChanged only when the range really moved, so coupled
//   views calling setVisibleRange on each other settle after one round.
// - Rows: TimelineRows fits the displayed ranks into the height, grouping consecutive ranks when
//   they do not fit (double-click expands / collapses a group).
// - Drawing: TimelinePainter; each row's pixels come from RowSampler (TimelineSummary when a
//   pixel spans at least one summary bucket, else the window's events from a StackCheckpoints
//   replay), so a frame is O(pixels x rows) plus the events of a zoomed-in window.
// - The only whole-trace passes (MPI time per rank for the by-MPI-time order, the stack
//   checkpoints, the per-rank message index) are in TimelineIndex, built by the loader off the
//   GUI thread and handed to setTrace.
// Mouse: wheel zooms at the cursor (Shift+wheel pans); a plain or middle-button drag pans; a
// Shift+drag, or a drag started on the time axis, zooms to the dragged range; a click selects.

#include "views/timeline/timelineview.h"

#include "model/matching/mpicallscanner.h"
#include "model/trace/callrecord.h"
#include "model/waits/waitsummary.h"
#include "views/panes/tooltipevent.h"
#include "views/timeline/timelinepainter.h"
#include "views/timeline/timelineview_p.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace rankscope {

namespace {

constexpr double kKeyZoomFactor = 1.5;
constexpr double kKeyPanFraction = 0.1;
constexpr int kClickSlop = 3; // pixels a press may move and still count as a click

const char* const kHelp =
    "<b>Timeline</b><br>Wheel: zoom at the cursor &middot; Shift+wheel: pan<br>"
    "Drag: pan &middot; Shift+drag or drag on the time axis: zoom to the range<br>"
    "Click: select &middot; double-click a group row: expand / collapse<br>"
    "+ / &minus;: zoom &middot; 0 or Home: fit &middot; &larr; / &rarr;: pan<br>"
    "N / P: next / previous MPI call of the selected rank<br>"
    "Alt+&larr; / Alt+&rarr; or the mouse's back / forward buttons: previous / next view";

} // namespace

void TimelineView::Private::updateDisplayedRanks()
{
    displayed.clear();
    const size_t n = trace ? trace->rankCount() : 0;
    if (!filter.empty()) {
        for (RankId r : filter)
            if (r.valid() && r.value < n) displayed.push_back(r);
    } else {
        for (uint32_t r = 0; r < n; ++r)
            displayed.push_back(RankId(r));
        // Most MPI time first: the ranks that wait most are what the user looks for.
        if (order == RankOrder::ByMpiTime)
            std::stable_sort(displayed.begin(), displayed.end(), [&](RankId a, RankId b) {
                return index->mpiTime[a.value] > index->mpiTime[b.value];
            });
    }
    layoutDirty = true;
    q->update();
    emit q->displayedRanksChanged();
}

void TimelineView::Private::ensureLayout()
{
    if (!layoutDirty && layoutSize == q->size()) return;
    layoutDirty = false;
    layoutSize = q->size();
    const QFontMetrics fm(q->font());
    const uint32_t maxRank = trace ? uint32_t(std::max<size_t>(trace->rankCount(), 1)) : 1;
    labelWidth =
        fm.horizontalAdvance(QStringLiteral("\u25B8 Ranks %1\u2013%1").arg(maxRank - 1)) + 18;
    const int top = kAxisHeight;
    const int bottom = q->height() - kLegendHeight;
    plot =
        QRect(QPoint(labelWidth, top), QPoint(std::max(labelWidth + 1, q->width() - kRightMargin),
                                              std::max(top + 1, bottom - 1)));
    mapping.setWidth(plot.width());
    rows.layout(displayed, plot.height());
}

void TimelineView::Private::applyMapping(const TimeMapping& m, bool continuous)
{
    const bool moved = m.begin() != mapping.begin() || m.end() != mapping.end();
    mapping = m;
    if (!moved) return;
    if (!replaying) history.moved({m.begin(), m.end()}, clock.elapsed(), continuous);
    q->update();
    emit q->visibleRangeChanged(mapping.begin(), mapping.end());
}

void TimelineView::Private::showRange(double begin, double end, bool continuous)
{
    ensureLayout();
    TimeMapping m = mapping;
    m.setVisible(begin, end);
    applyMapping(m, continuous);
}

void TimelineView::Private::zoomBy(double factor, double anchorPixel, bool continuous)
{
    ensureLayout();
    TimeMapping m = mapping;
    m.zoom(factor, anchorPixel);
    applyMapping(m, continuous);
}

void TimelineView::Private::panBy(double pixels, bool continuous)
{
    ensureLayout();
    TimeMapping m = mapping;
    m.pan(pixels);
    applyMapping(m, continuous);
}

void TimelineView::Private::resetHistory()
{
    history.reset({mapping.begin(), mapping.end()});
}

void TimelineView::Private::selectCall(bool forward)
{
    if (!trace || trace->rankCount() == 0) return;
    ensureLayout();
    const TimelineSelection& cur = selection;
    const RankId rank = cur.valid() ? cur.rank : RankId(0);
    const EventStream& events = trace->rankEvents(rank);
    size_t from;
    if (cur.valid() && cur.enterEvent < events.size()) {
        from = forward ? size_t(cur.enterEvent) + 1 : cur.enterEvent;
    } else {
        // Nothing selected: start from the visible window.
        const double t = traceTime(forward ? mapping.begin() : mapping.end());
        from = events.times().lowerBound(int64_t(std::ceil(t)));
    }
    const TimelineSelection next = picker.nextCall(rank, from, forward);
    if (!next.valid()) return;
    q->setSelection(next);
    // Bring the call into view: centre it, zooming out only if it does not fit.
    const auto [t0, t1] = picker.extent(next);
    const double b = displayedTime(double(t0)), e = displayedTime(double(t1));
    if (b >= mapping.begin() && e <= mapping.end()) return;
    const double span = std::max(mapping.span(), (e - b) * 1.25);
    const double centre = (b + e) / 2;
    showRange(centre - span / 2, centre + span / 2, false);
}

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), d(std::make_unique<Private>(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 160);
    setWhatsThis(QString::fromUtf8(kHelp));
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const TimelineSummary> summary,
                            std::shared_ptr<const TimelineIndex> index)
{
    d->trace = std::move(trace);
    d->summary = std::move(summary);
    d->waits.setWaits({}, {}); // they belonged to the previous trace
    d->selection = {};
    d->drawnMessages.clear();
    // Without a prebuilt index (small traces, tests) build it here; the loader builds it off
    // the GUI thread for real traces.
    d->index = index ? std::move(index)
                     : (d->trace ? TimelineIndex::build(*d->trace)
                                 : std::make_shared<const TimelineIndex>());
    d->palette.setTrace(d->trace.get());
    d->applyLimits(d->mapping);
    d->sampler.setTrace(d->trace.get(), d->summary.get(), &d->index->checkpoints);
    d->updateDisplayedRanks();
    TimeMapping m = d->mapping;
    m.fit();
    d->applyMapping(m);
    d->resetHistory();
    update();
}

std::shared_ptr<const Trace> TimelineView::trace() const
{
    return d->trace;
}

const TimeMapping& TimelineView::mapping() const
{
    d->ensureLayout();
    return d->mapping;
}

void TimelineView::setTimeOffset(int64_t ns)
{
    if (ns == d->offset) return;
    d->offset = ns;
    TimeMapping m = d->mapping;
    d->applyLimits(m);
    d->applyMapping(m);
    d->resetHistory(); // the old states are in the old time base
    update();
}

void TimelineView::setTimeLimits(double beginNs, double endNs)
{
    d->extraLimits = {beginNs, endNs};
    TimeMapping m = d->mapping;
    d->applyLimits(m);
    d->applyMapping(m);
    update();
}

int64_t TimelineView::timeOffset() const
{
    return d->offset;
}

void TimelineView::setShowMessages(bool show)
{
    if (show == d->showMessages) return;
    d->showMessages = show;
    update();
}

bool TimelineView::showMessages() const
{
    return d->showMessages;
}

void TimelineView::setWaitStates(std::shared_ptr<const WaitStateAnalysis> waits,
                                 std::shared_ptr<const WaitSummary> summary)
{
    if (waits && !summary && d->trace)
        summary = std::make_shared<const WaitSummary>(WaitSummary::build(
            *waits, d->trace->rankCount(), d->trace->beginTime(), d->trace->endTime()));
    d->waits.setWaits(std::move(waits), std::move(summary));
    update();
}

void TimelineView::setShowWaitStates(bool show)
{
    if (show == d->showWaits) return;
    d->showWaits = show;
    update();
}

bool TimelineView::showWaitStates() const
{
    return d->showWaits;
}

void TimelineView::setCriticalPath(std::shared_ptr<const CriticalPath> path)
{
    d->criticalPath.setPath(std::move(path));
    update();
}

void TimelineView::setShowCriticalPath(bool show)
{
    if (show == d->showCriticalPath) return;
    d->showCriticalPath = show;
    update();
}

bool TimelineView::showCriticalPath() const
{
    return d->showCriticalPath;
}

void TimelineView::setRankOrder(RankOrder order)
{
    d->order = order;
    d->updateDisplayedRanks();
}

void TimelineView::setRankFilter(std::vector<RankId> ranks)
{
    d->filter = std::move(ranks);
    d->updateDisplayedRanks();
}

std::vector<std::vector<RankId>> TimelineView::rows() const
{
    d->ensureLayout();
    std::vector<std::vector<RankId>> out;
    for (const auto& row : d->rows.rows())
        out.push_back(row.ranks);
    return out;
}

QRect TimelineView::plotArea() const
{
    d->ensureLayout();
    return d->plot;
}

QRect TimelineView::rowRect(int row) const
{
    d->ensureLayout();
    return d->rowRect(row);
}

TimelineSelection TimelineView::selection() const
{
    return d->selection;
}

void TimelineView::setSelection(const TimelineSelection& selection)
{
    if (selection == d->selection) return;
    d->selection = selection;
    update();
    emit selectionChanged(d->selection);
}

void TimelineView::setMessageHighlight(std::vector<RankId> senders, std::vector<RankId> receivers)
{
    std::sort(senders.begin(), senders.end());
    std::sort(receivers.begin(), receivers.end());
    d->highlightSenders = std::move(senders);
    d->highlightReceivers = std::move(receivers);
    update();
}

size_t TimelineView::highlightedMessageCount() const
{
    return d->highlightedLines;
}

TimelineSelection TimelineView::firstHighlightedMessage() const
{
    return d->picker.firstHighlightedMessage();
}

TimelineSelection TimelineView::itemAt(QPoint pos) const
{
    d->ensureLayout();
    return d->picker.itemAt(pos);
}

TimelineSelection TimelineView::instanceAt(RankId rank, uint32_t enterEvent) const
{
    if (!d->trace || !rank.valid() || rank.value >= d->trace->rankCount() ||
        enterEvent >= d->trace->rankEvents(rank).size())
        return {};
    return d->picker.instance(rank, enterEvent);
}

TimelineSelection TimelineView::lastInstanceBefore(RankId rank, RegionId region, int64_t before,
                                                   size_t maxEvents) const
{
    if (!d->trace || !rank.valid() || rank.value >= d->trace->rankCount()) return {};
    const EventStream& events = d->trace->rankEvents(rank);
    const size_t end = events.times().lowerBound(before);
    const size_t stop = end > maxEvents ? end - maxEvents : 0;
    for (size_t i = end; i-- > stop;)
        if (events.kind(i) == EventKind::Enter && events.region(i) == region)
            return d->picker.instance(rank, uint32_t(i));
    return {};
}

void TimelineView::reveal(const TimelineSelection& s, int64_t alsoBegin, int64_t alsoEnd)
{
    if (!s.valid() || !d->trace) return;
    // A call shown from elsewhere (a pane, Find) gets a row of its own: its group is expanded.
    d->ensureLayout();
    if (d->rows.expandRank(s.rank)) {
        d->layoutDirty = true;
        update();
    }
    setSelection(s);
    auto [b, e] = d->picker.extent(s);
    if (alsoBegin < alsoEnd) {
        b = std::min(b, alsoBegin);
        e = std::max(e, alsoEnd);
    }
    // A quarter of the view on each side: the neighbours give the call its context.
    const double span = std::max(double(e - b) * 2.0, 1000.0);
    const double centre = d->displayedTime((double(b) + double(e)) / 2);
    d->showRange(centre - span / 2, centre + span / 2, false);
}

void TimelineView::paintLegend(QPainter& painter, const QRect& rect) const
{
    RegionPalette::paintLegend(painter, rect, palette().color(QPalette::Text));
}

void TimelineView::setVisibleRange(double beginNs, double endNs)
{
    // Calls from outside come in bursts (a coupled view being dragged): one gesture.
    d->showRange(beginNs, endNs, true);
}

void TimelineView::zoomIn()
{
    d->zoomBy(kKeyZoomFactor, mapping().width() / 2.0);
}

void TimelineView::zoomOut()
{
    d->zoomBy(1.0 / kKeyZoomFactor, mapping().width() / 2.0);
}

void TimelineView::fitToWindow()
{
    d->ensureLayout();
    TimeMapping m = d->mapping;
    m.fit();
    d->applyMapping(m);
}

void TimelineView::panLeft()
{
    d->panBy(-kKeyPanFraction * mapping().width());
}

void TimelineView::panRight()
{
    d->panBy(kKeyPanFraction * mapping().width());
}

void TimelineView::selectNextCall()
{
    d->selectCall(true);
}

void TimelineView::selectPreviousCall()
{
    d->selectCall(false);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    d->ensureLayout();
    QPainter p(this);
    TimelinePainter(*d, palette(), size()).paint(p);
    if (!std::isnan(d->marker) && d->marker >= d->mapping.begin() &&
        d->marker <= d->mapping.end()) {
        // Go to Time's mark: a dashed line over the rows.
        const double x = d->plot.left() + d->mapping.toPixel(d->marker);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, d->plot.top()), QPointF(x, d->plot.bottom()));
    }
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    d->ensureLayout();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    d->ensureLayout();
    const QPoint delta = event->angleDelta();
    const double x = event->position().x() - d->plot.left();
    if (event->modifiers() & Qt::ShiftModifier || std::abs(delta.x()) > std::abs(delta.y())) {
        // Horizontal scrolling pans; a notch (120) moves a tenth of the width.
        const int steps = delta.x() != 0 ? delta.x() : delta.y();
        d->panBy(-steps / 120.0 * kKeyPanFraction * d->mapping.width(), true);
    } else if (delta.y() != 0) {
        d->zoomBy(std::pow(1.2, delta.y() / 120.0), std::clamp(x, 0.0, double(d->mapping.width())),
                  true);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    d->ensureLayout();
    if (event->button() == Qt::BackButton || event->button() == Qt::ForwardButton) {
        event->button() == Qt::BackButton ? goBack() : goForward();
        d->drag = Private::Drag::None;
        event->accept();
        return;
    }
    d->pressPos = d->dragPos = event->position().toPoint();
    d->dragMoved = false;
    d->history.endGesture(); // a new drag is a new step
    const bool onAxis = d->pressPos.y() < Private::kAxisHeight;
    if (event->button() == Qt::LeftButton)
        d->drag = (event->modifiers() & Qt::ShiftModifier) || onAxis ? Private::Drag::Zoom
                                                                     : Private::Drag::Pan;
    else if (event->button() == Qt::MiddleButton)
        d->drag = Private::Drag::Pan;
    else
        d->drag = Private::Drag::None;
    if (d->drag == Private::Drag::Pan) setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (d->drag == Private::Drag::None) return;
    if ((pos - d->pressPos).manhattanLength() > kClickSlop) d->dragMoved = true;
    if (d->drag == Private::Drag::Pan && d->dragMoved) d->panBy(d->dragPos.x() - pos.x(), true);
    d->dragPos = pos;
    if (d->drag == Private::Drag::Zoom) update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const Private::Drag drag = d->drag;
    d->drag = Private::Drag::None;
    unsetCursor();
    const QPoint pos = event->position().toPoint();
    if (drag == Private::Drag::Zoom && d->dragMoved) {
        const int x0 = std::min(d->pressPos.x(), pos.x()) - d->plot.left();
        const int x1 = std::max(d->pressPos.x(), pos.x()) - d->plot.left();
        d->showRange(d->mapping.toTime(x0), d->mapping.toTime(x1), false);
        update();
    } else if (drag != Private::Drag::None && !d->dragMoved && event->button() == Qt::LeftButton) {
        setSelection(itemAt(pos));
    }
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    d->ensureLayout();
    const QPoint pos = event->position().toPoint();
    const int row = d->rows.rowAt(pos.y() - d->plot.top());
    if (pos.x() >= d->plot.right() || pos.y() < d->plot.top() || row < 0) return;
    // Double-click on a group expands it; on a rank of the expanded group collapses it.
    const bool changed = d->rows.rows()[size_t(row)].group()    ? d->rows.expand(row)
                         : d->rows.rows()[size_t(row)].expanded ? d->rows.collapse()
                                                                : false;
    if (changed) {
        d->layoutDirty = true;
        update();
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomOut();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitToWindow();
        break;
    case Qt::Key_Left:
        panLeft();
        break;
    case Qt::Key_Right:
        panRight();
        break;
    case Qt::Key_N:
        selectNextCall();
        break;
    case Qt::Key_P:
        selectPreviousCall();
        break;
    case Qt::Key_Escape:
        setSelection({});
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        d->ensureLayout();
        auto* help = static_cast<QHelpEvent*>(event);
        QString text = d->picker.toolTipAt(help->pos());
        if (text.isEmpty() && help->pos().y() < Private::kAxisHeight)
            text = QString::fromUtf8(kHelp);
        showToolTipText(this, help, text);
        return true;
    }
    return QWidget::event(event);
}

} // namespace rankscope
