#pragma once
// The colours, threshold and number formats that WhatIfComparison's summary and
// WaitComparisonChart share, so a difference reads the same in the table and under the bars.

#include "views/panes/durationformat.h"

#include <QColor>
#include <QString>
#include <optional>

namespace rankscope::whatifcomparison {

/// A difference beyond this many percent is coloured.
inline constexpr double kNotablePercent = 5.0;

inline QColor slowerColor()
{
    return {190, 30, 30};
}

inline QColor fasterColor()
{
    return {20, 130, 50};
}

inline QString percentText(std::optional<double> pct)
{
    if (!pct) return QStringLiteral("n/a");
    return QStringLiteral("%1%2 %")
        .arg(*pct > 0 ? QStringLiteral("+") : QString())
        .arg(*pct, 0, 'f', 1);
}

inline QString signedDuration(double ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDuration(ns);
}

} // namespace rankscope::whatifcomparison
