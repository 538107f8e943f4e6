#include "model/support/textformat.h"

#include <cmath>
#include <cstdio>

namespace rankscope {

std::string durationText(double ns)
{
    const double a = std::fabs(ns);
    char buf[64];
    if (a < 1e3) {
        std::snprintf(buf, sizeof buf, "%lld ns", std::llround(ns));
        return buf;
    }
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
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, u.name);
    return buf;
}

std::string timestampText(int64_t ns)
{
    const char* sign = ns < 0 ? "-" : "";
    const uint64_t a = ns < 0 ? uint64_t(-(ns + 1)) + 1 : uint64_t(ns);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%llu.%09llu s", sign,
                  static_cast<unsigned long long>(a / 1'000'000'000u),
                  static_cast<unsigned long long>(a % 1'000'000'000u));
    return buf;
}

std::string bytesText(uint64_t bytes)
{
    char buf[64];
    if (bytes < 1024) {
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
        return buf;
    }
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes) / 1024.0;
    int i = 0;
    while (v >= 1024.0 && i < 3) {
        v /= 1024.0;
        ++i;
    }
    std::snprintf(buf, sizeof buf, "%.2f %s", v, kUnits[i]);
    return buf;
}

std::string countText(uint64_t n)
{
    std::string digits = std::to_string(n);
    for (long i = long(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(size_t(i), 1, ',');
    return digits;
}

} // namespace rankscope
