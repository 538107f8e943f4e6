#include "app/sweepaxis.h"

#include "whatif/netsim/units.h"

#include <QObject>
#include <cstdlib>

namespace rankscope {

std::pair<double, ValueKind> numericValue(const std::string& param, const std::string& value)
{
    if (param == "target") return {std::strtod(value.c_str(), nullptr), ValueKind::Ranks};
    // A factor, not a byte count (a bare number would parse as bytes below).
    if (param == "cpu_factor") return {std::strtod(value.c_str(), nullptr), ValueKind::Plain};
    if (auto d = netsim::parseDuration(value)) return {*d, ValueKind::Duration};
    if (auto b = netsim::parseBandwidth(value)) return {*b, ValueKind::Bandwidth};
    if (auto n = netsim::parseBytes(value)) return {double(*n), ValueKind::Bytes};
    return {std::strtod(value.c_str(), nullptr), ValueKind::Plain};
}

/// The plot unit for values up to `largest` of `kind`, and the divisor from the base unit.
std::pair<QString, double> axisUnit(ValueKind kind, double largest)
{
    switch (kind) {
    case ValueKind::Ranks:
        return {QObject::tr("ranks"), 1.0};
    case ValueKind::Duration:
        if (largest >= 1e9) return {QStringLiteral("s"), 1e9};
        if (largest >= 1e6) return {QStringLiteral("ms"), 1e6};
        if (largest >= 1e3) return {QStringLiteral("us"), 1e3};
        return {QStringLiteral("ns"), 1.0};
    case ValueKind::Bandwidth:
        return {QStringLiteral("Gbps"), 1.0 / 8.0}; // 1 byte/ns = 8 Gbps
    case ValueKind::Bytes:
        if (largest >= 1024.0 * 1024.0) return {QStringLiteral("MiB"), 1024.0 * 1024.0};
        if (largest >= 1024.0) return {QStringLiteral("KiB"), 1024.0};
        return {QStringLiteral("B"), 1.0};
    case ValueKind::Plain:
        break;
    }
    return {QString(), 1.0};
}

} // namespace rankscope
