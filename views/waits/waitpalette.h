#pragma once
// Colours of wait-state patterns, shared by the timeline overlay, the wait-state table, the
// per-rank chart and their legends. Waiting spans are drawn over MPI calls, whose fills are red,
// orange, purple and pink (RegionPalette), so the pattern colours are chosen to stand out against
// exactly those: light yellow, cyan and lime, a dark navy and maroon, and white.

#include "model/waits/waitstates.h"

#include <QColor>
#include <QString>

namespace rankscope {

struct WaitPalette
{
    static QColor color(WaitPattern pattern)
    {
        switch (pattern) {
        case WaitPattern::LateSender:
            return QColor(0xff, 0xe1, 0x19); // yellow
        case WaitPattern::LateReceiver:
            return QColor(0x42, 0xd4, 0xf4); // cyan
        case WaitPattern::WaitAtBarrier:
            return QColor(0xbf, 0xef, 0x45); // lime
        case WaitPattern::WaitAtNxN:
            return QColor(0x10, 0x1c, 0x7a); // navy
        case WaitPattern::LateBroadcast:
            return QColor(0xff, 0xff, 0xff); // white
        case WaitPattern::EarlyReduce:
            return QColor(0x80, 0x10, 0x10); // maroon
        }
        return {};
    }
    static QString name(WaitPattern pattern)
    {
        return QString::fromLatin1(waitPatternName(pattern).data(),
                                   qsizetype(waitPatternName(pattern).size()));
    }
};

} // namespace rankscope
