#include "views/matrix/commmatrixview.h"

#include "views/panes/durationformat.h"
#include "views/panes/tooltipevent.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <array>
#include <cmath>

namespace rankscope {

namespace {

constexpr int kLabelMargin = 44; // sender labels on the left, receiver labels on top
constexpr int kBarWidth = 14;    // the colour bar on the right
constexpr int kBarMargin = 110;  // the colour bar and its labels

/// A sequential palette (light yellow to dark red) that reads on a light background; t in [0, 1].
QColor heat(double t)
{
    static constexpr std::array<QRgb, 5> kStops = {0xffffcc, 0xfed976, 0xfd8d3c, 0xe31a1c,
                                                   0x800026};
    t = std::clamp(t, 0.0, 1.0) * double(kStops.size() - 1);
    const int i = std::min(int(t), int(kStops.size()) - 2);
    const double f = t - i;
    const QColor a(kStops[size_t(i)]), b(kStops[size_t(i) + 1]);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

/// Where `v` lies between lo and hi on a log scale (1 when they are equal).
double logPosition(double v, double lo, double hi)
{
    if (hi <= lo) return 1.0;
    return (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
}

void merge(CommMatrixCell& into, const CommMatrixCell& c)
{
    if (into.count == 0 && into.timedCount == 0) {
        into.sender = c.sender;
        into.receiver = c.receiver;
    }
    into.count += c.count;
    into.bytes += c.bytes;
    if (c.timedCount > 0 && (into.timedCount == 0 || c.maxNs > into.maxNs)) into.maxNs = c.maxNs;
    into.timedCount += c.timedCount;
    into.totalNs += c.totalNs;
}

} // namespace

CommMatrixView::CommMatrixView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setToolTip(QString()); // tooltips come from event()
}

void CommMatrixView::setMatrix(std::shared_ptr<const CommMatrix> matrix)
{
    matrix_ = std::move(matrix);
    layoutCells();
}

void CommMatrixView::setRanks(std::vector<RankId> ranks)
{
    ranks_ = std::move(ranks);
    selected_ = {-1, -1};
    layoutCells();
}

void CommMatrixView::setMetric(CommMatrixMetric metric)
{
    metric_ = metric;
    aggregate();
}

int CommMatrixView::groupCount() const
{
    return int(groups_.size());
}

const std::vector<RankId>& CommMatrixView::groupRanks(int group) const
{
    return groups_[size_t(group)];
}

CommMatrixCell CommMatrixView::groupCell(int row, int column) const
{
    const size_t n = groups_.size();
    if (row < 0 || column < 0 || size_t(row) >= n || size_t(column) >= n) return {};
    return cells_[size_t(row) * n + size_t(column)];
}

QRect CommMatrixView::cellRect(int row, int column) const
{
    const int n = groupCount();
    if (n == 0) return {};
    auto edge = [n](int start, int length, int i) { return start + int(int64_t(length) * i / n); };
    const int x0 = edge(plot_.left(), plot_.width(), column);
    const int x1 = edge(plot_.left(), plot_.width(), column + 1);
    const int y0 = edge(plot_.top(), plot_.height(), row);
    const int y1 = edge(plot_.top(), plot_.height(), row + 1);
    return QRect(QPoint(x0, y0), QPoint(x1 - 1, y1 - 1));
}

std::pair<int, int> CommMatrixView::cellAt(QPoint pos) const
{
    const int n = groupCount();
    if (n == 0 || !plot_.contains(pos)) return {-1, -1};
    const int column = int(int64_t(pos.x() - plot_.left()) * n / plot_.width());
    const int row = int(int64_t(pos.y() - plot_.top()) * n / plot_.height());
    return {std::clamp(row, 0, n - 1), std::clamp(column, 0, n - 1)};
}

void CommMatrixView::clearSelection()
{
    selected_ = {-1, -1};
    update();
}

void CommMatrixView::selectCell(int row, int column)
{
    if (row < 0 || column < 0 || row >= groupCount() || column >= groupCount()) return;
    selected_ = {row, column};
    update();
    emit cellClicked(groups_[size_t(row)], groups_[size_t(column)]);
}

std::pair<int, int> CommMatrixView::largestCell() const
{
    std::pair<int, int> best{-1, -1};
    double largest = 0;
    const int n = groupCount();
    for (int i = 0; i < n * n; ++i) {
        const double v = cells_[size_t(i)].value(metric_);
        if (v > largest) {
            largest = v;
            best = {i / n, i % n};
        }
    }
    return best;
}

void CommMatrixView::layoutCells()
{
    // The whole space left by the labels and the colour bar, as Vampir's matrix: square cells
    // left a 256-rank matrix 190 px wide in a 1,400 px pane under the timeline.
    const int w = std::max(0, width() - kLabelMargin - kBarMargin - 8);
    const int h = std::max(0, height() - kLabelMargin - 8);
    plot_ = QRect(kLabelMargin, kLabelMargin, w, h);
    const int side = std::min(w, h); // cells at least kMinCellPixels both ways
    std::vector<RankId> ranks = ranks_;
    if (ranks.empty() && matrix_)
        for (uint32_t r = 0; r < matrix_->rankCount; ++r)
            ranks.push_back(RankId(r));
    groups_.clear();
    const size_t fit = std::max<size_t>(1, size_t(side / kMinCellPixels));
    const size_t perGroup = (ranks.size() + fit - 1) / fit;
    for (size_t i = 0; i < ranks.size(); i += std::max<size_t>(1, perGroup))
        groups_.emplace_back(ranks.begin() + std::ptrdiff_t(i),
                             ranks.begin() + std::ptrdiff_t(std::min(ranks.size(), i + perGroup)));
    if (selected_.first >= groupCount() || selected_.second >= groupCount()) selected_ = {-1, -1};
    aggregate();
}

void CommMatrixView::aggregate()
{
    const size_t n = groups_.size();
    cells_.assign(n * n, CommMatrixCell{});
    if (matrix_ && n > 0) {
        std::vector<int> groupOf(matrix_->rankCount, -1);
        for (size_t g = 0; g < n; ++g)
            for (RankId r : groups_[g])
                if (r.value < groupOf.size()) groupOf[r.value] = int(g);
        for (const CommMatrixCell& c : matrix_->cells) {
            const int s = c.sender < groupOf.size() ? groupOf[c.sender] : -1;
            const int r = c.receiver < groupOf.size() ? groupOf[c.receiver] : -1;
            if (s >= 0 && r >= 0) merge(cells_[size_t(s) * n + size_t(r)], c);
        }
    }
    maxValue_ = 0;
    minValue_ = 0;
    for (const CommMatrixCell& c : cells_) {
        const double v = c.value(metric_);
        if (v <= 0) continue;
        maxValue_ = std::max(maxValue_, v);
        minValue_ = minValue_ == 0 ? v : std::min(minValue_, v);
    }
    renderImage();
    update();
}

void CommMatrixView::renderImage()
{
    const int n = groupCount();
    image_ = QImage(std::max(n, 1), std::max(n, 1), QImage::Format_RGB32);
    image_.fill(palette().color(QPalette::Base).darker(104));
    for (int row = 0; row < n; ++row) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(row));
        for (int column = 0; column < n; ++column) {
            const double v = cells_[size_t(row) * size_t(n) + size_t(column)].value(metric_);
            if (v > 0) line[column] = heat(logPosition(v, minValue_, maxValue_)).rgb();
        }
    }
}

QString CommMatrixView::rankText(int group) const
{
    const std::vector<RankId>& g = groups_[size_t(group)];
    if (g.size() == 1) return tr("rank %1").arg(g.front().value);
    const bool consecutive = g.back().value - g.front().value + 1 == g.size();
    if (consecutive) return tr("ranks %1–%2").arg(g.front().value).arg(g.back().value);
    return tr("%1 ranks from %2").arg(g.size()).arg(g.front().value);
}

QString CommMatrixView::valueText(double v) const
{
    switch (metric_) {
    case CommMatrixMetric::Count:
        return formatCount(uint64_t(v + 0.5));
    case CommMatrixMetric::Bytes:
        return formatBytes(uint64_t(v + 0.5));
    case CommMatrixMetric::MeanTime:
    case CommMatrixMetric::MaxTime:
        return formatDuration(v);
    }
    return {};
}

QString CommMatrixView::toolTipAt(QPoint pos) const
{
    const auto [row, column] = cellAt(pos);
    if (row < 0) return {};
    const CommMatrixCell c = groupCell(row, column);
    QString text = QStringLiteral("<b>%1 → %2</b><br>").arg(rankText(row), rankText(column));
    if (c.count == 0) return text + tr("no messages");
    text += tr("%1 messages, %2").arg(formatCount(c.count), formatBytes(c.bytes));
    if (c.timedCount > 0)
        text += tr("<br>transfer time: mean %1, max %2")
                    .arg(formatDuration(c.meanNs()), formatDuration(double(c.maxNs)));
    if (c.timedCount < c.count)
        text += tr("<br>%1 implied by collectives (no transfer time)")
                    .arg(formatCount(c.count - c.timedCount));
    return text + tr("<br><i>Click to highlight these messages on the timeline</i>");
}

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const int n = groupCount();
    if (n == 0 || plot_.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, matrix_ ? tr("No ranks to show") : tr("Computing…"));
        return;
    }
    p.drawImage(plot_, image_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot_.adjusted(0, 0, -1, -1));

    // Axis labels: the first rank of every k-th group, k chosen so labels do not collide.
    const QFontMetrics fm(font());
    const int labelGap = fm.height() + 2;
    const double cell = double(plot_.height()) / n;
    const int step = std::max(1, int(std::ceil(labelGap / cell)));
    p.setPen(palette().color(QPalette::Text));
    for (int g = 0; g < n; g += step) {
        const QString label = QString::number(groups_[size_t(g)].front().value);
        const QRect r = cellRect(g, g);
        p.drawText(QRect(0, r.top(), kLabelMargin - 4, std::max(r.height(), fm.height())),
                   Qt::AlignRight | Qt::AlignVCenter, label);
        p.save();
        p.translate(r.center().x(), kLabelMargin - 4);
        p.rotate(-90);
        p.drawText(QRect(0, -fm.height() / 2, kLabelMargin - 6, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
        p.restore();
    }
    p.drawText(QRect(0, 0, kLabelMargin, kLabelMargin - 4 - fm.height()),
               Qt::AlignCenter | Qt::TextWordWrap, tr("from \\ to"));

    if (selected_.first >= 0) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(selected_.first, selected_.second).adjusted(-1, -1, 1, 1));
    }

    // Colour bar: maximum at the top, smallest non-zero value at the bottom (log scale).
    const QRect bar(plot_.right() + 16, plot_.top(), kBarWidth, plot_.height());
    for (int y = 0; y < bar.height(); ++y)
        p.fillRect(QRect(bar.left(), bar.top() + y, bar.width(), 1),
                   heat(1.0 - double(y) / std::max(1, bar.height() - 1)));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::Text));
    if (maxValue_ > 0) {
        const QRect text(bar.right() + 4, bar.top(), kBarMargin - kBarWidth - 20, fm.height());
        p.drawText(text, Qt::AlignLeft | Qt::AlignTop, valueText(maxValue_));
        if (minValue_ < maxValue_)
            p.drawText(text.translated(0, bar.height() - fm.height()),
                       Qt::AlignLeft | Qt::AlignBottom, valueText(minValue_));
    } else {
        p.drawText(QRect(bar.right() + 4, bar.top(), kBarMargin, fm.height()), tr("empty"));
    }
}

void CommMatrixView::resizeEvent(QResizeEvent*)
{
    layoutCells();
}

void CommMatrixView::mousePressEvent(QMouseEvent* event)
{
    const auto cell = cellAt(event->position().toPoint());
    if (cell.first < 0 || event->button() != Qt::LeftButton) return;
    selectCell(cell.first, cell.second);
}

bool CommMatrixView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        showToolTipText(this, help, toolTipAt(help->pos()));
        return true;
    }
    return QWidget::event(event);
}

} // namespace rankscope
