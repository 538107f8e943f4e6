#include "views/extrap/extrapformat.h"

#include "views/panes/durationformat.h"

#include <cmath>

namespace rankscope {

SeriesUnit seriesUnit(const std::string& quantity)
{
    if (quantity.find("count") != std::string::npos) return SeriesUnit::Count;
    if (quantity.find("frequency") != std::string::npos ||
        quantity.find("/ mean") != std::string::npos)
        return SeriesUnit::Ratio;
    return SeriesUnit::Time;
}

QString formatSeriesValue(double value, SeriesUnit unit)
{
    if (!std::isfinite(value)) return QStringLiteral("n/a");
    switch (unit) {
    case SeriesUnit::Time:
        return formatDuration(value);
    case SeriesUnit::Count:
        return std::abs(value - std::round(value)) < 1e-9 ? QString::number(std::llround(value))
                                                          : QString::number(value, 'g', 4);
    case SeriesUnit::Ratio:
        return QString::number(value, 'g', 4);
    }
    return {};
}

QString formatAccuracy(double percent)
{
    return std::isfinite(percent) ? QStringLiteral("%1 %").arg(percent, 0, 'f', 1)
                                  : QStringLiteral("n/a");
}

QString formatWithInterval(double value, double low, double high, SeriesUnit unit)
{
    const QString v = formatSeriesValue(value, unit);
    if (low == value && high == value) return v;
    return QStringLiteral("%1 [%2, %3]")
        .arg(v, formatSeriesValue(low, unit), formatSeriesValue(high, unit));
}

} // namespace rankscope
