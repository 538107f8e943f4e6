#pragma once
// Quantities with units as people write them in network specs: "1.5us", "10Gbps", "4KiB".
//
// Times come back in nanoseconds, bandwidths in bytes per nanosecond (= GB/s), sizes in bytes.
// Bits and bytes follow the usual convention: "b" is a bit, "B" a byte; k/M/G/T are powers of
// ten, Ki/Mi/Gi/Ti powers of two. Each function returns nothing for text it cannot read, so the
// caller can say where the text came from and what was expected.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rankscope::netsim {

/// "1.5us", "10ms", "2 s", "300ns" -> nanoseconds. A bare number is refused (units matter).
std::optional<double> parseDuration(std::string_view text);
/// "10Gbps", "100Mb/s", "1.25GB/s", "12.5GBps" -> bytes per nanosecond.
std::optional<double> parseBandwidth(std::string_view text);
/// "4KiB", "64KB", "1MiB", "512", "2GiB" -> bytes (a bare integer is bytes).
std::optional<uint64_t> parseBytes(std::string_view text);

} // namespace rankscope::netsim
