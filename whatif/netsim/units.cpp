#include "whatif/netsim/units.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace rankscope::netsim {

namespace {

/// Splits "1.5 us" into 1.5 and "us"; nothing when the number is missing or not finite.
std::optional<std::pair<double, std::string_view>> splitNumber(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
    std::string_view unit(end, size_t(text.data() + text.size() - end));
    while (!unit.empty() && unit.front() == ' ')
        unit.remove_prefix(1);
    return std::make_pair(value, unit);
}

template <size_t N>
std::optional<double> scaleOf(std::string_view unit,
                              const std::array<std::pair<std::string_view, double>, N>& table)
{
    for (const auto& [name, scale] : table)
        if (unit == name) return scale;
    return std::nullopt;
}

} // namespace

std::optional<double> parseDuration(std::string_view text)
{
    static constexpr std::array<std::pair<std::string_view, double>, 5> kUnits{
        {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"ps", 1e-3}}};
    const auto split = splitNumber(text);
    if (!split) return std::nullopt;
    const auto scale = scaleOf(split->second, kUnits);
    if (!scale) return std::nullopt;
    return split->first * *scale;
}

std::optional<double> parseBandwidth(std::string_view text)
{
    // Scales to bytes per second; "bps" and "b/s" are bits, "Bps" and "B/s" bytes.
    static constexpr std::array<std::pair<std::string_view, double>, 5> kPrefixes{
        {{"", 1.0}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}}};
    const auto split = splitNumber(text);
    if (!split) return std::nullopt;
    std::string_view unit = split->second;
    double perUnit = 0;
    for (const auto& [suffix, scale] : std::array<std::pair<std::string_view, double>, 4>{
             {{"bps", 0.125}, {"b/s", 0.125}, {"Bps", 1.0}, {"B/s", 1.0}}}) {
        if (unit.size() >= suffix.size() && unit.substr(unit.size() - suffix.size()) == suffix) {
            perUnit = scale;
            unit.remove_suffix(suffix.size());
            break;
        }
    }
    if (perUnit == 0) return std::nullopt;
    const auto prefix = scaleOf(unit, kPrefixes);
    if (!prefix) return std::nullopt;
    return split->first * *prefix * perUnit / 1e9;
}

std::optional<uint64_t> parseBytes(std::string_view text)
{
    static constexpr std::array<std::pair<std::string_view, double>, 10> kUnits{
        {{"", 1.0},
         {"B", 1.0},
         {"KB", 1e3},
         {"kB", 1e3},
         {"MB", 1e6},
         {"GB", 1e9},
         {"KiB", 1024.0},
         {"MiB", 1048576.0},
         {"GiB", 1073741824.0},
         {"TiB", 1099511627776.0}}};
    const auto split = splitNumber(text);
    if (!split || split->first < 0) return std::nullopt;
    const auto scale = scaleOf(split->second, kUnits);
    if (!scale) return std::nullopt;
    const double bytes = split->first * *scale;
    // A fraction of a byte is a typo, and beyond 2^62 bytes nothing is meant seriously.
    if (bytes != std::floor(bytes) || bytes > 4.6e18) return std::nullopt;
    return uint64_t(bytes);
}

} // namespace rankscope::netsim
