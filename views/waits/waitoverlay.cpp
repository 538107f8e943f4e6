#include "views/waits/waitoverlay.h"

#include "views/timeline/rowsampler.h"
#include "views/timeline/timelinestate.h"
#include "views/waits/waitpalette.h"

#include <QPainter>
#include <QPixmap>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {

/// Rows shorter than this show waiting bars as plain fills: a hatch needs room to read.
constexpr int kMinHatchedRow = 8;

/// A diagonal hatch in the pattern colour, 2 px lines 8 px apart, transparent between them.
const QBrush& hatch(WaitPattern pattern)
{
    static std::array<QBrush, kWaitPatternCount> brushes = [] {
        std::array<QBrush, kWaitPatternCount> out;
        for (size_t i = 0; i < kWaitPatternCount; ++i) {
            QPixmap tile(8, 8);
            tile.fill(Qt::transparent);
            QPainter tp(&tile);
            tp.setRenderHint(QPainter::Antialiasing, false);
            tp.setPen(QPen(WaitPalette::color(WaitPattern(i)), 2.0));
            tp.drawLine(QPointF(-1, 9), QPointF(9, -1));
            tp.end();
            out[i] = QBrush(tile);
        }
        return out;
    }();
    return brushes[size_t(pattern)];
}

} // namespace

void WaitOverlay::setWaits(std::shared_ptr<const WaitStateAnalysis> waits,
                           std::shared_ptr<const WaitSummary> summary)
{
    waits_ = std::move(waits);
    summary_ = std::move(summary);
}

bool WaitOverlay::usesSummary(double nsPerPixel, bool group) const
{
    if (!summary_) return false;
    // A result summary keeps no single waits: its pyramid serves every zoom level.
    if (waits_ && waits_->waits.empty() && !waits_->rows.empty()) return true;
    const double minPixel =
        double(summary_->baseWidthNs()) / (group ? RowSampler::kGroupBucketPixels : 1.0);
    return nsPerPixel >= minPixel;
}

void WaitOverlay::addSpans(const TimelineState& d, RankId rank, const QRect& row)
{
    const double begin = d.traceTime(d.mapping.begin());
    const double end = d.traceTime(d.mapping.end());
    const std::span<const WaitState> all = rankWaits(*waits_, rank);
    // A rank's waits lie in distinct calls, so they do not overlap: ends are sorted like begins.
    auto it = std::partition_point(all.begin(), all.end(),
                                   [begin](const WaitState& w) { return double(w.end) <= begin; });
    for (; it != all.end() && double(it->begin) < end; ++it) {
        double x0 = d.xOf(double(it->begin)), x1 = d.xOf(double(it->end));
        x0 = std::max(x0, double(d.plot.left()) - 2);
        x1 = std::min(x1, double(d.plot.right()) + 2);
        if (x1 - x0 < 1) x1 = x0 + 1;
        spans_[size_t(it->pattern)].emplace_back(QPointF(x0, row.top()),
                                                 QPointF(x1, row.bottom() + 1));
    }
}

void WaitOverlay::addCells(const TimelineState& d, std::span<const RankId> ranks, const QRect& row)
{
    const int width = d.plot.width();
    const double npp = d.mapping.nsPerPixel();
    const double begin = d.traceTime(d.mapping.begin());
    cells_.assign(size_t(width), WaitCell());
    rowCells_.resize(size_t(width));
    // A group row shows, per pixel, the member that waits the largest share.
    for (RankId r : ranks) {
        summary_->sample(r, begin, npp, rowCells_);
        for (int x = 0; x < width; ++x)
            if (rowCells_[size_t(x)].step() > cells_[size_t(x)].step())
                cells_[size_t(x)] = rowCells_[size_t(x)];
    }
    // Runs are cut where the drawn bar changes (pattern or height in pixels), not where the
    // cell changes: on short rows many coverage steps share one height, so far fewer rectangles.
    const int h = row.height();
    const auto barOf = [h](WaitCell c) {
        // At least 2 px so a tiny share stays visible; full height at a full bucket.
        return c.empty() ? 0 : std::min(h, std::max(2, int(std::lround(c.coverage() * h))));
    };
    int x = 0;
    while (x < width) {
        const WaitCell c = cells_[size_t(x)];
        const int bar = barOf(c);
        int e = x + 1;
        while (e < width && barOf(cells_[size_t(e)]) == bar &&
               (bar == 0 || cells_[size_t(e)].pattern() == c.pattern()))
            ++e;
        if (bar > 0)
            bars_[size_t(c.pattern())].emplace_back(d.plot.left() + x, row.bottom() + 1 - bar,
                                                    e - x, bar);
        x = e;
    }
}

void WaitOverlay::paint(QPainter& p, const TimelineState& d)
{
    if (empty() || d.plot.width() <= 0) return;
    for (auto& s : spans_)
        s.clear();
    for (auto& b : bars_)
        b.clear();
    const int gap = d.rows.rowHeight() >= 6 ? 1 : 0;
    const double npp = d.mapping.nsPerPixel();
    const auto& rows = d.rows.rows();
    for (int i = 0; i < int(rows.size()); ++i) {
        const QRect r = d.rowRect(i).adjusted(0, gap, 0, -gap);
        const bool group = rows[i].ranks.size() > 1;
        if (usesSummary(npp, group)) {
            addCells(d, rows[i].ranks, r);
        } else {
            for (RankId rank : rows[i].ranks)
                addSpans(d, rank, r);
        }
    }
    p.save();
    p.setClipRect(d.plot);
    p.setPen(Qt::NoPen);
    paintBars(p, d);
    for (size_t k = 0; k < kWaitPatternCount; ++k) {
        if (spans_[k].empty()) continue;
        const QColor c = WaitPalette::color(WaitPattern(k));
        p.setPen(Qt::NoPen);
        p.setBrush(hatch(WaitPattern(k)));
        p.drawRects(spans_[k].data(), int(spans_[k].size()));
        QPen outline(c, 1.0);
        outline.setCosmetic(true);
        p.setPen(outline);
        p.setBrush(Qt::NoBrush);
        for (const QRectF& s : spans_[k])
            if (s.width() >= 3) p.drawRect(s.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    p.restore();
}

void WaitOverlay::paintBars(QPainter& p, const TimelineState& d)
{
    // Zoomed out there is a bar run in nearly every pixel column, and a QPainter call per run
    // costs more than the pixels it fills; so the bars are written straight into an image of
    // the plot, which is then blended once. Bars are hatched like spans (the call's own colour
    // shows between the lines) with a solid top edge, except on rows too short for a hatch to
    // read, which get a plain fill.
    int top = d.plot.bottom() + 1, bottom = d.plot.top() - 1;
    for (const auto& bars : bars_)
        for (const QRect& b : bars) {
            top = std::min(top, b.top());
            bottom = std::max(bottom, b.bottom());
        }
    if (top > bottom) return;
    if (barsImage_.size() != d.plot.size())
        barsImage_ = QImage(d.plot.size(), QImage::Format_ARGB32_Premultiplied);
    const int y0 = top - d.plot.top(), y1 = bottom - d.plot.top();
    for (int y = y0; y <= y1; ++y)
        std::fill_n(reinterpret_cast<QRgb*>(barsImage_.scanLine(y)), barsImage_.width(), 0u);
    const bool hatched = d.rows.rowHeight() >= kMinHatchedRow;
    for (size_t k = 0; k < kWaitPatternCount; ++k) {
        const QRgb colour = WaitPalette::color(WaitPattern(k)).rgba(); // opaque: premultiplied
        for (const QRect& b : bars_[k]) {
            const QRect r = b.translated(-d.plot.topLeft()).intersected(barsImage_.rect());
            for (int y = r.top(); y <= r.bottom(); ++y) {
                QRgb* line = reinterpret_cast<QRgb*>(barsImage_.scanLine(y));
                if (!hatched || y == r.top()) {
                    std::fill_n(line + r.left(), r.width(), colour);
                    continue;
                }
                // The hatch tile's diagonal: 2 px lines 8 px apart.
                for (int x = r.left(); x <= r.right(); ++x)
                    if (((x + y) & 7) < 2) line[x] = colour;
            }
        }
    }
    p.drawImage(QPoint(d.plot.left(), top), barsImage_, QRect(0, y0, d.plot.width(), y1 - y0 + 1));
}

int WaitOverlay::paintLegend(QPainter& p, const QRect& rect, const QColor& text) const
{
    if (empty()) return 0;
    const QFontMetrics fm(p.font());
    int x = rect.left();
    const int sw = fm.height() - 4;
    const int y = rect.top() + (rect.height() - sw) / 2;
    p.setPen(text);
    const QString title = QObject::tr("Waiting:");
    p.drawText(QRect(x, rect.top(), fm.horizontalAdvance(title) + 2, rect.height()),
               Qt::AlignVCenter, title);
    x += fm.horizontalAdvance(title) + 8;
    for (size_t k = 0; k < kWaitPatternCount; ++k) {
        if (waits_->byPattern[k] == 0) continue;
        const QString label = WaitPalette::name(WaitPattern(k));
        const int w = sw + 4 + fm.horizontalAdvance(label);
        if (x + w > rect.right()) break;
        p.fillRect(QRect(x, y, sw, sw), QColor(0x40, 0x40, 0x40));
        p.fillRect(QRect(x, y, sw, sw), hatch(WaitPattern(k)));
        p.setPen(WaitPalette::color(WaitPattern(k)));
        p.drawRect(QRect(x, y, sw - 1, sw - 1));
        p.setPen(text);
        p.drawText(QRect(x + sw + 4, rect.top(), w, rect.height()), Qt::AlignVCenter, label);
        x += w + 12;
    }
    return x - rect.left();
}

const WaitState* WaitOverlay::waitAt(RankId rank, double t) const
{
    if (empty()) return nullptr;
    const std::span<const WaitState> all = rankWaits(*waits_, rank);
    const auto it = std::partition_point(all.begin(), all.end(),
                                         [t](const WaitState& w) { return double(w.end) <= t; });
    return it != all.end() && double(it->begin) <= t ? &*it : nullptr;
}

} // namespace rankscope
