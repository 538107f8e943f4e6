#pragma once
// Human-readable numbers, one implementation for the command line and the GUI (views wrap them in
// QString): durations in the unit that suits their size ("21.30 us", "10.10 s"), timestamps as
// seconds with nanosecond digits, byte counts in binary units, counts with separators.

#include <cstdint>
#include <string>

namespace rankscope {

/// A duration in ns, 4 significant digits in ns, us, ms or s ("850 ns", "21.30 us"); seconds
/// past 1000 keep one decimal ("1234.5 s").
std::string durationText(double ns);
/// A time since the start of the trace, exact to the ns ("10.096500085 s").
std::string timestampText(int64_t ns);
/// A byte count in B, KiB, MiB, GiB or TiB, two decimals above 1 KiB ("64.00 KiB").
std::string bytesText(uint64_t bytes);
/// A count with thousands separators ("1,234,567").
std::string countText(uint64_t n);

} // namespace rankscope
