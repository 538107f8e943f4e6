#pragma once
// Human-readable times, bytes and counts for panes and tables: model/support/textformat.h's text
// (the command line prints the same) as QString.

#include <QString>
#include <cstdint>

namespace rankscope {

/// A duration in ns, 4 significant digits in ns, us, ms or s ("850 ns", "21.30 us").
QString formatDuration(double ns);
/// A time since the start of the trace, exact to the ns ("10.096500085 s").
QString formatTimestamp(int64_t ns);
/// A byte count in B, KiB, MiB or GiB ("64.00 KiB").
QString formatBytes(uint64_t bytes);
/// A count with thousands separators ("1,234,567").
QString formatCount(uint64_t n);

} // namespace rankscope
