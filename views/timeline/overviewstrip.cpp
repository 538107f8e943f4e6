#include "views/timeline/overviewstrip.h"

#include "model/profile/timelinesummary.h"
#include "model/trace/trace.h"
#include "views/timeline/regionpalette.h"
#include "views/timeline/timelineview.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kMarkLane = 6; ///< height of the marks' lane at the top of the band (px)

/// Whether widget y lies in the marks' lane (the band starts 2 px below the top).
bool inMarkLane(double y)
{
    return y <= 2 + kMarkLane;
}

} // namespace

OverviewStrip::OverviewStrip(TimelineView* timeline, QWidget* parent)
    : QWidget(parent), timeline_(timeline)
{
    setObjectName(QStringLiteral("overviewStrip"));
    setToolTip(tr("The whole run: share of ranks in MPI (red) and computing (blue) over time; "
                  "the frame is the timeline's window. Click to centre it there, drag to pan."));
    setCursor(Qt::PointingHandCursor);
    connect(timeline_, &TimelineView::visibleRangeChanged, this, [this] { update(); });
}

void OverviewStrip::setTrace(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<const TimelineSummary> summary)
{
    trace_ = std::move(trace);
    summary_ = std::move(summary);
    columnsWidth_ = -1;
    update();
}

double OverviewStrip::runBegin() const
{
    return trace_ ? double(trace_->beginTime() - timeline_->timeOffset()) : 0.0;
}

double OverviewStrip::runSpan() const
{
    return trace_ ? std::max(1.0, double(trace_->duration())) : 1.0;
}

void OverviewStrip::ensureColumns() const
{
    const QRect plot = timeline_->plotArea();
    if (plot.left() == columnsLeft_ && plot.width() == columnsWidth_ &&
        timeline_->timeOffset() == columnsOffset_)
        return;
    columnsLeft_ = plot.left();
    columnsWidth_ = plot.width();
    columnsOffset_ = timeline_->timeOffset();
    const size_t w = size_t(std::max(1, plot.width()));
    mpi_.assign(w, 0.f);
    compute_.assign(w, 0.f);
    if (!trace_ || !summary_ || summary_->rankCount() == 0) return;
    const size_t ranks = summary_->rankCount();
    const size_t sampled = std::min(ranks, kMaxSampledRanks);
    std::vector<RegionId> cells(w);
    const double nsPerPixel = runSpan() / double(w);
    for (size_t i = 0; i < sampled; ++i) {
        // Evenly spread ranks, first and last included.
        const size_t r = sampled == 1 ? 0 : i * (ranks - 1) / (sampled - 1);
        summary_->sample(RankId(uint32_t(r)), double(trace_->beginTime()), nsPerPixel, cells);
        for (size_t x = 0; x < w; ++x) {
            if (!cells[x].valid()) continue;
            (trace_->region(cells[x]).isMpi() ? mpi_ : compute_)[x] += 1.f;
        }
    }
    for (size_t x = 0; x < w; ++x) {
        mpi_[x] /= float(sampled);
        compute_[x] /= float(sampled);
    }
}

const std::vector<float>& OverviewStrip::mpiShare() const
{
    ensureColumns();
    return mpi_;
}

const std::vector<float>& OverviewStrip::computeShare() const
{
    ensureColumns();
    return compute_;
}

double OverviewStrip::timeAt(double x) const
{
    const QRect plot = timeline_->plotArea();
    return runBegin() + (x - plot.left()) / std::max(1, plot.width()) * runSpan();
}

std::pair<int, int> OverviewStrip::rangePixels(double begin, double end) const
{
    const QRect plot = timeline_->plotArea();
    const auto px = [&](double t) {
        return std::clamp(plot.left() +
                              int(std::lround((t - runBegin()) / runSpan() * plot.width())),
                          plot.left(), plot.right());
    };
    const int a = px(begin);
    return {a, std::max(a + 2, px(end))}; // never thinner than 3 px, so a short range shows
}

std::pair<int, int> OverviewStrip::windowPixels() const
{
    return rangePixels(timeline_->mapping().begin(), timeline_->mapping().end());
}

void OverviewStrip::paintEvent(QPaintEvent*)
{
    ensureColumns();
    QPainter p(this);
    const QRect plot = timeline_->plotArea();
    const QRect band(plot.left(), 2, plot.width(), height() - 4);
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.fillRect(band, palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(6, 0, plot.left() - 10, height()), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Overview"));
    const QColor mpi = RegionPalette::color(RegionPalette::PointToPoint);
    const QColor work = RegionPalette::color(RegionPalette::FirstUserHue);
    const int h = band.height();
    for (size_t x = 0; x < mpi_.size(); ++x) {
        const int hm = int(std::lround(mpi_[x] * h));
        const int hc = int(std::lround(compute_[x] * h));
        const int X = band.left() + int(x);
        if (hc > 0) {
            p.setPen(work);
            p.drawLine(X, band.bottom(), X, band.bottom() - hc + 1);
        }
        if (hm > 0) {
            p.setPen(mpi);
            p.drawLine(X, band.bottom() - hc, X, band.bottom() - hc - hm + 1);
        }
    }
    // The timeline's window: what lies outside is dimmed, the window framed.
    const auto [a, b] = windowPixels();
    QColor dim = palette().color(QPalette::Window);
    dim.setAlpha(150);
    p.fillRect(QRect(QPoint(band.left(), band.top()), QPoint(a - 1, band.bottom())), dim);
    p.fillRect(QRect(QPoint(b + 1, band.top()), QPoint(band.right(), band.bottom())), dim);
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.drawRect(QRect(QPoint(a, band.top() + 1), QPoint(b, band.bottom())));
    // Bookmarks: amber bars in a lane along the top, each outlined so neighbours stay apart.
    const QColor amber(0xE0, 0x9A, 0x10);
    std::vector<size_t> order(marks_.size()); // the widest first, so narrow ones stay on top
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return marks_[x].end - marks_[x].begin > marks_[y].end - marks_[y].begin;
    });
    for (const size_t i : order) {
        const auto [ma, mb] = markPixels(i);
        const QRect bar(QPoint(ma, band.top()), QPoint(mb, band.top() + kMarkLane - 1));
        p.fillRect(bar, amber);
        p.setPen(amber.darker(160));
        p.drawRect(bar.adjusted(0, 0, -1, -1));
    }
}

void OverviewStrip::setMarks(std::vector<Mark> marks)
{
    marks_ = std::move(marks);
    update();
}

std::pair<int, int> OverviewStrip::markPixels(size_t i) const
{
    return rangePixels(marks_[i].begin, marks_[i].end);
}

int OverviewStrip::markAt(double x) const
{
    int best = -1, bestWidth = 0;
    for (size_t i = 0; i < marks_.size(); ++i) {
        const auto [a, b] = markPixels(i);
        if (x >= a - 1 && x <= b + 1 && (best < 0 || b - a <= bestWidth)) {
            best = int(i);
            bestWidth = b - a;
        }
    }
    return best;
}

bool OverviewStrip::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = inMarkLane(help->pos().y()) ? markAt(help->pos().x()) : -1;
        if (i >= 0) {
            const Mark& m = marks_[size_t(i)];
            QToolTip::showText(help->globalPos(),
                               tr("Bookmark \"%1\": %2 ms from %3 ms (click to show it)")
                                   .arg(m.name)
                                   .arg((m.end - m.begin) / 1e6, 0, 'g', 4)
                                   .arg(m.begin / 1e6, 0, 'g', 6),
                               this);
            return true;
        }
    }
    return QWidget::event(e);
}

void OverviewStrip::moveWindowTo(double centreNs)
{
    const double span = timeline_->mapping().span();
    timeline_->setVisibleRange(centreNs - span / 2, centreNs + span / 2);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !trace_) return;
    const double x = event->position().x();
    if (inMarkLane(event->position().y())) {
        if (const int i = markAt(x); i >= 0) {
            emit markActivated(i);
            event->accept();
            return;
        }
    }
    const auto [a, b] = windowPixels();
    const double t = timeAt(x);
    if (x >= a - 2 && x <= b + 2) {
        dragGrab_ = t - timeline_->mapping().begin(); // drag the window by where it was grabbed
    } else {
        moveWindowTo(t);
        dragGrab_ = timeline_->mapping().span() / 2;
    }
    event->accept();
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (dragGrab_ < 0) return;
    const double begin = timeAt(event->position().x()) - dragGrab_;
    timeline_->setVisibleRange(begin, begin + timeline_->mapping().span());
    event->accept();
}

void OverviewStrip::mouseReleaseEvent(QMouseEvent* event)
{
    dragGrab_ = -1;
    event->accept();
}

} // namespace rankscope
