#include "views/timeline/timelinepainter.h"

#include "model/profile/timelinesummary.h"
#include "views/timeline/timelinestate.h"

#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

} // namespace

TimelinePainter::TimelinePainter(TimelineState& state, const QPalette& palette, QSize size)
    : d(state), palette_(palette), size_(size)
{
}

QString TimelinePainter::rowLabel(const std::vector<RankId>& ranks)
{
    if (ranks.size() == 1) return QStringLiteral("Rank %1").arg(ranks[0].value);
    bool consecutive = true;
    for (size_t i = 1; i < ranks.size(); ++i)
        consecutive = consecutive && ranks[i].value == ranks[i - 1].value + 1;
    if (consecutive)
        return QStringLiteral("Ranks %1\u2013%2").arg(ranks.front().value).arg(ranks.back().value);
    return QStringLiteral("%1 ranks").arg(ranks.size());
}

void TimelinePainter::paint(QPainter& p)
{
    p.fillRect(QRect(QPoint(0, 0), size_), palette_.color(QPalette::Base));
    if (!d.trace) {
        p.setPen(palette_.color(QPalette::PlaceholderText));
        p.drawText(QRect(QPoint(0, 0), size_), Qt::AlignCenter, QStringLiteral("No trace"));
        return;
    }
    paintCells(p);
    if (d.showWaits) d.waits.paint(p, d);
    paintAxis(p);
    paintLabels(p);
    if (d.showMessages)
        paintMessages(p);
    else
        d.drawnMessages.clear(), d.messageThinning = 1;
    paintHighlightedMessages(p);
    if (d.showCriticalPath) d.criticalPath.paint(p, d);
    paintSelection(p);
    paintOverlays(p);
}

void TimelinePainter::paintAxis(QPainter& p)
{
    const int h = TimelineState::kAxisHeight;
    const QColor text = palette_.color(QPalette::Text);
    p.fillRect(QRect(0, 0, size_.width(), h), palette_.color(QPalette::Window));
    p.setPen(withAlpha(text, 110));
    p.drawLine(d.plot.left(), h - 1, d.plot.right(), h - 1);

    const QFontMetrics fm(p.font());
    QColor grid = text;
    grid.setAlpha(28);
    const QString corner = cornerText(d.mapping);
    const QRect cornerBox = cornerRect(fm.horizontalAdvance(corner), d.labelWidth, h);
    // Over the axis, the corner text replaces the tick labels it would cover.
    int lastLabelRight =
        cornerBox.right() >= d.plot.left() ? cornerBox.right() : d.plot.left() - 1000;
    for (const TimeMapping::Tick& t : d.mapping.ticks(90)) {
        const int x = d.plot.left() + int(std::lround(d.mapping.toPixel(t.ns)));
        if (x < d.plot.left() || x > d.plot.right()) continue;
        if (t.major) {
            p.setPen(grid);
            p.drawLine(x, h, x, d.plot.bottom());
            p.setPen(withAlpha(text, 160));
            p.drawLine(x, h - 7, x, h - 1);
            p.setPen(text);
            const int w = fm.horizontalAdvance(t.label);
            // Labels centre on their tick but stay inside the plot's horizontal extent.
            const int left = std::clamp(x - w / 2, d.plot.left(), d.plot.right() - w);
            if (left < lastLabelRight + 8) continue; // an edge label pushed into its neighbour
            lastLabelRight = left + w;
            p.drawText(QRect(left, 2, w + 1, h - 10), Qt::AlignCenter, t.label);
        } else {
            p.setPen(withAlpha(text, 90));
            p.drawLine(x, h - 4, x, h - 1);
        }
    }
    p.fillRect(cornerBox.adjusted(-2, 0, 2, 0), palette_.color(QPalette::Window));
    p.setPen(palette_.color(QPalette::PlaceholderText));
    p.drawText(cornerBox, Qt::AlignLeft | Qt::AlignVCenter, corner);
}

QString TimelinePainter::cornerText(const TimeMapping& mapping)
{
    // The visible span, the one number a reader needs to judge durations; when the labels are
    // offsets (deep zoom), the time they count from, with the digits it needs.
    const double base = mapping.labelBase(90);
    return base != 0 ? TimeMapping::formatTime(base, mapping.span() / 10) + QStringLiteral(" +")
                     : QStringLiteral("span %1").arg(
                           TimeMapping::formatTime(mapping.span(), mapping.span() / 100));
}

QRect TimelinePainter::cornerRect(int textWidth, int labelWidth, int axisHeight)
{
    // In the corner it is centred on the axis band; over the axis it takes the tick labels'
    // band, whose labels it replaces.
    if (textWidth <= labelWidth - 10) return QRect(6, 2, labelWidth - 10, axisHeight - 6);
    return QRect(6, 2, textWidth + 1, axisHeight - 10);
}

void TimelinePainter::paintLabels(QPainter& p)
{
    const QFontMetrics fm(p.font());
    const int rowH = d.rows.rowHeight();
    const auto& rows = d.rows.rows();
    // Label every row when the font fits, else every n-th so the labels never overlap.
    const int every = std::max(1, int(std::ceil(double(fm.height() - 2) / rowH)));
    const QColor text = palette_.color(QPalette::Text);
    const QColor accent = palette_.color(QPalette::Highlight);
    p.fillRect(QRect(0, d.plot.top(), d.labelWidth, d.plot.height()),
               palette_.color(QPalette::Window));
    for (int i = 0; i < int(rows.size()); ++i) {
        const QRect r = d.rowRect(i);
        if (rows[i].expanded) p.fillRect(QRect(0, r.top(), 3, r.height()), accent);
        if (i % every != 0) continue;
        QString label = rowLabel(rows[i].ranks);
        if (rows[i].group()) label.prepend(QStringLiteral("\u25B8 "));
        p.setPen(rows[i].group() ? withAlpha(text, 200) : text);
        p.drawText(QRect(8, r.top() + (rowH - fm.height()) / 2, d.labelWidth - 14, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    p.setPen(withAlpha(text, 60));
    p.drawLine(d.labelWidth - 1, d.plot.top(), d.labelWidth - 1, d.plot.bottom());
}

void TimelinePainter::paintCells(QPainter& p)
{
    const int width = d.plot.width();
    if (width <= 0) return;
    const int rowH = d.rows.rowHeight();
    // A 1-pixel gap separates rows once they are tall enough to spare it.
    const int gap = rowH >= 6 ? 1 : 0;
    const double npp = d.mapping.nsPerPixel();
    const double begin = d.traceTime(d.mapping.begin());
    d.cells.resize(size_t(width));
    for (auto& bucket : d.buckets)
        bucket.clear();
    const QColor stripe = withAlpha(palette_.color(QPalette::Text), 10);
    const auto& rows = d.rows.rows();
    for (int i = 0; i < int(rows.size()); ++i) {
        const QRect r = d.rowRect(i);
        if (i % 2 == 1) p.fillRect(r, stripe);
        d.sampler.sampleRow(rows[i].ranks, begin, npp, d.cells);
        // Run-length encode the row; each run becomes one rectangle in its colour's bucket.
        int x = 0;
        while (x < width) {
            const uint8_t slot = d.palette.slot(d.cells[size_t(x)]);
            int end = x + 1;
            while (end < width && d.palette.slot(d.cells[size_t(end)]) == slot)
                ++end;
            if (slot != RegionPalette::kIdle)
                d.buckets[slot].emplace_back(d.plot.left() + x, r.top() + gap, end - x,
                                             rowH - 2 * gap);
            x = end;
        }
    }
    p.setPen(Qt::NoPen);
    for (int slot = 0; slot < RegionPalette::kSlotCount; ++slot) {
        const auto& rects = d.buckets[size_t(slot)];
        if (rects.empty()) continue;
        p.setBrush(RegionPalette::color(slot));
        p.drawRects(rects.data(), int(rects.size()));
    }
    p.setBrush(Qt::NoBrush);
}

int TimelinePainter::rowCenter(RankId rank) const
{
    const int row = d.rows.rowOf(rank);
    return row < 0 ? -1 : d.rowRect(row).center().y();
}

void TimelinePainter::paintMessages(QPainter& p)
{
    const double begin = d.traceTime(d.mapping.begin());
    const double end = d.traceTime(d.mapping.end());
    d.messageCandidates =
        d.index->messages.collect(d.displayed, int64_t(std::floor(begin)), int64_t(std::ceil(end)),
                                  TimelineState::kMaxMessageLines, d.drawnMessages);
    thread_local std::vector<QLineF> lines;
    lines.clear();
    size_t kept = 0;
    double ink = 0; // pixels the lines cover (1 px wide)
    for (const MessageIndex::Line& l : d.drawnMessages) {
        const int y0 = rowCenter(l.sender);
        const int y1 = rowCenter(l.receiver);
        if (y0 < 0 || y1 < 0 || y0 == y1) continue;
        // Clip to the plot's x range by hand (a clip region would slow the line path down).
        QLineF line(d.xOf(double(l.sendTime)), y0, d.xOf(double(l.recvTime)), y1);
        const double left = d.plot.left(), right = d.plot.right();
        if (line.x1() > line.x2()) line = QLineF(line.p2(), line.p1()); // clock skew
        if (line.x2() < left || line.x1() > right) continue;
        if (line.x1() < left) line.setP1(line.pointAt((left - line.x1()) / line.dx()));
        if (line.x2() > right) line.setP2(line.pointAt((right - line.x1()) / line.dx()));
        lines.push_back(line);
        ink += std::max(std::abs(line.dx()), std::abs(line.dy()));
        d.drawnMessages[kept++] = l; // the picker finds only what is drawn
    }
    // Density: lines never bury the regions and wait hatching under them. Above
    // kMaxMessageInk of the plot's pixels, every k-th line is kept (the note in the legend
    // says so; a picked message is drawn by paintSelection whatever the thinning).
    const double area = std::max(1.0, double(d.plot.width()) * d.plot.height());
    const double coverage = ink / area;
    const size_t k = coverage > TimelineState::kMaxMessageInk
                         ? size_t(std::ceil(coverage / TimelineState::kMaxMessageInk))
                         : 1;
    if (k > 1) {
        size_t j = 0;
        for (size_t i = 0; i < lines.size(); i += k, ++j) {
            lines[j] = lines[i];
            d.drawnMessages[j] = d.drawnMessages[i];
        }
        lines.resize(j);
        kept = j;
    }
    d.drawnMessages.resize(kept);
    d.messageThinning = k;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, lines.size() < 600);
    // Lighter as they get denser. The colour is mixed with the background beforehand: opaque
    // thin lines take the raster engine's fast path.
    const QColor text = palette_.color(QPalette::Text), base = palette_.color(QPalette::Base);
    const double shown = std::min(coverage / double(k), TimelineState::kMaxMessageInk);
    const double a = 0.85 - 0.4 * shown / TimelineState::kMaxMessageInk; // 0.85 .. 0.45
    QPen pen(QColor::fromRgbF(float(base.redF() + (text.redF() - base.redF()) * a),
                              float(base.greenF() + (text.greenF() - base.greenF()) * a),
                              float(base.blueF() + (text.blueF() - base.blueF()) * a)),
             1.0);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.drawLines(lines.data(), int(lines.size()));
    p.restore();
}

void TimelinePainter::paintHighlightedMessages(QPainter& p)
{
    d.highlightedLines = 0;
    if (d.highlightSenders.empty()) return;
    // The highlighted senders' own lines, so a busy frame's thinning cannot hide them.
    const double begin = d.traceTime(d.mapping.begin());
    const double end = d.traceTime(d.mapping.end());
    thread_local std::vector<MessageIndex::Line> found;
    d.index->messages.collect(d.highlightSenders, int64_t(std::floor(begin)),
                              int64_t(std::ceil(end)), TimelineState::kMaxHighlightCandidates,
                              found);
    thread_local std::vector<QLineF> lines;
    lines.clear();
    for (const MessageIndex::Line& l : found) {
        if (!d.highlighted(l.sender, l.receiver)) continue;
        const int y0 = rowCenter(l.sender);
        const int y1 = rowCenter(l.receiver);
        if (y0 < 0 || y1 < 0) continue;
        lines.emplace_back(d.xOf(double(l.sendTime)), y0, d.xOf(double(l.recvTime)), y1);
    }
    d.highlightedLines = lines.size();
    p.save();
    p.setClipRect(d.plot);
    p.setRenderHint(QPainter::Antialiasing, lines.size() < 600);
    QPen pen(palette_.color(QPalette::Highlight), 2.0);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.drawLines(lines.data(), int(lines.size()));
    p.restore();
}

void TimelinePainter::paintSelection(QPainter& p)
{
    const TimelineSelection& s = d.selection;
    if (!s.valid() || !d.trace || s.rank.value >= d.trace->rankCount()) return;
    p.save();
    p.setClipRect(d.plot.adjusted(-2, -2, 2, 2));
    p.setRenderHint(QPainter::Antialiasing, true);
    if (s.message.valid() && s.message.value < d.trace->messages().size()) {
        const MessageIndex::Line l = MessageIndex::line(*d.trace, s.message);
        const int y0 = rowCenter(l.sender);
        const int y1 = rowCenter(l.receiver);
        if (y0 >= 0 && y1 >= 0) {
            p.setPen(QPen(palette_.color(QPalette::Highlight), 3.0));
            p.drawLine(QPointF(d.xOf(double(l.sendTime)), y0),
                       QPointF(d.xOf(double(l.recvTime)), y1));
        }
    }
    const int row = d.rows.rowOf(s.rank);
    const EventStream& events =
        d.trace->events(s.location.valid() ? s.location : d.trace->rank(s.rank).mainLocation);
    if (row >= 0 && s.enterEvent < events.size()) {
        const double t0 = double(events.time(s.enterEvent));
        const double t1 = double(s.leaveEvent < events.size() ? events.time(s.leaveEvent)
                                                              : events.times().back());
        double x0 = d.xOf(t0), x1 = d.xOf(t1);
        if (x1 - x0 < 3) {
            const double c = (x0 + x1) / 2;
            x0 = c - 1.5;
            x1 = c + 1.5;
        }
        const QRect r = d.rowRect(row);
        const QRectF box(QPointF(std::max(x0, d.plot.left() - 2.0), r.top() - 0.5),
                         QPointF(std::min(x1, d.plot.right() + 2.0), r.bottom() + 1.5));
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette_.color(QPalette::Base), 4.0));
        p.drawRect(box);
        p.setPen(QPen(palette_.color(QPalette::Text), 2.0));
        p.drawRect(box);
    }
    p.restore();
}

void TimelinePainter::paintOverlays(QPainter& p)
{
    const QFontMetrics fm(p.font());
    const QColor text = palette_.color(QPalette::Text);
    if (d.drag == TimelineState::Drag::Zoom && d.dragMoved) {
        const int x0 =
            std::clamp(std::min(d.pressPos.x(), d.dragPos.x()), d.plot.left(), d.plot.right());
        const int x1 =
            std::clamp(std::max(d.pressPos.x(), d.dragPos.x()), d.plot.left(), d.plot.right());
        const QColor hl = palette_.color(QPalette::Highlight);
        const QRect band(x0, 0, x1 - x0, d.plot.bottom() + 1);
        p.fillRect(band, withAlpha(hl, 50));
        p.setPen(hl);
        p.drawLine(x0, 0, x0, band.bottom());
        p.drawLine(x1, 0, x1, band.bottom());
        const double span = d.mapping.nsPerPixel() * (x1 - x0);
        const QString label = TimeMapping::formatTime(span, span / 100);
        p.setPen(text);
        p.drawText(QRect(x0, TimelineState::kAxisHeight + 2, std::max(x1 - x0, 80), fm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, label);
    }
    // Legend along the bottom, under the rows.
    const QRect legend(d.plot.left(), size_.height() - TimelineState::kLegendHeight, d.plot.width(),
                       TimelineState::kLegendHeight);
    p.fillRect(QRect(0, legend.top(), size_.width(), legend.height()),
               palette_.color(QPalette::Window));
    RegionPalette::paintLegend(p, legend, text);
    int legendRight = legend.left() + RegionPalette::legendWidth(p);
    if (d.showWaits && !d.waits.empty())
        legendRight +=
            24 + d.waits.paintLegend(p, legend.adjusted(legendRight + 24 - legend.left(), 0, 0, 0),
                                     text);
    if (d.showCriticalPath && !d.criticalPath.empty())
        legendRight +=
            24 + d.criticalPath.paintLegend(
                     p, legend.adjusted(legendRight + 24 - legend.left(), 0, 0, 0), text);
    // Thinned message lines are said at the right end of the legend, never over the rows.
    const size_t sampled = std::min(d.messageCandidates, TimelineState::kMaxMessageLines);
    if (d.showMessages && (d.messageCandidates > sampled || d.messageThinning > 1)) {
        const double ratio = double(d.messageCandidates) / double(sampled) *
                             double(std::max<size_t>(1, d.messageThinning));
        // "1 in 1.0" says nothing: a light thinning is given as counts.
        const QString note =
            ratio < 2 ? QStringLiteral("messages thinned: %L1 of %L2 shown")
                            .arg(qulonglong(std::llround(double(d.messageCandidates) / ratio)))
                            .arg(qulonglong(d.messageCandidates))
                      : QStringLiteral("messages thinned: 1 in %1 shown")
                            .arg(QString::number(ratio, 'f', ratio < 10 ? 1 : 0));
        p.setPen(palette_.color(QPalette::PlaceholderText));
        const QRect free = legend.adjusted(legendRight + 12 - legend.left(), 0, -4, 0);
        if (QFontMetrics(p.font()).horizontalAdvance(note) <= free.width())
            p.drawText(free, Qt::AlignRight | Qt::AlignVCenter, note);
    }
    paintSummaryNote(p);
}

void TimelinePainter::paintSummaryNote(QPainter& p)
{
    // A result summary's trace has no events: below its finest stored level the rows are that
    // level stretched, and the view says so, and where the detail is.
    if (!d.summary || d.trace->eventCount() > 0 || d.summary->levelCount() == 0) return;
    const double bucket = double(d.summary->baseWidthNs());
    if (d.mapping.nsPerPixel() * 2 >= bucket) return;
    const QString text =
        QStringLiteral("Result summary: no detail finer than %1 per bucket. For single events "
                       "open the trace's ranks: File \u25B8 Load Ranks from Trace\u2026 "
                       "(Ctrl+Shift+L)")
            .arg(TimeMapping::formatTime(bucket, bucket / 100));
    const QFontMetrics fm(p.font());
    const int w = std::min(d.plot.width() - 16, fm.horizontalAdvance(text) + 24);
    const QRect box(d.plot.left() + (d.plot.width() - w) / 2, TimelineState::kAxisHeight + 8, w,
                    fm.height() + 12);
    p.fillRect(box, withAlpha(palette_.color(QPalette::ToolTipBase), 235));
    p.setPen(withAlpha(palette_.color(QPalette::Text), 120));
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.setPen(palette_.color(QPalette::ToolTipText));
    p.drawText(box.adjusted(12, 0, -12, 0), Qt::AlignCenter,
               fm.elidedText(text, Qt::ElideRight, box.width() - 24));
}

} // namespace rankscope
