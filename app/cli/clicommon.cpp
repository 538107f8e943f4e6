#include "app/cli/clicommon.h"

#include "importers/otf2reader.h"

#include <cmath>
#include <cstdio>
#include <thread>

namespace rankscope::cli {

Trace loadTrace(const std::string& path, const LoadOptions& options)
{
    Otf2ReadOptions read;
    read.allowPartial = options.allowPartial;
    read.threads = options.threads != 0 ? options.threads
                                        : std::max(1u, std::thread::hardware_concurrency());
    return readOtf2(path, read);
}

std::string formatDuration(int64_t ns)
{
    const double v = std::abs(double(ns));
    const char* unit = "ns";
    double scaled = double(ns);
    if (v >= 1e9) {
        scaled = double(ns) / 1e9;
        unit = "s";
    } else if (v >= 1e6) {
        scaled = double(ns) / 1e6;
        unit = "ms";
    } else if (v >= 1e3) {
        scaled = double(ns) / 1e3;
        unit = "us";
    } else {
        return std::to_string(ns) + " ns";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g %s", scaled, unit);
    return buf;
}

std::string formatBytes(uint64_t bytes)
{
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char buf[64];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
    return buf;
}

} // namespace rankscope::cli
