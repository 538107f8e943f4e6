#pragma once
// The memory an import or a generation will need, estimated from counts known before the work
// starts, and the memory this machine can give: a trace too large for the machine is refused at
// once, naming both figures, instead of running for minutes until the kernel kills the process.
//
// The figures come from measurements (bench/import prints the import's peak per event) and the
// sizes of the model's tables; they are estimates with a margin, not bounds.

#include <cstdint>
#include <optional>
#include <string>

namespace rankscope {

/// An import's peak memory per event: the event columns (8 bytes), the derived tables that refer
/// to them and the builder's temporaries. bench/import measures 12 on its stencil trace, the
/// Score-P traces of ../shared/traces 9-12; the margin covers traces richer in messages and
/// collectives. Records kept as misc events (non-MPI records, 16 bytes each in the trace) cost
/// up to 40 bytes per event, so a trace made mostly of them can exceed the estimate.
inline constexpr uint64_t kImportBytesPerEvent = 16;
/// An import's memory that does not grow with the trace: OTF2's read buffers (a 1 MiB event
/// chunk per reading thread, the definition chunks), 3-5 MB measured.
inline constexpr uint64_t kImportFixedBytes = 8'000'000;
/// What one location (with its rank) costs while its trace is built, besides its events:
/// definitions, the empty event columns, the builder's state for it, OTF2's reader state.
/// Measured 1.2-1.8 kB generating, 2.0-2.3 kB importing traces of 65536 ranks.
inline constexpr uint64_t kBuildBytesPerLocation = 2560;
/// While a trace is built: an event's columns; a message's row plus its sender's entry in the
/// matcher's send list; a collective member's row (32) plus its sort item in the matcher (24)
/// and its payload when the sizes differ from call to call (up to 24 per member).
inline constexpr uint64_t kBuildBytesPerEvent = 9;
inline constexpr uint64_t kBuildBytesPerMessage = 36;
inline constexpr uint64_t kBuildBytesPerCollectiveMember = 80;

/// Peak memory of importing a trace with `events` events on `locations` locations:
/// kImportFixedBytes + events x kImportBytesPerEvent + locations x kBuildBytesPerLocation.
uint64_t importMemoryBytes(uint64_t events, uint64_t locations);

/// The name of the environment variable that, when set, replaces the available-memory figure:
/// a size such as "512M", "24G", "1.5GiB" or a plain number of bytes.
inline constexpr const char* kAvailableMemoryVariable = "RANKSCOPE_AVAILABLE_MEMORY";

/// Bytes this process can still get: MemAvailable of /proc/meminfo, lowered to what its memory
/// cgroup still allows; or the value of RANKSCOPE_AVAILABLE_MEMORY when that is set. nullopt
/// when the system does not say (then nothing is refused). Throws TraceError when the variable
/// holds no size.
std::optional<uint64_t> availableMemoryBytes();

/// Parses a size: a number with an optional unit B, K/KB, M/MB, G/GB, T/TB (powers of 1000) or
/// KiB, MiB, GiB, TiB (powers of 1024). nullopt when `text` is none.
std::optional<uint64_t> parseMemorySize(const std::string& text);

/// "41.2 GB", "950 MB", "12 kB" (powers of 1000, three significant digits at most).
std::string formatMemorySize(uint64_t bytes);

/// Throws TraceError("<what> needs about X of memory, Y available; ...") when `needed` exceeds
/// `available`. Does nothing when `available` is unknown.
void requireMemory(const std::string& what, uint64_t needed, std::optional<uint64_t> available);

} // namespace rankscope
