#pragma once
// What the benchmarks share: wall-clock helpers and the generated stencil2d traces they run on
// (made once under build/bench-data and reused by every benchmark).

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::bench {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

/// The options every benchmark takes: [--trace DIR] [--ranks N] [--min-events E] [--repeat K]
/// [--formats LIST].
struct BenchArgs
{
    std::string dir = "build/bench-data/stencil2d-256";
    uint32_t ranks = 256;
    uint64_t minEvents = 25'000'000;
    int repeat = 3;
    /// Comma-separated trace formats a benchmark measures, for those that read several
    /// (bench/import: otf2, paje, prv).
    std::string formats = "otf2,paje,prv";
};

/// An HDR-InfiniBand-like crossbar of 1024 nodes, one rank each, shared memory on a node (as
/// resources/networks/ib-switch.yaml): the network of the replay benchmarks and the gate.
extern const char* const kIbSwitchBenchSpec;

/// Whether `name` is among the comma-separated `formats`.
bool hasFormat(const std::string& formats, const std::string& name);

/// Parses the options; false (after printing why) on an unknown or malformed one.
bool parseBenchArgs(int argc, char** argv, BenchArgs& args);

/// Median of `v` (0 for an empty set).
double median(std::vector<double> v);

/// Cores of this machine (at least 1).
unsigned cores();

/// The anchor file of a stencil2d trace of `ranks` ranks with at least `minEvents` events in
/// `dir`; generated (and written as OTF2) when missing, reused otherwise.
std::string ensureStencilTrace(const std::string& dir, uint32_t ranks, uint64_t minEvents);

/// The anchor file of a call-heavy trace in `dir`: `ranks` ranks run `iterations` times a
/// compute region, an MPI_Sendrecv with their ring neighbours (to r + 1, from r - 1) and an
/// MPI_Allreduce, between MPI_Init and MPI_Finalize: 10 events per rank and iteration, half of
/// them inside MPI calls. Written once as OTF2 and reused; `events` (if given) receives its
/// event count.
std::string ensureSendrecvTrace(const std::string& dir, uint32_t ranks, uint32_t iterations,
                                uint64_t* events = nullptr);

/// Peak resident set size of this process so far, in bytes (Linux VmHWM; 0 when unknown).
size_t peakResidentBytes();
/// Resets the peak to the current RSS (Linux >= 4.0), so the next peak is the measured work's.
void resetPeak();

} // namespace rankscope::bench
