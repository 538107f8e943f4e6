#include "model/support/memorybudget.h"

#include "model/trace/traceerror.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

namespace rankscope {

namespace {

/// The number after `key` in /proc/meminfo (in kB there), in bytes.
std::optional<uint64_t> meminfoBytes(const std::string& key)
{
    std::ifstream meminfo("/proc/meminfo");
    std::string name;
    uint64_t kb = 0;
    std::string unit;
    while (meminfo >> name >> kb) {
        std::getline(meminfo, unit);
        if (name == key) return kb * 1024;
    }
    return std::nullopt;
}

/// A number read from a file of the memory cgroup (cgroup v2); nullopt for "max" or no file.
std::optional<uint64_t> cgroupValue(const std::string& dir, const char* file)
{
    std::ifstream in(dir + "/" + file);
    std::string text;
    if (!(in >> text) || text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        return std::nullopt;
    return std::strtoull(text.c_str(), nullptr, 10);
}

/// What the memory cgroup of this process still allows (containers see the host's
/// MemAvailable), or nullopt when it sets no limit.
std::optional<uint64_t> cgroupHeadroom()
{
    std::ifstream self("/proc/self/cgroup");
    std::string line;
    while (std::getline(self, line)) {
        if (line.rfind("0::", 0) != 0) // the unified (v2) hierarchy
            continue;
        const std::string dir = "/sys/fs/cgroup" + line.substr(3);
        const auto limit = cgroupValue(dir, "memory.max");
        if (!limit) return std::nullopt;
        const uint64_t used = cgroupValue(dir, "memory.current").value_or(0);
        return *limit > used ? *limit - used : 0;
    }
    return std::nullopt;
}

} // namespace

uint64_t importMemoryBytes(uint64_t events, uint64_t locations)
{
    return kImportFixedBytes + events * kImportBytesPerEvent + locations * kBuildBytesPerLocation;
}

std::optional<uint64_t> parseMemorySize(const std::string& text)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value) || value < 0) return std::nullopt;
    std::string unit(end);
    unit.erase(0, unit.find_first_not_of(' '));
    for (char& c : unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static const std::pair<const char*, double> units[] = {{"", 1},
                                                           {"B", 1},
                                                           {"K", 1e3},
                                                           {"KB", 1e3},
                                                           {"M", 1e6},
                                                           {"MB", 1e6},
                                                           {"G", 1e9},
                                                           {"GB", 1e9},
                                                           {"T", 1e12},
                                                           {"TB", 1e12},
                                                           {"KIB", 1024.0},
                                                           {"MIB", 1048576.0},
                                                           {"GIB", 1073741824.0},
                                                           {"TIB", 1099511627776.0}};
    for (const auto& [name, factor] : units)
        if (unit == name) {
            const double bytes = value * factor;
            if (bytes >= double(std::numeric_limits<uint64_t>::max())) return std::nullopt;
            return static_cast<uint64_t>(bytes);
        }
    return std::nullopt;
}

std::optional<uint64_t> availableMemoryBytes()
{
    if (const char* forced = std::getenv(kAvailableMemoryVariable)) {
        const auto bytes = parseMemorySize(forced);
        if (!bytes)
            throw TraceError(std::string(kAvailableMemoryVariable) + "='" + forced +
                             "' is not a size (write e.g. 512M, 24G or 1.5GiB)");
        return bytes;
    }
    std::optional<uint64_t> available = meminfoBytes("MemAvailable:");
    if (const auto headroom = cgroupHeadroom())
        available = available ? std::min(*available, *headroom) : *headroom;
    return available;
}

std::string formatMemorySize(uint64_t bytes)
{
    static constexpr const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 999.5 && u < 6) {
        v /= 1000.0;
        ++u;
    }
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
    return buf;
}

void requireMemory(const std::string& what, uint64_t needed, std::optional<uint64_t> available)
{
    if (!available || needed <= *available) return;
    throw TraceError(what + " needs about " + formatMemorySize(needed) + " of memory, " +
                     formatMemorySize(*available) + " available (set " + kAvailableMemoryVariable +
                     " to a larger size to try anyway)");
}

} // namespace rankscope
