#pragma once
// Draws wait states over a timeline frame (ALGORITHMS.md §6.2: "shown on the timeline over exactly
// the waiting span of the call").
//
// Zoomed in (a pixel narrower than a WaitSummary bucket) each wait of the window is drawn over its
// own span [begin, end): hatched in its pattern's colour with an outline, so the MPI call's own
// colour stays readable under it. Zoomed out each pixel shows the WaitSummary cell under it as a
// bar rising from the row's bottom edge, its height the share of the pixel's time spent waiting,
// in the colour of the pattern that waits longest there. Either way a frame costs O(pixels x rows)
// plus the waits of a zoomed-in window, and even a one-nanosecond wait leaves a mark.

#include "model/waits/waitstates.h"
#include "model/waits/waitsummary.h"

#include <QColor>
#include <QImage>
#include <QRect>
#include <array>
#include <memory>
#include <span>
#include <vector>

class QPainter;

namespace rankscope {

struct TimelineState;

class WaitOverlay
{
public:
    void setWaits(std::shared_ptr<const WaitStateAnalysis> waits,
                  std::shared_ptr<const WaitSummary> summary);
    const std::shared_ptr<const WaitStateAnalysis>& waits() const { return waits_; }
    bool empty() const { return !waits_ || waits_->waits.empty(); }

    /// Paints the waits of every visible row of `d` (clipped to d.plot).
    void paint(QPainter& p, const TimelineState& d);
    /// One line of swatches for the patterns that occur; returns the width used.
    int paintLegend(QPainter& p, const QRect& rect, const QColor& text) const;
    /// The wait of `rank` covering trace time `t`, or null.
    const WaitState* waitAt(RankId rank, double t) const;

private:
    bool usesSummary(double nsPerPixel, bool group) const;
    void addSpans(const TimelineState& d, RankId rank, const QRect& row);
    void addCells(const TimelineState& d, std::span<const RankId> ranks, const QRect& row);
    void paintBars(QPainter& p, const TimelineState& d);

    std::shared_ptr<const WaitStateAnalysis> waits_;
    std::shared_ptr<const WaitSummary> summary_;
    // Per-frame scratch, sized by pixels and patterns, never by waits.
    std::vector<WaitCell> cells_, rowCells_;
    std::array<std::vector<QRectF>, kWaitPatternCount> spans_;
    std::array<std::vector<QRect>, kWaitPatternCount> bars_;
    QImage barsImage_; ///< the zoomed-out bars of one frame, blended at once
};

} // namespace rankscope
