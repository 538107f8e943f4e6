// TimelineView's navigation beyond zoom and pan: Back / Forward through the zoom history, Find
// (TimelineFinder) and Go to Time. See timelineview_p.h for the state they share.

#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/timeline/timelinefinder.h"
#include "views/timeline/timelineview_p.h"

#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

/// A found occurrence narrower than this on screen is zoomed in on: at the whole run's zoom a
/// call of a few microseconds is less than a pixel, invisible though selected.
constexpr double kFoundMinPixels = 4;

} // namespace

TimelineSelection TimelineView::messageSelection(MessageId id) const
{
    if (!d->trace || !d->index || !id.valid() || id.value >= d->trace->messages().size()) return {};
    return d->picker.messageInstance(id);
}

void TimelineView::goBack()
{
    const auto r = d->history.back();
    if (!r) return;
    d->replaying = true;
    d->showRange(r->begin, r->end, false);
    d->replaying = false;
}

void TimelineView::goForward()
{
    const auto r = d->history.forward();
    if (!r) return;
    d->replaying = true;
    d->showRange(r->begin, r->end, false);
    d->replaying = false;
}

bool TimelineView::canGoBack() const
{
    return d->history.canGoBack();
}

bool TimelineView::canGoForward() const
{
    return d->history.canGoForward();
}

QString TimelineView::find(const QString& query, bool forward, bool* found)
{
    if (found) *found = false;
    if (!d->trace) return {};
    d->ensureLayout();
    const TimelineFinder finder(*d->trace, query);
    if (!finder.valid()) return finder.description();
    // From the selection, else from the edge of the view the search walks away from.
    TimelineFinder::Hit from;
    if (d->selection.valid() && d->selection.enterEvent != 0xFFFFFFFFu) {
        from = {d->selection.rank, d->selection.enterEvent,
                d->trace->rankEvents(d->selection.rank).time(d->selection.enterEvent)};
    } else if (forward) {
        from = {RankId(), 0, int64_t(std::floor(d->traceTime(d->mapping.begin()))) - 1};
    } else {
        from = {RankId(0), 0, int64_t(std::ceil(d->traceTime(d->mapping.end()))) + 1};
    }
    const std::optional<TimelineFinder::Hit> hit = finder.next(from, forward, d->displayed);
    if (!hit)
        return forward ? tr("No later occurrence of %1").arg(finder.description())
                       : tr("No earlier occurrence of %1").arg(finder.description());
    const TimelineSelection s = d->picker.instance(hit->rank, hit->enterEvent);
    if (!s.valid()) return {};
    // Keep the zoom when the occurrence is in view and wide enough to see; else centre it, and
    // zoom in until it takes a tenth of the width (at most: a longer one is shown whole).
    setSelection(s);
    const auto [t0, t1] = d->picker.extent(s);
    const double b = d->displayedTime(double(t0)), e = d->displayedTime(double(t1));
    const double pixels = (e - b) / std::max(d->mapping.nsPerPixel(), 1e-9);
    if (b < d->mapping.begin() || e > d->mapping.end() || pixels < kFoundMinPixels) {
        const double span = pixels < kFoundMinPixels
                                ? std::min(d->mapping.span(), std::max((e - b) * 10, 1000.0))
                                : std::max(d->mapping.span(), (e - b) * 1.25);
        d->showRange((b + e) / 2 - span / 2, (b + e) / 2 + span / 2, false);
    }
    if (found) *found = true;
    const TimelineFinder::Count c = finder.count(*hit, d->displayed);
    return tr("%1 on rank %2 at %3 (%4 of %5)")
        .arg(QString::fromUtf8(d->trace->regionName(s.region).data(),
                               qsizetype(d->trace->regionName(s.region).size())))
        .arg(s.rank.value)
        .arg(formatTimestamp(int64_t(std::llround(b))))
        .arg(formatCount(c.before + 1), formatCount(c.total));
}

void TimelineView::goToTime(double ns)
{
    if (!d->trace) return;
    d->ensureLayout();
    const double begin = d->displayedTime(double(d->trace->beginTime()));
    const double end = d->displayedTime(double(d->trace->endTime()));
    d->marker = std::clamp(ns, begin, end);
    const double span = d->mapping.span();
    d->showRange(d->marker - span / 2, d->marker + span / 2, false);
    update();
}

void TimelineView::jumpTo(double beginNs, double endNs)
{
    if (!d->trace || !(endNs > beginNs)) return;
    d->showRange(beginNs, endNs, false);
}

double TimelineView::markedTime() const
{
    return d->marker;
}

} // namespace rankscope
