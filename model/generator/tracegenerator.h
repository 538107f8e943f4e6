#pragma once
// Synthetic MPI traces with a known structure and a known scaling behaviour.
//
// Each pattern mimics what Score-P records for a small SPMD program: main > MPI_Init, then
// `iterations` times an "iteration" region holding named compute regions and MPI calls, then
// MPI_Finalize. Compute time per occurrence of a region is c * f(n) (f a ScalingLaw in the rank
// count n), scaled per rank by a fixed imbalance factor and per occurrence by noise; both
// spreads widen with n by (1 + noiseGrowth * log2 n). So traces generated at several n behave
// like a real strong- (or weak-) scaling series, with the laws known for checking extrapolation.
// Timestamps respect causality: a receive completes no earlier than its send started plus
// latency + bytes / bandwidth; a collective ends after its last member entered.

#include "model/generator/scalinglaw.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope {

/// One named user region run once per iteration: time per occurrence = baseNs * law(n).
struct ComputeRegion
{
    std::string name;
    double baseNs = 0; ///< the coefficient c: for 1/n the single-rank time, for constant the time
    ScalingLaw law = ScalingLaw::InverseN;
    bool operator==(const ComputeRegion&) const = default;
};

struct GeneratorOptions
{
    /// "pingpong" (pairs 2k, 2k+1 exchange blocking Send/Recv; even rank count),
    /// "stencil2d" (5-point halo on an MPI_Dims_create grid: Irecv/Isend/Waitall + Allreduce),
    /// "stencil3d" (26-neighbour halo on a k x k x k grid, LULESH-like; n must be a cube),
    /// "alltoall" (bucket sort: Allreduce + Alltoall + Alltoallv).
    std::string pattern = "stencil2d";
    uint32_t ranks = 4;
    uint32_t iterations = 10;
    uint64_t seed = 1;

    /// The compute regions of one iteration in the order the pattern runs them. Empty: the
    /// pattern's defaults (defaultComputeRegions), which mimic a strong-scaling run. When given,
    /// the count must equal the pattern's (pingpong 2, stencils 4, alltoall 3); names are free.
    std::vector<ComputeRegion> regions;
    /// Per-rank load imbalance: rank r's compute times are scaled by 1 + imbalance * g(n) * u_r,
    /// u_r uniform in [-1, 1) and fixed per rank (a rank with more cells is slower everywhere).
    double imbalance = 0.05;
    /// Per-occurrence noise (relative standard deviation): each duration is further scaled by
    /// 1 + noise * g(n) * z, z approximately standard normal (bounded to +-3.46).
    double noise = 0.02;
    /// How the spread grows with n: g(n) = 1 + noiseGrowth * log2(n) multiplies imbalance and
    /// noise (0: the same relative spread at every scale).
    double noiseGrowth = 0.25;
    /// Message size coefficient in bytes: size(n) = messageBytes * messageLaw(n). It sizes the
    /// pingpong message, a stencil face (3D edges and corners derive from it), the keys one
    /// rank sends in the alltoall's MPI_Alltoallv. Unset: the pattern's default
    /// (pingpong 64 KiB constant, stencil2d 64 KiB 1/sqrt(n), stencil3d 512 KiB 1/sqrt(n),
    /// alltoall 64 MiB 1/n).
    std::optional<double> messageBytes;
    std::optional<ScalingLaw> messageLaw;
    /// Network: a message of b bytes arrives latencyNs + b / bandwidth after its send started.
    double latencyNs = 1500;
    double bandwidthBytesPerSecond = 10e9;
    /// Time an MPI call spends besides waiting and transfer (entry to record, record to exit).
    double mpiCallNs = 400;
    /// pingpong only: iteration i sends size * 2^(i mod sizeSteps), as a latency benchmark
    /// sweeping message sizes does (1: every message the same size).
    uint32_t sizeSteps = 1;
    /// Refuse to generate more events than this (a typo in `iterations` should not eat all
    /// memory); hard limits of the model (events per location, messages) apply regardless.
    uint64_t maxEvents = 1'000'000'000;
    /// Refuse (TraceError with both figures) when GeneratorShape::memoryBytes exceeds the
    /// available memory: `availableMemory` bytes, or when unset availableMemoryBytes().
    bool checkMemory = true;
    std::optional<uint64_t> availableMemory;
};

/// The compute regions a pattern runs per iteration when GeneratorOptions::regions is empty.
/// Throws TraceError for an unknown pattern.
std::vector<ComputeRegion> defaultComputeRegions(std::string_view pattern);

/// What generateTrace would produce, computed without generating: for tests and size checks.
struct GeneratorShape
{
    std::vector<uint64_t> eventsPerRank;
    uint64_t messages = 0;
    uint64_t collectiveInstances = 0;
    uint64_t collectiveMembers = 0; ///< every instance is on MPI_COMM_WORLD: instances x ranks
    uint64_t totalEvents() const;
    /// Peak memory of generating this trace (model/support/memorybudget.h): its event columns,
    /// messages and collective members while the builder matches them, and the ranks.
    uint64_t memoryBytes() const;
};

/// Validates the options and computes the shape; throws TraceError naming the problem
/// (unknown pattern, no ranks, non-cube rank count for stencil3d, too many events...).
/// Costs time and memory linear in the rank count, never in the events.
GeneratorShape generatorShape(const GeneratorOptions& options);

/// Throws TraceError when generating `shape` needs more memory than `options` allow (see
/// GeneratorOptions::checkMemory): "generating N events on R ranks needs about X of memory,
/// Y available".
void checkGeneratorMemory(const GeneratorOptions& options, const GeneratorShape& shape);

/// Generates the trace (Provenance kind "generated", parameters = generatorOptionsText), after
/// checkGeneratorMemory. `progress` receives 0..1 and may return false to cancel (throws
/// Cancelled).
Trace generateTrace(const GeneratorOptions& options, std::function<bool(double)> progress = {});

/// The options as one line of "key=value" pairs, defaults resolved (for Provenance).
std::string generatorOptionsText(const GeneratorOptions& options);

} // namespace rankscope
