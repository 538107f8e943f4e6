#pragma once
// The x axis of a sweep plot: each swept value as a number in a base unit (ns, bytes/ns, bytes,
// ranks or plain), and the unit and divisor that read well for the largest value.

#include <QString>
#include <string>
#include <utility>

namespace rankscope {

/// A sweep value as a number in a base unit (ns, bytes/ns, bytes or plain), and its kind.
enum class ValueKind
{
    Plain,
    Ranks,
    Duration,
    Bandwidth,
    Bytes
};
/// `value` of sweep parameter `param` in its base unit, and its kind.
std::pair<double, ValueKind> numericValue(const std::string& param, const std::string& value);
/// The plot unit for values up to `largest` of `kind`, and the divisor from the base unit.
std::pair<QString, double> axisUnit(ValueKind kind, double largest);

} // namespace rankscope
