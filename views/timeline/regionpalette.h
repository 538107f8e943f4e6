#pragma once
// Colours of timeline regions: MPI roles in strong fixed colours (point-to-point red,
// collective orange, barrier purple, other MPI pink), user functions in a set of cool hues
// taken in definition order (stable for a trace in every view), measurement regions grey. The
// colours are mid-saturation so they read on light and dark backgrounds alike.

#include "model/trace/definitions.h"
#include "model/trace/ids.h"

#include <QColor>
#include <QString>
#include <vector>

class QPainter;
class QRect;

namespace rankscope {

class Trace;

class RegionPalette
{
public:
    /// Colour slots: the roles first, then the user-function hues.
    enum Slot : uint8_t
    {
        PointToPoint,
        Collective,
        Barrier,
        OtherMpi,
        Measurement,
        FirstUserHue,
    };
    static constexpr int kUserHues = 8;
    static constexpr int kSlotCount = FirstUserHue + kUserHues;
    static constexpr uint8_t kIdle = 0xFF;

    /// Precomputes the slot of every region of `trace` (nullptr: no regions).
    void setTrace(const Trace* trace);

    /// Slot of a region; kIdle for an invalid id (no region open).
    uint8_t slot(RegionId region) const
    {
        return region.valid() && region.value < slots_.size() ? slots_[region.value] : kIdle;
    }
    static QColor color(int slot);
    QColor color(RegionId region) const { return color(slot(region)); }

    /// Slot of a role; user functions cycle through the hues by `userIndex`.
    static uint8_t slotForRole(RegionRole role, RegionId userIndex);
    static QString roleLabel(RegionRole role);

    /// One line of swatches and labels; `text` is the label colour.
    static void paintLegend(QPainter& painter, const QRect& rect, const QColor& text);
    /// Width paintLegend needs with the painter's current font.
    static int legendWidth(const QPainter& painter);

private:
    std::vector<uint8_t> slots_;
};

} // namespace rankscope
