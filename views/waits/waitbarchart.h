#pragma once
// Waiting time per rank as vertical bars stacked by pattern (WaitPalette colours), with a time
// axis, thinned rank labels and a legend of the patterns present.
//
// Design note: setAnalysis sums the waits once per (rank, pattern); painting reads only those
// sums. With more ranks than pixel columns each column stands for a run of ranks and shows the
// one with the most waiting (a maximum, so an outlier never vanishes in an average); the
// column -> rank choice is cached per plot width, so a paint costs O(pixels), not O(ranks).

#include "model/trace/ids.h"
#include "model/waits/waitstates.h"

#include <QWidget>
#include <array>
#include <memory>
#include <vector>

namespace rankscope {

class Trace;

class WaitBarChart : public QWidget
{
    Q_OBJECT
public:
    explicit WaitBarChart(QWidget* parent = nullptr);

    /// Shows the per-rank waiting of `analysis` over every rank of `trace`; null clears.
    void setAnalysis(std::shared_ptr<const Trace> trace,
                     std::shared_ptr<const WaitStateAnalysis> analysis);
    /// Outlines `rank`'s bar; an invalid id removes the outline.
    void setHighlightedRank(RankId rank);
    RankId highlightedRank() const { return highlighted_; }

    size_t rankCount() const { return ranks_; }
    /// Waiting of `rank` in `pattern` / in all patterns, ns.
    int64_t waitingNs(RankId rank, WaitPattern pattern) const;
    int64_t totalNs(RankId rank) const;

    /// The rectangle the bars are drawn in.
    QRect plotArea() const;
    /// The rank whose bar is drawn at widget x (the maximum of a column's ranks); invalid outside.
    RankId rankAt(int x) const;
    /// The ranks [first, last] the column at widget x stands for; false outside the plot.
    bool ranksAt(int x, RankId* first, RankId* last) const;
    /// The hover text at widget position `pos` (empty outside the bars).
    QString toolTipAt(QPoint pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(rankscope::RankId rank);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    using Sums = std::array<int64_t, kWaitPatternCount>;
    struct LegendItem
    {
        WaitPattern pattern;
        QRect rect; // swatch and name
    };
    static constexpr int kSwatch = 10;

    std::vector<LegendItem> legendLayout() const;
    int plotLeft() const;

    int columnCount() const;   // drawn columns: ranks, or plot pixels when fewer
    int columnAt(int x) const; // -1 outside the plot
    void columnRanks(int column, uint32_t* first, uint32_t* last) const;
    uint32_t shownRank(int column) const;
    double valueTop() const; // ns at the top of the plot
    void paintAxis(QPainter& p, const QRect& plot) const;
    void paintLegend(QPainter& p) const;
    void paintBar(QPainter& p, const QRect& plot, int column) const;

    size_t ranks_ = 0;
    std::vector<Sums> sums_;      // per rank, per pattern
    std::vector<int64_t> totals_; // per rank
    int64_t maxTotal_ = 0;
    std::array<bool, kWaitPatternCount> present_{};
    RankId highlighted_;
    mutable QRect plot_;
    mutable QSize plotFor_;               // the widget size plot_ was laid out for; invalid: stale
    mutable std::vector<uint32_t> shown_; // per pixel column when ranks > pixels
    mutable int shownWidth_ = -1;
};

} // namespace rankscope
