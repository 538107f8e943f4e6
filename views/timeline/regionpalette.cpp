#include "views/timeline/regionpalette.h"

#include "model/trace/trace.h"

#include <QFontMetrics>
#include <QPainter>
#include <QRect>

namespace rankscope {

namespace {

// Tableau-like hues: the MPI roles are warm and saturated (they are what an MPI analyst looks
// for), user functions are cool blues and greens, so the two never get confused.
const QColor kSlotColors[RegionPalette::kSlotCount] = {
    QColor(0xd6, 0x36, 0x2f), // point-to-point: red
    QColor(0xf2, 0x8e, 0x1c), // collective: orange
    QColor(0x8e, 0x5c, 0xc8), // barrier: purple
    QColor(0xe0, 0x5f, 0xa8), // other MPI: pink
    QColor(0x9a, 0x9a, 0x9a), // measurement / artificial: grey
    QColor(0x4e, 0x79, 0xa7), // user hues: blue, green, teal, sky, olive, sea, slate, sand
    QColor(0x59, 0xa1, 0x4f), QColor(0x76, 0xb7, 0xb2), QColor(0x5f, 0xa2, 0xdd),
    QColor(0xa0, 0xb1, 0x4a), QColor(0x2e, 0x8b, 0x74), QColor(0x7f, 0x8f, 0xb8),
    QColor(0xc2, 0xa8, 0x78),
};

struct LegendEntry
{
    int slot;
    const char* label;
};
constexpr LegendEntry kLegend[] = {
    {RegionPalette::PointToPoint, "Point-to-point"},
    {RegionPalette::Collective, "Collective"},
    {RegionPalette::Barrier, "Barrier"},
    {RegionPalette::OtherMpi, "Other MPI"},
    {RegionPalette::FirstUserHue, "User functions"},
    {RegionPalette::Measurement, "Measurement"},
};

constexpr int kSwatch = 12;
constexpr int kUserSwatchWidth = 4 * 6; // four hues side by side
constexpr int kGap = 6;
constexpr int kEntrySpacing = 18;

int swatchWidth(int slot)
{
    return slot == RegionPalette::FirstUserHue ? kUserSwatchWidth : kSwatch;
}

} // namespace

void RegionPalette::setTrace(const Trace* trace)
{
    slots_.clear();
    if (!trace) return;
    slots_.reserve(trace->regions().size());
    // User functions take the hues in definition order, so the first eight always differ and
    // a region keeps its colour for a given trace in every view.
    uint32_t userIndex = 0;
    for (uint32_t i = 0; i < trace->regions().size(); ++i) {
        const RegionRole role = trace->regions()[i].role;
        slots_.push_back(role == RegionRole::Function ? slotForRole(role, RegionId(userIndex++))
                                                      : slotForRole(role, RegionId(i)));
    }
}

QColor RegionPalette::color(int slot)
{
    return slot >= 0 && slot < kSlotCount ? kSlotColors[slot] : QColor();
}

uint8_t RegionPalette::slotForRole(RegionRole role, RegionId userIndex)
{
    switch (role) {
    case RegionRole::MpiPointToPoint:
        return PointToPoint;
    case RegionRole::MpiCollective:
        return Collective;
    case RegionRole::Barrier:
        return Barrier;
    case RegionRole::MpiOther:
        return OtherMpi;
    case RegionRole::Other:
        return Measurement;
    case RegionRole::Function:
        break;
    }
    return uint8_t(FirstUserHue + userIndex.value % kUserHues);
}

QString RegionPalette::roleLabel(RegionRole role)
{
    switch (role) {
    case RegionRole::MpiPointToPoint:
        return QStringLiteral("MPI point-to-point");
    case RegionRole::MpiCollective:
        return QStringLiteral("MPI collective");
    case RegionRole::Barrier:
        return QStringLiteral("MPI barrier");
    case RegionRole::MpiOther:
        return QStringLiteral("other MPI");
    case RegionRole::Other:
        return QStringLiteral("measurement");
    case RegionRole::Function:
        break;
    }
    return QStringLiteral("user function");
}

int RegionPalette::legendWidth(const QPainter& painter)
{
    const QFontMetrics fm(painter.font());
    int w = 0;
    for (const LegendEntry& e : kLegend)
        w += swatchWidth(e.slot) + kGap + fm.horizontalAdvance(QLatin1String(e.label)) +
             kEntrySpacing;
    return w - kEntrySpacing;
}

void RegionPalette::paintLegend(QPainter& painter, const QRect& rect, const QColor& text)
{
    painter.save();
    painter.setClipRect(rect);
    const QFontMetrics fm(painter.font());
    int x = rect.left();
    const int swatchTop = rect.top() + (rect.height() - kSwatch) / 2;
    QColor frame = text;
    frame.setAlpha(90);
    for (const LegendEntry& e : kLegend) {
        const QString label = QLatin1String(e.label);
        if (e.slot == FirstUserHue) {
            for (int i = 0; i < 4; ++i)
                painter.fillRect(x + i * 6, swatchTop, 6, kSwatch, kSlotColors[FirstUserHue + i]);
        } else {
            painter.fillRect(x, swatchTop, kSwatch, kSwatch, kSlotColors[e.slot]);
        }
        painter.setPen(frame);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(x, swatchTop, swatchWidth(e.slot) - 1, kSwatch - 1);
        x += swatchWidth(e.slot) + kGap;
        painter.setPen(text);
        painter.drawText(QRect(x, rect.top(), fm.horizontalAdvance(label) + 2, rect.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label) + kEntrySpacing;
    }
    painter.restore();
}

} // namespace rankscope
