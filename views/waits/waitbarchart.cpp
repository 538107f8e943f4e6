#include "views/waits/waitbarchart.h"

#include "model/trace/trace.h"
#include "views/panes/durationformat.h"
#include "views/timeline/timemapping.h"
#include "views/waits/waitpalette.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace rankscope {

namespace {
constexpr int kMargin = 4;
} // namespace

WaitBarChart::WaitBarChart(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(tr("Waiting time per rank; click a bar to show only that rank's wait states"));
}

QSize WaitBarChart::sizeHint() const
{
    return {480, 160};
}
QSize WaitBarChart::minimumSizeHint() const
{
    return {200, 100};
}

void WaitBarChart::setAnalysis(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<const WaitStateAnalysis> analysis)
{
    ranks_ = 0;
    sums_.clear();
    totals_.clear();
    maxTotal_ = 0;
    present_ = {};
    shownWidth_ = -1;
    if (trace && analysis) {
        ranks_ = std::max(trace->rankCount(), analysis->byRank.size());
        sums_.assign(ranks_, Sums{});
        totals_.assign(ranks_, 0);
        for (const WaitState& w : analysis->waits) {
            if (w.rank.value >= ranks_) continue;
            sums_[w.rank.value][size_t(w.pattern)] += w.duration();
            totals_[w.rank.value] += w.duration();
            present_[size_t(w.pattern)] = true;
        }
        // A result summary keeps the (pattern, call site, rank) rows instead of the waits.
        if (analysis->waits.empty())
            for (const WaitRow& r : analysis->rows) {
                if (r.rank.value >= ranks_) continue;
                sums_[r.rank.value][size_t(r.pattern)] += r.waitNs;
                totals_[r.rank.value] += r.waitNs;
                present_[size_t(r.pattern)] = true;
            }
        for (int64_t t : totals_)
            maxTotal_ = std::max(maxTotal_, t);
    }
    if (highlighted_.valid() && highlighted_.value >= ranks_) highlighted_ = RankId();
    plotFor_ = QSize(); // the legend may need another line
    update();
}

void WaitBarChart::setHighlightedRank(RankId rank)
{
    if (rank.valid() && rank.value >= ranks_) rank = RankId();
    if (rank == highlighted_) return;
    highlighted_ = rank;
    update();
}

int64_t WaitBarChart::waitingNs(RankId rank, WaitPattern pattern) const
{
    return rank.value < ranks_ ? sums_[rank.value][size_t(pattern)] : 0;
}

int64_t WaitBarChart::totalNs(RankId rank) const
{
    return rank.value < ranks_ ? totals_[rank.value] : 0;
}

std::vector<WaitBarChart::LegendItem> WaitBarChart::legendLayout() const
{
    // The title, then one entry per pattern present, flowing onto more lines when narrow.
    const QFontMetrics fm = fontMetrics();
    std::vector<LegendItem> items;
    int x = kMargin + fm.horizontalAdvance(tr("Waiting per rank")) + 16;
    int y = kMargin;
    for (size_t i = 0; i < kWaitPatternCount; ++i) {
        if (!present_[i]) continue;
        const int w = kSwatch + 4 + fm.horizontalAdvance(WaitPalette::name(WaitPattern(i)));
        if (x + w > width() - kMargin && x > 2 * kMargin) {
            x = plotLeft();
            y += fm.height() + 2;
        }
        items.push_back({WaitPattern(i), QRect(x, y, w, fm.height())});
        x += w + 12;
    }
    return items;
}

int WaitBarChart::plotLeft() const
{
    return fontMetrics().horizontalAdvance(QStringLiteral("000.0 ms")) + 2 * kMargin;
}

QRect WaitBarChart::plotArea() const
{
    // Cached: hit-testing and every bar ask for it; it changes with size, font and legend.
    if (plotFor_ == size()) return plot_;
    plotFor_ = size();
    const QFontMetrics fm = fontMetrics();
    const int left = plotLeft();
    const std::vector<LegendItem> legend = legendLayout();
    const int top =
        (legend.empty() ? kMargin + fm.height() : legend.back().rect.bottom() + 1) + kMargin;
    const int bottom = fm.height() + kMargin + 3;
    plot_ = QRect(left, top, std::max(1, width() - left - 2 * kMargin),
                  std::max(1, height() - top - bottom));
    return plot_;
}

int WaitBarChart::columnCount() const
{
    return int(std::min<size_t>(ranks_, size_t(plotArea().width())));
}

void WaitBarChart::columnRanks(int column, uint32_t* first, uint32_t* last) const
{
    const uint64_t columns = uint64_t(std::max(1, columnCount()));
    *first = uint32_t(uint64_t(column) * ranks_ / columns);
    *last = uint32_t((uint64_t(column) + 1) * ranks_ / columns - 1);
}

uint32_t WaitBarChart::shownRank(int column) const
{
    const int columns = columnCount();
    if (size_t(columns) == ranks_) return uint32_t(column);
    if (shownWidth_ != columns) { // once per plot width: O(ranks)
        shown_.assign(size_t(columns), 0);
        for (int c = 0; c < columns; ++c) {
            uint32_t first = 0, last = 0;
            columnRanks(c, &first, &last);
            uint32_t best = first;
            for (uint32_t r = first + 1; r <= last; ++r)
                if (totals_[r] > totals_[best]) best = r;
            shown_[size_t(c)] = best;
        }
        shownWidth_ = columns;
    }
    return shown_[size_t(column)];
}

int WaitBarChart::columnAt(int x) const
{
    const QRect plot = plotArea();
    const int columns = columnCount();
    if (columns == 0 || x < plot.left() || x > plot.right()) return -1;
    // The column whose rounded pixel span holds x (see paintBar).
    return std::clamp(int(std::floor((x + 0.5 - plot.left()) * columns / plot.width())), 0,
                      columns - 1);
}

bool WaitBarChart::ranksAt(int x, RankId* first, RankId* last) const
{
    const int c = columnAt(x);
    if (c < 0) return false;
    uint32_t f = 0, l = 0;
    columnRanks(c, &f, &l);
    *first = RankId(f);
    *last = RankId(l);
    return true;
}

RankId WaitBarChart::rankAt(int x) const
{
    const int c = columnAt(x);
    return c < 0 ? RankId() : RankId(shownRank(c));
}

QString WaitBarChart::toolTipAt(QPoint pos) const
{
    RankId first, last;
    if (!plotArea().contains(pos) || !ranksAt(pos.x(), &first, &last)) return {};
    const RankId shown = rankAt(pos.x());
    QString text =
        first == last
            ? tr("Rank %1: %2 waiting").arg(shown.value).arg(formatDuration(double(totalNs(shown))))
            : tr("Ranks %1-%2: max %3 waiting (rank %4)")
                  .arg(first.value)
                  .arg(last.value)
                  .arg(formatDuration(double(totalNs(shown))))
                  .arg(shown.value);
    for (size_t p = 0; p < kWaitPatternCount; ++p)
        if (sums_[shown.value][p] > 0)
            text += QStringLiteral("\n  %1: %2")
                        .arg(WaitPalette::name(WaitPattern(p)),
                             formatDuration(double(sums_[shown.value][p])));
    return text + tr("\nClick to show only rank %1 in the table").arg(shown.value);
}

double WaitBarChart::valueTop() const
{
    // 5% headroom so the tallest bar does not touch the legend.
    return std::max(double(maxTotal_) * 1.05, TimeMapping::kMinSpanNs);
}

bool WaitBarChart::event(QEvent* e)
{
    if (e->type() == QEvent::FontChange) plotFor_ = QSize();
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        QToolTip::showText(help->globalPos(), text.isEmpty() ? toolTip() : text, this);
        return true;
    }
    return QWidget::event(e);
}

void WaitBarChart::mousePressEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (e->button() != Qt::LeftButton || !plotArea().contains(pos))
        return QWidget::mousePressEvent(e);
    const RankId rank = rankAt(pos.x());
    if (!rank.valid()) return;
    setHighlightedRank(rank);
    emit rankClicked(rank);
}

void WaitBarChart::keyPressEvent(QKeyEvent* e)
{
    if (ranks_ == 0) return QWidget::keyPressEvent(e);
    const uint32_t last = uint32_t(ranks_ - 1);
    const uint32_t cur = highlighted_.valid() ? highlighted_.value : 0;
    switch (e->key()) {
    case Qt::Key_Left:
        setHighlightedRank(RankId(cur > 0 ? cur - 1 : 0));
        break;
    case Qt::Key_Right:
        setHighlightedRank(RankId(std::min(cur + 1, last)));
        break;
    case Qt::Key_Home:
        setHighlightedRank(RankId(0));
        break;
    case Qt::Key_End:
        setHighlightedRank(RankId(last));
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (highlighted_.valid()) emit rankClicked(highlighted_);
        break;
    default:
        return QWidget::keyPressEvent(e);
    }
}

} // namespace rankscope
