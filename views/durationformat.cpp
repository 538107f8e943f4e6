#include "views/durationformat.h"

#include <cmath>
#include <cstdlib>

namespace rankscope {

QString formatDuration(double ns)
{
    const double a = std::fabs(ns);
    if (a < 1e3) return QStringLiteral("%1 ns").arg(std::llround(ns));
    struct Unit
    {
        double scale;
        const char* name;
    };
    static constexpr Unit kUnits[] = {{1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
    Unit u = kUnits[0];
    for (const Unit& c : kUnits)
        if (a >= c.scale) u = c;
    const double v = ns / u.scale;
    const double av = std::fabs(v);
    // 4 significant digits; seconds may grow past 1000 and keep 1 decimal.
    const int decimals = av < 10 ? 3 : av < 100 ? 2 : 1;
    return QStringLiteral("%1 %2").arg(v, 0, 'f', decimals).arg(QLatin1String(u.name));
}

QString formatTimestamp(int64_t ns)
{
    const char* sign = ns < 0 ? "-" : "";
    const uint64_t a = ns < 0 ? uint64_t(-(ns + 1)) + 1 : uint64_t(ns);
    return QStringLiteral("%1%2.%3 s")
        .arg(QLatin1String(sign))
        .arg(a / 1'000'000'000u)
        .arg(a % 1'000'000'000u, 9, 10, QLatin1Char('0'));
}

QString formatBytes(uint64_t bytes)
{
    if (bytes < 1024) return QStringLiteral("%1 B").arg(bytes);
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes) / 1024.0;
    int i = 0;
    while (v >= 1024.0 && i < 3) {
        v /= 1024.0;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(v, 0, 'f', 2).arg(QLatin1String(kUnits[i]));
}

QString formatCount(uint64_t n)
{
    QString digits = QString::number(n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

} // namespace rankscope
